package org.yarngnn.compute.kernel;

import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Sampled dense-dense products: one value per edge (and head) of a {@link Csr}, computed from the rows of its
 * destination and source. Edge values are laid out edge-major with heads interleaved: the value of head
 * {@code h} on edge {@code e} (position in {@code colIdx}) is at {@code out[e * heads + h]}.
 */
public final class Sddmm {
  private static final int GRAIN = 1024;

  private Sddmm() {}

  /**
   * Per-edge, per-head dot products: the rows of {@code dst} (one per CSR row) and {@code src} (one per CSR
   * column) are split into {@code heads} equal slices and {@code out[e*heads+h] = dst[i]_h . src[j]_h} for edge
   * {@code e = (j -> i)}. Parallel over destination rows.
   */
  public static void dot(Csr a, DenseMatrix dst, DenseMatrix src, int heads, float[] out) {
    if (dst.cols() != src.cols() || dst.cols() % heads != 0 || dst.rows() < a.numRows() || src.rows() < a.numCols()
        || out.length < a.numEdges() * heads) {
      throw new IllegalArgumentException("sddmm shapes: csr " + a.numRows() + "x" + a.numCols() + ", dst " + dst
          + ", src " + src + ", heads " + heads + ", out " + out.length);
    }
    RowRanges.parallel(a.numRows(), GRAIN, (from, to) -> dotRows(a, dst, src, heads, out, from, to));
  }

  /** {@link #dot} restricted to destination rows {@code [from, to)}, on the calling thread. */
  public static void dotRows(Csr a, DenseMatrix dst, DenseMatrix src, int heads, float[] out, int from, int to) {
    int[] rowPtr = a.rowPtr();
    int[] col = a.colIdx();
    int width = dst.cols() / heads;
    for (int i = from; i < to; i++) {
      int di = dst.offset(i);
      for (int e = rowPtr[i]; e < rowPtr[i + 1]; e++) {
        int sj = src.offset(col[e]);
        for (int h = 0; h < heads; h++) {
          out[e * heads + h] = SparseRows.dot(dst.data(), di + h * width, src.data(), sj + h * width, width);
        }
      }
    }
  }

  /**
   * GAT edge scores from per-node scores: {@code out[e*heads+h] = LeakyReLU(srcScore[j*heads+h] +
   * dstScore[i*heads+h], negativeSlope)} for edge {@code e = (j -> i)}. Parallel over destination rows.
   */
  public static void leakyScores(Csr a, float[] srcScore, float[] dstScore, int heads, float negativeSlope,
      float[] out) {
    if (srcScore.length < (long) a.numCols() * heads || dstScore.length < (long) a.numRows() * heads
        || out.length < a.numEdges() * heads) {
      throw new IllegalArgumentException("score arrays too short for csr " + a.numRows() + "x" + a.numCols()
          + " with " + heads + " heads");
    }
    RowRanges.parallel(a.numRows(), GRAIN,
        (from, to) -> leakyScoresRows(a, srcScore, dstScore, heads, negativeSlope, out, from, to));
  }

  /** {@link #leakyScores} restricted to destination rows {@code [from, to)}, on the calling thread. */
  public static void leakyScoresRows(Csr a, float[] srcScore, float[] dstScore, int heads, float negativeSlope,
      float[] out, int from, int to) {
    int[] rowPtr = a.rowPtr();
    int[] col = a.colIdx();
    for (int i = from; i < to; i++) {
      for (int e = rowPtr[i]; e < rowPtr[i + 1]; e++) {
        int j = col[e];
        for (int h = 0; h < heads; h++) {
          out[e * heads + h] = leakyRelu(srcScore[j * heads + h] + dstScore[i * heads + h], negativeSlope);
        }
      }
    }
  }

  /** {@code x} when positive, else {@code slope * x}. */
  public static float leakyRelu(float x, float slope) {
    return x > 0f ? x : slope * x;
  }
}
