package org.yarngnn.compute.kernel;

import java.util.Arrays;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Dense float32 matrix multiply into a caller-supplied output: C = A * B with B packed once
 * ({@link PackedMatrix}). PLACEHOLDER scalar body; the register-blocked Vector API kernel replaces it behind
 * the same signatures.
 */
public final class Gemm {
  private Gemm() {}

  /** C = A * B over all rows of A, parallel over row blocks. C must be A.rows x B.cols. */
  public static void multiply(DenseMatrix a, PackedMatrix b, DenseMatrix c) {
    if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols()) {
      throw new IllegalArgumentException("gemm shapes " + a + " * [" + b.rows() + "x" + b.cols() + "] -> " + c);
    }
    RowRanges.parallel(a.rows(), 64, (from, to) ->
        multiply(a.data(), a.offset(from), a.cols(), to - from, b, c.data(), c.offset(from), c.cols()));
  }

  /** Convenience: packs B, then {@link #multiply(DenseMatrix, PackedMatrix, DenseMatrix)}. */
  public static void multiply(DenseMatrix a, DenseMatrix b, DenseMatrix c) {
    multiply(a, PackedMatrix.pack(b), c);
  }

  /**
   * Single-threaded: the m x n block of C at {@code cOff} (row stride {@code ldc}) = the m x k block of A at
   * {@code aOff} (row stride {@code lda}) times B. Columns of C beyond n are left untouched.
   */
  public static void multiply(float[] a, int aOff, int lda, int m, PackedMatrix b, float[] c, int cOff, int ldc) {
    int k = b.rows();
    int n = b.cols();
    float[] bd = b.data();
    for (int i = 0; i < m; i++) {
      int co = cOff + i * ldc;
      int ao = aOff + i * lda;
      Arrays.fill(c, co, co + n, 0f);
      for (int p = 0; p < k; p++) {
        float av = a[ao + p];
        if (av == 0f) {
          continue;
        }
        int bo = p * n;
        for (int j = 0; j < n; j++) {
          c[co + j] += av * bd[bo + j];
        }
      }
    }
  }
}
