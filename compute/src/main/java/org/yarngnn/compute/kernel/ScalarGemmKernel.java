package org.yarngnn.compute.kernel;

import java.util.Arrays;

/**
 * The GEMM kernel without the Vector API (a JVM started without {@code --add-modules jdk.incubator.vector}, as
 * {@code yarn jar} does): cache-blocked like the vector kernel, with an inner loop over one panel row that C2
 * auto-vectorises. Accepts any panel layout.
 */
final class ScalarGemmKernel implements GemmKernel {
  static final ScalarGemmKernel INSTANCE = new ScalarGemmKernel();
  /**
   * Wide panels: the inner loop runs over a panel row, and C2 only vectorises a loop well when it is long (with
   * 16-column panels this kernel ran at 3 GFLOP/s).
   */
  private static final int PANEL_WIDTH = 1024;
  /** Rows whose C block (MC x n) stays in L2 across the k blocks. */
  private static final int MC = 64;
  /** k block: a KC x panel slice of B (16 KiB) stays in L1 while MC rows use it. */
  private static final int KC = 256;

  private ScalarGemmKernel() {}

  @Override
  public String name() {
    return "scalar-blocked";
  }

  @Override
  public int[] panelWidths(int n) {
    int[] widths = new int[(n + PANEL_WIDTH - 1) / PANEL_WIDTH];
    Arrays.fill(widths, PANEL_WIDTH);
    if (widths.length > 0) {
      widths[widths.length - 1] = n - (widths.length - 1) * PANEL_WIDTH; // no padding: the panel is n wide
    }
    return widths;
  }

  @Override
  public void multiply(float[] a, int aOff, int lda, int m, PackedMatrix b, float[] c, int cOff, int ldc) {
    int k = b.rows();
    int n = b.cols();
    GemmBlocking.checkBounds(a, aOff, lda, m, k, c, cOff, ldc, n);
    if (m == 0 || n == 0) {
      return;
    }
    GemmBlocking.zero(c, cOff, ldc, m, n);
    if (k == 0) {
      return;
    }
    float[] bd = b.data();
    int panels = b.panels();
    int kc = GemmBlocking.kBlock(k, KC);
    for (int i0 = 0; i0 < m; i0 += MC) {
      int i1 = Math.min(m, i0 + MC);
      for (int p0 = 0; p0 < k; p0 += kc) {
        int kcur = Math.min(kc, k - p0);
        for (int q = 0; q < panels; q++) {
          int col0 = b.panelCol(q);
          int width = b.panelValidCols(q);
          int stride = b.panelWidth(q);
          int bo = b.offset(q, p0);
          int i = i0;
          for (; i + 4 <= i1; i += 4) {
            fourRowsTimesPanel(a, aOff + i * lda + p0, lda, kcur, bd, bo, stride, width, c, cOff + i * ldc + col0, ldc);
          }
          for (; i < i1; i++) {
            rowTimesPanel(a, aOff + i * lda + p0, kcur, bd, bo, stride, width, c, cOff + i * ldc + col0);
          }
        }
      }
    }
  }

  /** Four rows of C at once, so each B value loaded serves four fmas. */
  private static void fourRowsTimesPanel(float[] a, int ao, int lda, int kc, float[] bd, int bo, int stride,
      int width, float[] c, int co, int ldc) {
    int c1 = co + ldc;
    int c2 = c1 + ldc;
    int c3 = c2 + ldc;
    for (int p = 0; p < kc; p++) {
      float x0 = a[ao + p];
      float x1 = a[ao + lda + p];
      float x2 = a[ao + 2 * lda + p];
      float x3 = a[ao + 3 * lda + p];
      int bp = bo + p * stride;
      for (int j = 0; j < width; j++) {
        float bv = bd[bp + j];
        c[co + j] += x0 * bv;
        c[c1 + j] += x1 * bv;
        c[c2 + j] += x2 * bv;
        c[c3 + j] += x3 * bv;
      }
    }
  }

  /** C[co .. co+width) += A[ao .. ao+kc) * the kc panel rows of B at bo (row stride {@code stride}). */
  private static void rowTimesPanel(float[] a, int ao, int kc, float[] bd, int bo, int stride, int width,
      float[] c, int co) {
    for (int p = 0; p < kc; p++) {
      float x = a[ao + p];
      int bp = bo + p * stride;
      for (int j = 0; j < width; j++) {
        c[co + j] += x * bd[bp + j];
      }
    }
  }
}
