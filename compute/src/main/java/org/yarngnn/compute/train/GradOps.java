package org.yarngnn.compute.train;

import org.yarngnn.compute.kernel.SparseRows;
import org.yarngnn.compute.tensor.DenseMatrix;

/** Small pieces the layer backwards share. */
final class GradOps {
  /** Rows per block in the row-local backward (a Gemm call's rows). */
  static final int BLOCK = 64;

  private static final ThreadLocal<float[][]> SCRATCH = ThreadLocal.withInitial(() -> new float[2][0]);

  private static final ThreadLocal<int[]> ROWS = ThreadLocal.withInitial(() -> new int[BLOCK]);

  private GradOps() {}

  /** A per-thread array holding {@code from, from + 1, .., from + m - 1} ({@code m <= BLOCK}). */
  static int[] consecutive(int from, int m) {
    int[] r = ROWS.get();
    for (int i = 0; i < m; i++) {
      r[i] = from + i;
    }
    return r;
  }

  /**
   * A per-thread buffer of at least {@code size} floats for {@code slot}, contents arbitrary: slot 0 the backward's
   * output-side rows, slot 1 a block of dropped-out input rows ({@link DroppedInput#rows}).
   */
  static float[] scratch(int slot, int size) {
    float[][] b = SCRATCH.get();
    if (b[slot].length < size) {
      b[slot] = new float[Math.max(size, 2 * b[slot].length)];
    }
    return b[slot];
  }

  /**
   * {@code g[gOff + p*n + c] += x[xOff + p] * d[dOff + c]} for {@code p < k}, {@code c < n}: one row's share of
   * {@code X^T dZ}. Zero inputs (sparse features, dropped entries) are skipped.
   */
  static void outer(float[] x, int xOff, int k, float[] d, int dOff, int n, float[] g, int gOff) {
    for (int p = 0; p < k; p++) {
      float v = x[xOff + p];
      if (v != 0f) {
        SparseRows.axpy(v, d, dOff, g, gOff + p * n, n);
      }
    }
  }

  /** A copy of {@code rows x cols} values at {@code w[off..]} as a matrix. */
  static DenseMatrix matrix(float[] w, int off, int rows, int cols) {
    float[] v = new float[rows * cols];
    System.arraycopy(w, off, v, 0, v.length);
    return new DenseMatrix(rows, cols, v);
  }

  static float[] vector(float[] w, int off, int n) {
    float[] v = new float[n];
    System.arraycopy(w, off, v, 0, n);
    return v;
  }
}
