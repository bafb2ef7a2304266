package org.yarngnn.app.infer;

import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.partition.Ownership;

/**
 * Splits edge rows by destination owner into per-owner {@link EdgeBlock}s (undirected: each edge's reverse too,
 * right after it; with zero-filling, a touch of each source whose owner differs from the edge's). One router per
 * reading thread. Columnar readers hand it whole batches: each endpoint's owner is computed once per row.
 */
final class EdgeRouter implements EdgeSink {
  private final Ownership owners;
  private final boolean undirected;
  private final boolean zero;
  private final EdgeBlockBuilder[] edgeParts;
  private final EdgeBlockBuilder[] touchParts;

  EdgeRouter(Ownership owners, int workers, boolean weighted, boolean undirected, boolean zero, int blockRows,
      EdgeBlockBuilder.Sink sink) {
    this.owners = owners;
    this.undirected = undirected;
    this.zero = zero;
    edgeParts = new EdgeBlockBuilder[workers];
    touchParts = new EdgeBlockBuilder[workers];
    for (int q = 0; q < workers; q++) {
      edgeParts[q] = new EdgeBlockBuilder(q, weighted, false, blockRows, sink);
      touchParts[q] = zero ? new EdgeBlockBuilder(q, false, true, blockRows, sink) : null;
    }
  }

  /** Later rows come from file {@code f}: the blocks of the previous file are sent first. */
  void file(int f) throws Exception {
    flush();
    for (int q = 0; q < edgeParts.length; q++) {
      edgeParts[q].file(f);
      if (touchParts[q] != null) {
        touchParts[q].file(f);
      }
    }
  }

  @Override
  public void edge(long src, long dst, float weight, long row) {
    try {
      route(src, dst, weight, row);
    } catch (Exception e) {
      throw routingFailed(e);
    }
  }

  @Override
  public void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
    try {
      for (int i = 0; i < count; i++) {
        route(src[i], dst[i], weight == null ? 1f : weight[i], firstRow + i);
      }
    } catch (Exception e) {
      throw routingFailed(e);
    }
  }

  private void route(long s, long d, float w, long row) throws Exception {
    int qd = owners.owner(d);
    // The source's owner only matters for a reverse edge or a touch.
    int qs = undirected || zero ? owners.owner(s) : qd;
    edgeParts[qd].add(s, d, w, row);
    if (zero && qs != qd) {
      touchParts[qs].add(0, s, 0, row);
    }
    if (undirected && s != d) {
      edgeParts[qs].add(d, s, w, row);
      if (zero && qd != qs) {
        touchParts[qd].add(0, d, 0, row);
      }
    }
  }

  private static RuntimeException routingFailed(Exception e) {
    if (e instanceof RuntimeException r) {
      return r;
    }
    return new IllegalStateException("routing edges: " + org.yarngnn.app.runtime.Failures.describe(e), e);
  }

  /** Sends every partly filled block. */
  void flush() throws Exception {
    for (int q = 0; q < edgeParts.length; q++) {
      edgeParts[q].flush();
      if (touchParts[q] != null) {
        touchParts[q].flush();
      }
    }
  }
}
