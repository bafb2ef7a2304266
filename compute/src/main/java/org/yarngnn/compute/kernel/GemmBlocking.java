package org.yarngnn.compute.kernel;

import java.util.Arrays;

/** Cache blocking shared by the GEMM kernels. */
final class GemmBlocking {
  private GemmBlocking() {}

  /**
   * The k-block length: at most {@code maxKc}, and the blocks of equal size so no thin last block wastes a pass
   * over C (602 -> 3 x 201 rather than 256 + 256 + 90).
   */
  static int kBlock(int k, int maxKc) {
    int blocks = (k + maxKc - 1) / maxKc;
    return (k + blocks - 1) / blocks;
  }

  /** Zeroes columns {@code [0, n)} of m rows of C (k == 0: the product is all zeros). */
  static void zero(float[] c, int cOff, int ldc, int m, int n) {
    for (int i = 0; i < m; i++) {
      Arrays.fill(c, cOff + i * ldc, cOff + i * ldc + n, 0f);
    }
  }

  /** Checks that the strided blocks lie inside their arrays, so a bad offset fails here, not half-way. */
  static void checkBounds(float[] a, int aOff, int lda, int m, int k, float[] c, int cOff, int ldc, int n) {
    if (m < 0 || aOff < 0 || cOff < 0 || (m > 1 && (lda < k || ldc < n))) {
      throw new IllegalArgumentException("gemm block m=" + m + " aOff=" + aOff + " lda=" + lda + " k=" + k
          + " cOff=" + cOff + " ldc=" + ldc + " n=" + n);
    }
    if (m == 0) {
      return;
    }
    long aEnd = aOff + (long) (m - 1) * lda + k;
    long cEnd = cOff + (long) (m - 1) * ldc + n;
    if (aEnd > a.length || cEnd > c.length) {
      throw new IndexOutOfBoundsException("gemm block ends at A[" + aEnd + "] of " + a.length + ", C[" + cEnd
          + "] of " + c.length);
    }
  }
}
