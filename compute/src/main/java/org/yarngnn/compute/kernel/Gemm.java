package org.yarngnn.compute.kernel;

import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Dense float32 matrix multiply into a caller-supplied output: C = A * B with B packed once
 * ({@link PackedMatrix}). Runs a register-blocked {@code jdk.incubator.vector} kernel when the JVM has that module
 * ({@code --add-modules jdk.incubator.vector}), else a cache-blocked scalar kernel; {@link #kernelName()} says
 * which. The system property {@code yarngnn.gemm.kernel=scalar} forces the scalar kernel.
 */
public final class Gemm {
  private static final String VECTOR_MODULE = "jdk.incubator.vector";
  private static final GemmKernel KERNEL = selectKernel();

  private Gemm() {}

  private static GemmKernel selectKernel() {
    if ("scalar".equals(System.getProperty("yarngnn.gemm.kernel"))
        || ModuleLayer.boot().findModule(VECTOR_MODULE).isEmpty()) {
      return ScalarGemmKernel.INSTANCE;
    }
    try {
      // The vector kernel class is touched only here, so a JVM without the module never loads it.
      GemmKernel vector = VectorGemmKernel.createIfUseful();
      return vector != null ? vector : ScalarGemmKernel.INSTANCE;
    } catch (LinkageError e) {
      return ScalarGemmKernel.INSTANCE;
    }
  }

  /** The kernel in use, e.g. {@code vector-256bit-4x24} or {@code scalar-blocked}. */
  public static String kernelName() {
    return KERNEL.name();
  }

  /** The kernel in use; {@link PackedMatrix#pack(DenseMatrix)} packs in its layout. */
  static GemmKernel kernel() {
    return KERNEL;
  }

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
    KERNEL.multiply(a, aOff, lda, m, b, c, cOff, ldc);
  }
}
