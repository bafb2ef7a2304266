package org.yarngnn.compute.graph;

/**
 * The part of a graph one owner holds: its nodes (local rows {@code 0..numNodes-1}, with their global int64
 * ids) and the in-edges of those nodes as a {@link Csr} whose columns are source slots. Slots
 * {@code 0..numNodes-1} are the local nodes themselves; slots {@code numNodes..numNodes+haloIds.length-1} are
 * remote source nodes (the halo) whose rows a peer sends. In a single JVM the halo is empty. Within each row the
 * sources are ordered by global source id (the order the sampler relies on).
 */
public final class GraphBlock {
  private final long[] nodeIds;
  private final long[] haloIds;
  private final Csr inEdges;

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
  }

  public int numNodes() {
    return nodeIds.length;
  }

  public int numSlots() {
    return nodeIds.length + haloIds.length;
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
    return new GraphBlock(nodeIds, haloIds, edges);
  }
}
