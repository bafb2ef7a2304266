package org.yarngnn.compute.graph;

/**
 * The part of a graph one owner holds: its nodes (local rows {@code 0..numNodes-1}, with their global int64
 * ids) and the in-edges of those nodes as a {@link Csr} whose columns are source slots. Slots
 * {@code 0..numNodes-1} are the local nodes themselves; slots {@code numNodes..numNodes+haloIds.length-1} are
 * remote source nodes (the halo) whose rows a peer sends. In a single JVM the halo is empty. Within each row the
 * sources are ordered by global source id (the order the sampler relies on).
 *
 * <p>A block {@link #inRangeColumns in range columns} is one of several co-located partitions of dense ids, each
 * a run of them, whose workers share one message matrix: its columns are source ids less its first node's id, so
 * that its own nodes are still slots {@code 0..numNodes-1}, and the other slots (below 0, or at numNodes and
 * above) are the peers' nodes, read in place; it has no halo.
 */
public final class GraphBlock {
  private final long[] nodeIds;
  private final long[] haloIds;
  private final Csr inEdges;
  /** Whether the columns are range columns: set by the factory, not inferred from the sizes (an empty peer). */
  private final boolean rangeColumns;
  /** Slots below 0 (range columns: the first node's id), else 0. */
  private final int slotsBelow;
  /** Distinct peers' nodes among the sources (range columns), else the halo's size. */
  private final int peerSources;

  public GraphBlock(long[] nodeIds, long[] haloIds, Csr inEdges) {
    if (inEdges.numRows() != nodeIds.length) {
      throw new IllegalArgumentException("CSR has " + inEdges.numRows() + " rows for " + nodeIds.length + " nodes");
    }
    if (inEdges.numCols() != nodeIds.length + haloIds.length) {
      throw new IllegalArgumentException("CSR has " + inEdges.numCols() + " columns for "
          + (nodeIds.length + haloIds.length) + " source slots");
    }
    this.nodeIds = nodeIds;
    this.haloIds = haloIds;
    this.inEdges = inEdges;
    this.rangeColumns = false;
    this.slotsBelow = 0;
    this.peerSources = haloIds.length;
  }

  private GraphBlock(long[] nodeIds, Csr inEdges, int slotsBelow, int peerSources) {
    this.nodeIds = nodeIds;
    this.haloIds = new long[0];
    this.inEdges = inEdges;
    this.rangeColumns = true;
    this.slotsBelow = slotsBelow;
    this.peerSources = peerSources;
  }

  /**
   * The block of the nodes {@code nodeIds}, the run of ids {@code first..first+n-1} of a graph of
   * {@code first + inEdges.numCols()} nodes with ids {@code 0..}, whose columns are source ids less {@code first}
   * (see the class comment); {@code peerSources}: how many distinct sources are not its own nodes.
   */
  public static GraphBlock inRangeColumns(long[] nodeIds, Csr inEdges, int peerSources) {
    int n = nodeIds.length;
    if (inEdges.numRows() != n) {
      throw new IllegalArgumentException("CSR has " + inEdges.numRows() + " rows for " + n + " nodes");
    }
    long first = n == 0 ? 0 : nodeIds[0];
    if (first < 0 || first > Integer.MAX_VALUE || inEdges.numCols() < n || (n > 0 && nodeIds[n - 1] != first + n - 1)
        || peerSources < 0) {
      throw new IllegalArgumentException("nodes " + first + ".." + (first + n) + " of a CSR of " + inEdges.numCols()
          + " columns from them on are not a run of ids");
    }
    return new GraphBlock(nodeIds, inEdges, (int) first, peerSources);
  }

  /** Whether the columns are range columns ({@link #inRangeColumns}): no halo, peers' rows read in place. */
  public boolean rangeColumns() {
    return rangeColumns;
  }

  /** Slots below 0: a range-columns block's first node id (its peers' nodes before it), else 0. */
  public int slotsBelow() {
    return slotsBelow;
  }

  /** Distinct sources that are not this block's nodes: its halo, or the peers' nodes it reads in place. */
  public int peerSources() {
    return peerSources;
  }

  public int numNodes() {
    return nodeIds.length;
  }

  /** Slots from 0 on: nodes and halo, or for range columns every node from this block's first on. */
  public int numSlots() {
    return inEdges.numCols();
  }

  public long[] nodeIds() {
    return nodeIds;
  }

  public long[] haloIds() {
    return haloIds;
  }

  public Csr inEdges() {
    return inEdges;
  }

  /** Global id of source slot {@code slot}. */
  public long slotId(int slot) {
    if (rangeColumns()) {
      return (long) slotsBelow + slot;
    }
    return slot < nodeIds.length ? nodeIds[slot] : haloIds[slot - nodeIds.length];
  }

  /**
   * True when the edge at position {@code edge} of row {@code row} is a self-loop. A halo slot is always a remote
   * node, so only the node's own slot can be one.
   */
  public boolean isSelfLoop(int row, int edge) {
    return inEdges.colIdx()[edge] == row;
  }

  /** A block whose edges are replaced (same nodes and slots), e.g. by a per-layer sample. */
  public GraphBlock withEdges(Csr edges) {
    if (rangeColumns()) {
      if (edges.numCols() != inEdges.numCols()) {
        throw new IllegalArgumentException("CSR has " + edges.numCols() + " columns for " + inEdges.numCols());
      }
      return new GraphBlock(nodeIds, edges, slotsBelow, peerSources);
    }
    return new GraphBlock(nodeIds, haloIds, edges);
  }
}
