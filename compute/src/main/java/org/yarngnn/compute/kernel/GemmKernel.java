package org.yarngnn.compute.kernel;

/** One single-threaded implementation of {@link Gemm}'s strided block multiply; {@link Gemm} picks one per JVM. */
interface GemmKernel {
  /** Short name for logs and benchmarks. */
  String name();

  /** The panel widths {@link PackedMatrix} should use for n columns so this kernel runs at full speed. */
  int[] panelWidths(int n);

  /**
   * Same contract as {@link Gemm#multiply(float[], int, int, int, PackedMatrix, float[], int, int)}; any panel
   * layout must work (a kernel may hand a layout it was not built for to the scalar kernel).
   */
  void multiply(float[] a, int aOff, int lda, int m, PackedMatrix b, float[] c, int cOff, int ldc);
}
