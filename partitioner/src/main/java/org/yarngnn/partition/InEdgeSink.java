package org.yarngnn.partition;

import org.yarngnn.io.table.EdgeSink;

/**
 * An {@link EdgeSink} that takes each edge row as the in-edges it stands for: the edge into its destination and,
 * under --undirected, the reverse edge into its source (a self-loop once). The one place that rule is written
 * for what routes edges ({@link RecordRouter}) and what picks a partition's share of them ({@link OwnEdgeFilter}).
 */
abstract class InEdgeSink implements EdgeSink {
  private final boolean undirected;

  InEdgeSink(boolean undirected) {
    this.undirected = undirected;
  }

  /** The in-edge into {@code to} from {@code from}; {@code reversed} when it is the reverse of row {@code row}. */
  abstract void inEdge(long to, long from, float weight, boolean reversed, long row);

  @Override
  public final void edge(long src, long dst, float weight, long row) {
    inEdge(dst, src, weight, false, row);
    if (undirected && src != dst) {
      inEdge(src, dst, weight, true, row);
    }
  }

  /** EdgeSink's own loop, here so that its call of {@link #edge} is this class's final method, inlined. */
  @Override
  public void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
    for (int i = 0; i < count; i++) {
      edge(src[i], dst[i], weight == null ? 1f : weight[i], firstRow + i);
    }
  }
}
