package org.yarngnn.compute.kernel;

/**
 * Row operations shared by the sparse kernels and the layers, on raw arrays with offsets (no allocation). Uses
 * the Vector API kernel when {@code jdk.incubator.vector} is in the boot layer (run with
 * {@code --add-modules jdk.incubator.vector}) and plain loops otherwise; {@code -Dyarngnn.sparse.scalar=true}
 * forces the plain loops.
 */
public final class SparseRows {
  private static final String VECTOR_MODULE = "jdk.incubator.vector";
  private static final SparseRowKernel KERNEL = selectKernel();

  /** The {@code skipCol} that skips no column: a value no column takes. */
  public static final int NO_SKIP = Integer.MIN_VALUE;

  private SparseRows() {}

  private static SparseRowKernel selectKernel() {
    if (Boolean.getBoolean("yarngnn.sparse.scalar") || ModuleLayer.boot().findModule(VECTOR_MODULE).isEmpty()) {
      return ScalarSparseRowKernel.INSTANCE;
    }
    // Only touched when the module is present, so the scalar path never loads Vector API classes.
    SparseRowKernel k = VectorSparseRowKernel.createIfUseful();
    return k == null ? ScalarSparseRowKernel.INSTANCE : k;
  }

  /** Name of the kernel in use, e.g. {@code vector-256bit} or {@code scalar}. */
  public static String kernelName() {
    return KERNEL.name();
  }

  /**
   * {@code out[outOff+c] += sum_e wt_e * x[col[e]*ldx + xOff + c]} for {@code c < n} over edges
   * {@code e in [start, end)} whose column is not {@code skipCol} ({@link #NO_SKIP} to keep all);
   * {@code wt_e = w[wOff+e] * colScale[col[e]]}, where a null {@code w} or {@code colScale} counts as all ones.
   */
  public static void gather(int[] col, int start, int end, float[] w, int wOff, float[] colScale, int skipCol,
      float[] x, int xOff, int ldx, float[] out, int outOff, int n) {
    KERNEL.gather(col, start, end, w, wOff, colScale, skipCol, x, xOff, ldx, out, outOff, n);
  }

  /** {@code y[yOff+c] += a * x[xOff+c]} for {@code c < n}. */
  public static void axpy(float a, float[] x, int xOff, float[] y, int yOff, int n) {
    KERNEL.axpy(a, x, xOff, y, yOff, n);
  }

  /** {@code y[off+c] *= a} for {@code c < n}. */
  public static void scale(float a, float[] y, int off, int n) {
    KERNEL.scale(a, y, off, n);
  }

  /** Relu in place over {@code y[off..off+n)}: {@code y > 0 ? y : 0} (NaN becomes 0). */
  public static void relu(float[] y, int off, int n) {
    KERNEL.relu(y, off, n);
  }

  /** Dot product of {@code a[aOff..aOff+n)} and {@code b[bOff..bOff+n)}. */
  public static float dot(float[] a, int aOff, float[] b, int bOff, int n) {
    return KERNEL.dot(a, aOff, b, bOff, n);
  }

  /**
   * The first {@code i} in {@code [from, to)} with {@code a[i] >= threshold}, or {@code to} when there is none
   * (a NaN is never at least the threshold).
   */
  public static int firstAtLeast(float[] a, int from, int to, float threshold) {
    return KERNEL.firstAtLeast(a, from, to, threshold);
  }
}
