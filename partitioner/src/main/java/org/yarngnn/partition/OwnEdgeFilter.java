package org.yarngnn.partition;

import org.yarngnn.io.table.EdgeSink;

/**
 * Picks one partition's share out of every edge row, for a worker that reads the whole edge table itself instead
 * of its share of the files with the rest routed to it. It keeps what a {@link RecordRouter} made for that
 * partition would keep (the edges into its nodes, the references to its nodes from other partitions' edges) and
 * drops the rest: every other partition reads the same rows and keeps its own, so each edge is still checked by
 * its destination's owner and each source by its owner, without a block, a message or a copy.
 */
public final class OwnEdgeFilter implements EdgeSink {
  private final Ownership ownership;
  private final boolean undirected;
  private final int partition;
  private final RecordRouter.OwnEdges own;

  public OwnEdgeFilter(Ownership ownership, boolean undirected, int partition, RecordRouter.OwnEdges own) {
    if (partition < 0 || partition >= ownership.parts()) {
      throw new IllegalArgumentException("partition " + partition + " of " + ownership.parts());
    }
    this.ownership = ownership;
    this.undirected = undirected;
    this.partition = partition;
    this.own = own;
  }

  /** Later rows come from table file {@code f}. */
  public void file(int f) {
    own.file(f);
  }

  @Override
  public void edge(long src, long dst, float weight, long row) {
    keep(dst, src, weight, false, row);
    if (undirected && src != dst) {
      keep(src, dst, weight, true, row);
    }
  }

  /** EdgeSink's own loop, here so that its call of {@link #edge} sees one receiver class and is inlined. */
  @Override
  public void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
    for (int i = 0; i < count; i++) {
      edge(src[i], dst[i], weight == null ? 1f : weight[i], firstRow + i);
    }
  }

  private void keep(long to, long from, float weight, boolean reversed, long row) {
    int toOwner = ownership.owner(to);
    int fromOwner = ownership.owner(from);
    if (toOwner == partition) {
      own.ownEdge(to, from, weight, reversed, fromOwner == partition, row);
    } else if (fromOwner == partition) {
      own.ownReference(from, reversed ? 1 : 0, row);
    }
  }
}
