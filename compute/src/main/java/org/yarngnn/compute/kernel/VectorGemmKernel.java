package org.yarngnn.compute.kernel;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API GEMM kernel. A register-blocked micro-kernel keeps a 4-row x 3-vector tile of C in 12 vector
 * registers and streams k, each step loading three vectors of a packed B panel and broadcasting four values of A
 * (12 fmas per 3 loads and 4 broadcasts; with AVX2's 16 registers this shape measured 84 GFLOP/s of an 87 GFLOP/s
 * fma peak, where 6x2 and 3x4 reached 40). B is packed into panels of 3 vectors, with 2-vector panels absorbing
 * the remainder (128 columns = 4 x 24 + 2 x 16). Cache blocking: MC rows of A and C stay in L2 across the k
 * blocks; a KC-row slice of one panel stays in L1 while those rows use it.
 *
 * <p>Loaded only when {@code jdk.incubator.vector} is in the boot layer.
 */
final class VectorGemmKernel implements GemmKernel {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  private static final int L = S.length();
  private static final int MR = 4;
  private static final int MAX_PANEL_VECTORS = 3;
  private static final int MC = 32 * MR;
  private static final int KC = 256;
  /**
   * Initial accumulator values of the first k block. The tiles start from a C-shaped operand instead of
   * branching on "first block": with that branch (a store vs a load-add-store per accumulator), C2 ran the whole
   * tile 2x slower.
   */
  private static final float[] ZEROS = new float[MR * MAX_PANEL_VECTORS * L];

  private VectorGemmKernel() {}

  /** The kernel, or null when the preferred species has no real SIMD (then the scalar kernel is as good). */
  static GemmKernel createIfUseful() {
    return S.vectorBitSize() >= 128 ? new VectorGemmKernel() : null;
  }

  @Override
  public String name() {
    return "vector-" + S.vectorBitSize() + "bit-" + MR + "x" + MAX_PANEL_VECTORS * L;
  }

  @Override
  public int[] panelWidths(int n) {
    int vectors = (n + L - 1) / L;
    if (vectors == 0) {
      return new int[0];
    }
    if (vectors <= MAX_PANEL_VECTORS) {
      return new int[] {vectors * L};
    }
    int threes = vectors / 3;
    int rest = vectors % 3;
    // A single leftover vector joins the last 3-vector panel as two 2-vector panels (4x2 runs near 4x3 speed).
    int[] widths = new int[rest == 0 ? threes : rest == 2 ? threes + 1 : threes + 1];
    int q = 0;
    for (int i = 0; i < (rest == 1 ? threes - 1 : threes); i++) {
      widths[q++] = 3 * L;
    }
    if (rest == 1) {
      widths[q++] = 2 * L;
      widths[q] = 2 * L;
    } else if (rest == 2) {
      widths[q] = 2 * L;
    }
    return widths;
  }

  private static boolean fits(PackedMatrix b) {
    for (int q = 0; q < b.panels(); q++) {
      int w = b.panelWidth(q);
      if (w % L != 0 || w / L > MAX_PANEL_VECTORS) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void multiply(float[] a, int aOff, int lda, int m, PackedMatrix b, float[] c, int cOff, int ldc) {
    if (!fits(b)) {
      ScalarGemmKernel.INSTANCE.multiply(a, aOff, lda, m, b, c, cOff, ldc);
      return;
    }
    int k = b.rows();
    int n = b.cols();
    GemmBlocking.checkBounds(a, aOff, lda, m, k, c, cOff, ldc, n);
    if (m == 0 || n == 0) {
      return;
    }
    if (k == 0) {
      GemmBlocking.zero(c, cOff, ldc, m, n);
      return;
    }
    float[] bd = b.data();
    int panels = b.panels();
    // A panel with padding past column n: the tile is computed into this buffer, then its valid columns copied.
    float[] tile = n % L == 0 ? null : new float[MR * MAX_PANEL_VECTORS * L];
    int kc = GemmBlocking.kBlock(k, KC);
    for (int i0 = 0; i0 < m; i0 += MC) {
      int i1 = Math.min(m, i0 + MC);
      for (int p0 = 0; p0 < k; p0 += kc) {
        int kcur = Math.min(kc, k - p0);
        boolean accumulate = p0 > 0;
        for (int q = 0; q < panels; q++) {
          int vectors = b.panelWidth(q) / L;
          int valid = b.panelValidCols(q);
          int bo = b.offset(q, p0);
          int col0 = b.panelCol(q);
          int i = i0;
          for (; i + MR <= i1; i += MR) {
            block(MR, vectors, valid, a, aOff + i * lda + p0, lda, bd, bo, kcur, c, cOff + i * ldc + col0, ldc,
                accumulate, tile);
          }
          for (; i < i1; i++) {
            block(1, vectors, valid, a, aOff + i * lda + p0, lda, bd, bo, kcur, c, cOff + i * ldc + col0, ldc,
                accumulate, tile);
          }
        }
      }
    }
  }

  /** One tile of {@code rows} (MR or 1) rows by one panel, through the tile buffer when the panel is padded. */
  private static void block(int rows, int vectors, int valid, float[] a, int ao, int lda, float[] b, int bo,
      int kc, float[] c, int co, int ldc, boolean accumulate, float[] tile) {
    int width = vectors * L;
    if (valid == width) {
      if (accumulate) {
        tile(rows, vectors, a, ao, lda, b, bo, kc, c, co, ldc, c, co, ldc);
      } else {
        tile(rows, vectors, a, ao, lda, b, bo, kc, c, co, ldc, ZEROS, 0, width);
      }
      return;
    }
    tile(rows, vectors, a, ao, lda, b, bo, kc, tile, 0, width, ZEROS, 0, width);
    for (int r = 0; r < rows; r++) {
      int t = r * width;
      int o = co + r * ldc;
      if (accumulate) {
        for (int j = 0; j < valid; j++) {
          c[o + j] += tile[t + j];
        }
      } else {
        System.arraycopy(tile, t, c, o, valid);
      }
    }
  }

  private static void tile(int rows, int vectors, float[] a, int ao, int lda, float[] b, int bo, int kc, float[] c,
      int co, int ldc, float[] init, int io, int ild) {
    if (rows == MR) {
      switch (vectors) {
        case 3:
          tile4x3(a, ao, lda, b, bo, kc, c, co, ldc, init, io, ild);
          return;
        case 2:
          tile4x2(a, ao, lda, b, bo, kc, c, co, ldc, init, io, ild);
          return;
        default:
          tile4x1(a, ao, lda, b, bo, kc, c, co, ldc, init, io, ild);
          return;
      }
    }
    switch (vectors) {
      case 3:
        tile1x3(a, ao, lda, b, bo, kc, c, co, ldc, init, io, ild);
        return;
      case 2:
        tile1x2(a, ao, lda, b, bo, kc, c, co, ldc, init, io, ild);
        return;
      default:
        tile1x1(a, ao, lda, b, bo, kc, c, co, ldc, init, io, ild);
    }
  }

  /** C[4 x 3L at co] = init[4 x 3L at io] + A[4 x kc at ao] * the kc rows of a 3-vector B panel at bo. */
  private static void tile4x3(float[] a, int ao, int lda, float[] b, int bo, int kc, float[] c, int co,
      int ldc, float[] init, int io, int ild) {
    FloatVector c00 = FloatVector.fromArray(S, init, io);
    FloatVector c01 = FloatVector.fromArray(S, init, io + L);
    FloatVector c02 = FloatVector.fromArray(S, init, io + 2 * L);
    FloatVector c10 = FloatVector.fromArray(S, init, io + ild);
    FloatVector c11 = FloatVector.fromArray(S, init, io + ild + L);
    FloatVector c12 = FloatVector.fromArray(S, init, io + ild + 2 * L);
    FloatVector c20 = FloatVector.fromArray(S, init, io + 2 * ild);
    FloatVector c21 = FloatVector.fromArray(S, init, io + 2 * ild + L);
    FloatVector c22 = FloatVector.fromArray(S, init, io + 2 * ild + 2 * L);
    FloatVector c30 = FloatVector.fromArray(S, init, io + 3 * ild);
    FloatVector c31 = FloatVector.fromArray(S, init, io + 3 * ild + L);
    FloatVector c32 = FloatVector.fromArray(S, init, io + 3 * ild + 2 * L);
    int a0 = ao;
    int a1 = ao + 1 * lda;
    int a2 = ao + 2 * lda;
    int a3 = ao + 3 * lda;
    for (int p = 0; p < kc; p++) {
      int bp = bo + p * 3 * L;
      FloatVector b0 = FloatVector.fromArray(S, b, bp);
      FloatVector b1 = FloatVector.fromArray(S, b, bp + L);
      FloatVector b2 = FloatVector.fromArray(S, b, bp + 2 * L);
      FloatVector x = FloatVector.broadcast(S, a[a0 + p]);
      c00 = b0.fma(x, c00);
      c01 = b1.fma(x, c01);
      c02 = b2.fma(x, c02);
      x = FloatVector.broadcast(S, a[a1 + p]);
      c10 = b0.fma(x, c10);
      c11 = b1.fma(x, c11);
      c12 = b2.fma(x, c12);
      x = FloatVector.broadcast(S, a[a2 + p]);
      c20 = b0.fma(x, c20);
      c21 = b1.fma(x, c21);
      c22 = b2.fma(x, c22);
      x = FloatVector.broadcast(S, a[a3 + p]);
      c30 = b0.fma(x, c30);
      c31 = b1.fma(x, c31);
      c32 = b2.fma(x, c32);
    }
    c00.intoArray(c, co);
    c01.intoArray(c, co + L);
    c02.intoArray(c, co + 2 * L);
    c10.intoArray(c, co + ldc);
    c11.intoArray(c, co + ldc + L);
    c12.intoArray(c, co + ldc + 2 * L);
    c20.intoArray(c, co + 2 * ldc);
    c21.intoArray(c, co + 2 * ldc + L);
    c22.intoArray(c, co + 2 * ldc + 2 * L);
    c30.intoArray(c, co + 3 * ldc);
    c31.intoArray(c, co + 3 * ldc + L);
    c32.intoArray(c, co + 3 * ldc + 2 * L);
  }

  /** C[4 x 2L at co] = init[4 x 2L at io] + A[4 x kc at ao] * the kc rows of a 2-vector B panel at bo. */
  private static void tile4x2(float[] a, int ao, int lda, float[] b, int bo, int kc, float[] c, int co,
      int ldc, float[] init, int io, int ild) {
    FloatVector c00 = FloatVector.fromArray(S, init, io);
    FloatVector c01 = FloatVector.fromArray(S, init, io + L);
    FloatVector c10 = FloatVector.fromArray(S, init, io + ild);
    FloatVector c11 = FloatVector.fromArray(S, init, io + ild + L);
    FloatVector c20 = FloatVector.fromArray(S, init, io + 2 * ild);
    FloatVector c21 = FloatVector.fromArray(S, init, io + 2 * ild + L);
    FloatVector c30 = FloatVector.fromArray(S, init, io + 3 * ild);
    FloatVector c31 = FloatVector.fromArray(S, init, io + 3 * ild + L);
    int a0 = ao;
    int a1 = ao + 1 * lda;
    int a2 = ao + 2 * lda;
    int a3 = ao + 3 * lda;
    for (int p = 0; p < kc; p++) {
      int bp = bo + p * 2 * L;
      FloatVector b0 = FloatVector.fromArray(S, b, bp);
      FloatVector b1 = FloatVector.fromArray(S, b, bp + L);
      FloatVector x = FloatVector.broadcast(S, a[a0 + p]);
      c00 = b0.fma(x, c00);
      c01 = b1.fma(x, c01);
      x = FloatVector.broadcast(S, a[a1 + p]);
      c10 = b0.fma(x, c10);
      c11 = b1.fma(x, c11);
      x = FloatVector.broadcast(S, a[a2 + p]);
      c20 = b0.fma(x, c20);
      c21 = b1.fma(x, c21);
      x = FloatVector.broadcast(S, a[a3 + p]);
      c30 = b0.fma(x, c30);
      c31 = b1.fma(x, c31);
    }
    c00.intoArray(c, co);
    c01.intoArray(c, co + L);
    c10.intoArray(c, co + ldc);
    c11.intoArray(c, co + ldc + L);
    c20.intoArray(c, co + 2 * ldc);
    c21.intoArray(c, co + 2 * ldc + L);
    c30.intoArray(c, co + 3 * ldc);
    c31.intoArray(c, co + 3 * ldc + L);
  }

  /** C[4 x 1L at co] = init[4 x 1L at io] + A[4 x kc at ao] * the kc rows of a 1-vector B panel at bo. */
  private static void tile4x1(float[] a, int ao, int lda, float[] b, int bo, int kc, float[] c, int co,
      int ldc, float[] init, int io, int ild) {
    FloatVector c00 = FloatVector.fromArray(S, init, io);
    FloatVector c10 = FloatVector.fromArray(S, init, io + ild);
    FloatVector c20 = FloatVector.fromArray(S, init, io + 2 * ild);
    FloatVector c30 = FloatVector.fromArray(S, init, io + 3 * ild);
    int a0 = ao;
    int a1 = ao + 1 * lda;
    int a2 = ao + 2 * lda;
    int a3 = ao + 3 * lda;
    for (int p = 0; p < kc; p++) {
      int bp = bo + p * L;
      FloatVector b0 = FloatVector.fromArray(S, b, bp);
      FloatVector x = FloatVector.broadcast(S, a[a0 + p]);
      c00 = b0.fma(x, c00);
      x = FloatVector.broadcast(S, a[a1 + p]);
      c10 = b0.fma(x, c10);
      x = FloatVector.broadcast(S, a[a2 + p]);
      c20 = b0.fma(x, c20);
      x = FloatVector.broadcast(S, a[a3 + p]);
      c30 = b0.fma(x, c30);
    }
    c00.intoArray(c, co);
    c10.intoArray(c, co + ldc);
    c20.intoArray(c, co + 2 * ldc);
    c30.intoArray(c, co + 3 * ldc);
  }

  /** C[1 x 3L at co] = init[1 x 3L at io] + A[1 x kc at ao] * the kc rows of a 3-vector B panel at bo. */
  private static void tile1x3(float[] a, int ao, int lda, float[] b, int bo, int kc, float[] c, int co,
      int ldc, float[] init, int io, int ild) {
    FloatVector c00 = FloatVector.fromArray(S, init, io);
    FloatVector c01 = FloatVector.fromArray(S, init, io + L);
    FloatVector c02 = FloatVector.fromArray(S, init, io + 2 * L);
    int a0 = ao;
    for (int p = 0; p < kc; p++) {
      int bp = bo + p * 3 * L;
      FloatVector b0 = FloatVector.fromArray(S, b, bp);
      FloatVector b1 = FloatVector.fromArray(S, b, bp + L);
      FloatVector b2 = FloatVector.fromArray(S, b, bp + 2 * L);
      FloatVector x = FloatVector.broadcast(S, a[a0 + p]);
      c00 = b0.fma(x, c00);
      c01 = b1.fma(x, c01);
      c02 = b2.fma(x, c02);
    }
    c00.intoArray(c, co);
    c01.intoArray(c, co + L);
    c02.intoArray(c, co + 2 * L);
  }

  /** C[1 x 2L at co] = init[1 x 2L at io] + A[1 x kc at ao] * the kc rows of a 2-vector B panel at bo. */
  private static void tile1x2(float[] a, int ao, int lda, float[] b, int bo, int kc, float[] c, int co,
      int ldc, float[] init, int io, int ild) {
    FloatVector c00 = FloatVector.fromArray(S, init, io);
    FloatVector c01 = FloatVector.fromArray(S, init, io + L);
    int a0 = ao;
    for (int p = 0; p < kc; p++) {
      int bp = bo + p * 2 * L;
      FloatVector b0 = FloatVector.fromArray(S, b, bp);
      FloatVector b1 = FloatVector.fromArray(S, b, bp + L);
      FloatVector x = FloatVector.broadcast(S, a[a0 + p]);
      c00 = b0.fma(x, c00);
      c01 = b1.fma(x, c01);
    }
    c00.intoArray(c, co);
    c01.intoArray(c, co + L);
  }

  /** C[1 x 1L at co] = init[1 x 1L at io] + A[1 x kc at ao] * the kc rows of a 1-vector B panel at bo. */
  private static void tile1x1(float[] a, int ao, int lda, float[] b, int bo, int kc, float[] c, int co,
      int ldc, float[] init, int io, int ild) {
    FloatVector c00 = FloatVector.fromArray(S, init, io);
    int a0 = ao;
    for (int p = 0; p < kc; p++) {
      int bp = bo + p * L;
      FloatVector b0 = FloatVector.fromArray(S, b, bp);
      FloatVector x = FloatVector.broadcast(S, a[a0 + p]);
      c00 = b0.fma(x, c00);
    }
    c00.intoArray(c, co);
  }
}
