package org.yarngnn.partition;

import org.yarngnn.io.table.EdgeSink;

/**
 * One writing thread's batch of edges over dense ids, held as {@code int} destinations and sources (and weights),
 * copied into shared arrays a batch at a time by {@link #flush}. {@link #keepRows} is the assembler's writers'
 * branch-free block path: a row is written and counted only when its destination falls in the kept range, so no
 * branch depends on the (random) destination.
 */
abstract class IntEdgeBatch {
  static final int BATCH = 8192;
  final int[] d = new int[BATCH];
  /** Sources when they are held as ints, else null (the subclass keeps wider ones itself). */
  final int[] s32;
  final float[] ws;
  int n;

  IntEdgeBatch(boolean intSources, boolean weighted) {
    s32 = intSources ? new int[BATCH] : null;
    ws = weighted ? new float[BATCH] : null;
  }

  /** Copies the batch's {@link #n} edges out and empties it. */
  abstract void flush();

  /**
   * Rows {@code firstRow..} of the table whose ids are {@code [0, dense)}: each row whose destination is in
   * {@code [lo, lo + span)} kept, its destination made {@code destination - lo}; the others dropped. A row with an
   * endpoint outside the ids goes to {@code rows}, edge by edge (which may write into this batch: the count is
   * synchronized around the call). Needs {@link #s32}.
   */
  final void keepRows(long[] from, long[] to, float[] weight, int count, long firstRow, long dense, long lo,
      long span, EdgeSink rows) {
    int[] dd = d;
    int[] ss = s32;
    float[] wb = ws;
    int k = n;
    for (int i = 0; i < count; i++) {
      if (k == BATCH) {
        n = k;
        flush();
        k = 0;
      }
      long t = to[i];
      long f = from[i];
      if (Long.compareUnsigned(t, dense) >= 0 || Long.compareUnsigned(f, dense) >= 0) {
        n = k;
        rows.edge(f, t, weight == null ? 1f : weight[i], firstRow + i);
        k = n;
        continue;
      }
      long local = t - lo;
      dd[k] = (int) local;
      ss[k] = (int) f;
      if (wb != null) {
        wb[k] = weight == null ? 1f : weight[i];
      }
      k += Long.compareUnsigned(local, span) < 0 ? 1 : 0;
    }
    n = k;
  }
}
