package org.yarngnn.compute.kernel;

/** Plain loops: the fallback when the Vector API module is absent, and the reference for the vector kernel. */
final class ScalarSparseRowKernel implements SparseRowKernel {
  static final ScalarSparseRowKernel INSTANCE = new ScalarSparseRowKernel();

  private ScalarSparseRowKernel() {}

  @Override
  public String name() {
    return "scalar";
  }

  @Override
  public void gather(int[] col, int start, int end, float[] w, int wOff, float[] colScale, int skipCol,
      float[] x, int xOff, int ldx, float[] out, int outOff, int n) {
    for (int e = start; e < end; e++) {
      int j = col[e];
      if (j == skipCol) {
        continue;
      }
      float we = (w == null ? 1f : w[wOff + e]) * (colScale == null ? 1f : colScale[j]);
      int xo = j * ldx + xOff;
      for (int c = 0; c < n; c++) {
        out[outOff + c] += we * x[xo + c];
      }
    }
  }

  @Override
  public void axpy(float a, float[] x, int xOff, float[] y, int yOff, int n) {
    for (int c = 0; c < n; c++) {
      y[yOff + c] += a * x[xOff + c];
    }
  }

  @Override
  public void scale(float a, float[] y, int off, int n) {
    for (int c = 0; c < n; c++) {
      y[off + c] *= a;
    }
  }

  @Override
  public void relu(float[] y, int off, int n) {
    for (int c = off, end = off + n; c < end; c++) {
      float x = y[c];
      y[c] = x > 0f ? x : 0f;
    }
  }

  @Override
  public float dot(float[] a, int aOff, float[] b, int bOff, int n) {
    float s = 0f;
    for (int c = 0; c < n; c++) {
      s += a[aOff + c] * b[bOff + c];
    }
    return s;
  }

  @Override
  public int firstAtLeast(float[] a, int from, int to, float threshold) {
    for (int i = from; i < to; i++) {
      if (a[i] >= threshold) {
        return i;
      }
    }
    return to;
  }
}
