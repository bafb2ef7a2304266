package org.yarngnn.compute.kernel;

/**
 * The dense row operations the sparse kernels and layers are built from, on raw arrays with offsets so callers
 * never allocate. {@link SparseRows} picks one implementation per JVM (Vector API or scalar).
 */
interface SparseRowKernel {
  /** Short name for logs and benchmarks. */
  String name();

  /**
   * {@code out[outOff+c] += sum_e wt_e * x[col[e]*ldx + xOff + c]} for {@code c < n} over edges
   * {@code e in [start, end)} whose column is not {@code skipCol}; {@code wt_e = w[wOff+e] * colScale[col[e]]},
   * a null array counting as all ones.
   */
  void gather(int[] col, int start, int end, float[] w, int wOff, float[] colScale, int skipCol,
      float[] x, int xOff, int ldx, float[] out, int outOff, int n);

  /** {@code y[yOff+c] += a * x[xOff+c]} for {@code c < n}. */
  void axpy(float a, float[] x, int xOff, float[] y, int yOff, int n);

  /** {@code y[off+c] *= a} for {@code c < n}. */
  void scale(float a, float[] y, int off, int n);

  /** {@code y[off+c] = y[off+c] > 0 ? y[off+c] : 0} for {@code c < n} (relu; a NaN becomes 0, as the scalar form). */
  void relu(float[] y, int off, int n);

  /** Sum of {@code a[aOff+c] * b[bOff+c]} for {@code c < n}. */
  float dot(float[] a, int aOff, float[] b, int bOff, int n);

  /** The first {@code i} in {@code [from, to)} with {@code a[i] >= threshold}, or {@code to} when there is none. */
  int firstAtLeast(float[] a, int from, int to, float threshold);
}
