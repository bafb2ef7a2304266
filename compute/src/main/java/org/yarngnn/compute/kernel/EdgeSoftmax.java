package org.yarngnn.compute.kernel;

import org.yarngnn.compute.graph.Csr;

/**
 * Softmax over the in-edges of each destination, per head, in place: {@code s[e*heads+h]} becomes
 * {@code exp(s_e - m) / sum_e' exp(s_e' - m)} over the edges of e's row, with {@code m} the row's maximum (so
 * no overflow for large scores). A score of negative infinity gets weight 0 (a masked edge); a row with no
 * finite score (in particular an empty row) gets all zeros, never NaN.
 */
public final class EdgeSoftmax {
  private static final int GRAIN = 1024;

  private EdgeSoftmax() {}

  /** Per-row, per-head softmax of {@code scores} (laid out as {@link Sddmm}'s output), parallel over rows. */
  public static void softmax(Csr a, float[] scores, int heads) {
    if (scores.length < a.numEdges() * heads) {
      throw new IllegalArgumentException("scores hold " + scores.length + " values for " + a.numEdges()
          + " edges x " + heads + " heads");
    }
    RowRanges.parallel(a.numRows(), GRAIN, (from, to) -> softmaxRows(a, scores, heads, from, to));
  }

  /** {@link #softmax} restricted to rows {@code [from, to)}, on the calling thread. */
  public static void softmaxRows(Csr a, float[] scores, int heads, int from, int to) {
    int[] rowPtr = a.rowPtr();
    for (int i = from; i < to; i++) {
      int start = rowPtr[i];
      int count = rowPtr[i + 1] - start;
      for (int h = 0; h < heads; h++) {
        softmax(scores, start * heads + h, count, heads);
      }
    }
  }

  /**
   * Softmax in place over the {@code count} values {@code s[off + k*stride]}, {@code k < count}: the segment
   * primitive of the row softmax, also used by layers that add a virtual self-loop to each row.
   */
  public static void softmax(float[] s, int off, int count, int stride) {
    int end = off + count * stride;
    float max = Float.NEGATIVE_INFINITY;
    for (int p = off; p < end; p += stride) {
      max = Math.max(max, s[p]);
    }
    if (max == Float.NEGATIVE_INFINITY) {
      for (int p = off; p < end; p += stride) {
        s[p] = 0f;
      }
      return;
    }
    double sum = 0;
    for (int p = off; p < end; p += stride) {
      float v = (float) Math.exp(s[p] - max);
      s[p] = v;
      sum += v;
    }
    float inv = (float) (1.0 / sum);
    for (int p = off; p < end; p += stride) {
      s[p] *= inv;
    }
  }
}
