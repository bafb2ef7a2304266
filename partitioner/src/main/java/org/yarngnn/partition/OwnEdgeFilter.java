package org.yarngnn.partition;

/**
 * Picks one partition's share out of every edge row, for a worker that reads the whole edge table itself instead
 * of its share of the files with the rest routed to it. It keeps what a {@link RecordRouter} made for that
 * partition would keep (the edges into its nodes, the references to its nodes from other partitions' edges) and
 * drops the rest: every other partition reads the same rows and keeps its own, so each edge is still checked by
 * its destination's owner and each source by its owner, without a block, a message or a copy.
 */
public final class OwnEdgeFilter extends InEdgeSink {
  private final Ownership ownership;
  private final int partition;
  private final RecordRouter.OwnEdges own;

  public OwnEdgeFilter(Ownership ownership, boolean undirected, int partition, RecordRouter.OwnEdges own) {
    super(undirected);
    if (partition < 0 || partition >= ownership.parts()) {
      throw new IllegalArgumentException("partition " + partition + " of " + ownership.parts());
    }
    this.ownership = ownership;
    this.partition = partition;
    this.own = own;
  }

  /** Later rows come from table file {@code f}. */
  public void file(int f) {
    own.file(f);
  }

  /** Keeps the in-edge if its destination is this partition's, else checks its source if that is. */
  @Override
  void inEdge(long to, long from, float weight, boolean reversed, long row) {
    int toOwner = ownership.owner(to);
    int fromOwner = ownership.owner(from);
    if (toOwner == partition) {
      own.ownEdge(to, from, weight, reversed, fromOwner == partition, row);
    } else if (fromOwner == partition) {
      own.ownReference(from, reversed ? 1 : 0, row);
    }
  }
}
