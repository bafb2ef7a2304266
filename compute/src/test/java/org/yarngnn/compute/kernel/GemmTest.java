package org.yarngnn.compute.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import org.ejml.data.FMatrixRMaj;
import org.ejml.dense.row.CommonOps_FDRM;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.tensor.DenseMatrix;

class GemmTest {
  private static final int[] SIZES = {0, 1, 3, 7, 15, 16, 17, 33, 64, 100, 129};
  private static final float SENTINEL = -12345.5f;

  private static final GemmKernel SCALAR = ScalarGemmKernel.INSTANCE;
  /** Not a static field: {@link GemmFallbackTest.Child} uses this class's helpers in a JVM without the module. */
  private final GemmKernel vector = VectorGemmKernel.createIfUseful();

  static DenseMatrix random(int rows, int cols, Random rnd) {
    DenseMatrix m = new DenseMatrix(rows, cols);
    for (int i = 0; i < m.data().length; i++) {
      m.data()[i] = rnd.nextFloat() * 2f - 1f;
    }
    return m;
  }

  /**
   * Asserts C (m x n at cOff, stride ldc) equals A * B to float rounding: the error bound scales with
   * sum_p |a_ip b_pj|, computed in double alongside the exact product.
   */
  static void assertProduct(DenseMatrix a, DenseMatrix b, float[] c, int cOff, int ldc, String what) {
    int m = a.rows();
    int k = a.cols();
    int n = b.cols();
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        double exact = 0;
        double scale = 0;
        for (int p = 0; p < k; p++) {
          double t = (double) a.get(i, p) * b.get(p, j);
          exact += t;
          scale += Math.abs(t);
        }
        float got = c[cOff + i * ldc + j];
        if (!(Math.abs(got - exact) <= 1e-5 * scale + 1e-30)) {
          fail(what + ": C[" + i + "," + j + "] = " + got + ", expected " + exact + " (scale " + scale + ")");
        }
      }
    }
  }

  private static void checkKernelAllShapes(GemmKernel kernel, GemmKernel packer) {
    Random rnd = new Random(42);
    for (int m : SIZES) {
      for (int k : SIZES) {
        for (int n : SIZES) {
          DenseMatrix a = random(m, k, rnd);
          DenseMatrix b = random(k, n, rnd);
          float[] c = new float[m * n];
          java.util.Arrays.fill(c, SENTINEL);
          kernel.multiply(a.data(), 0, k, m, PackedMatrix.pack(b, packer), c, 0, n);
          assertProduct(a, b, c, 0, n, kernel.name() + " " + m + "x" + k + "x" + n);
        }
      }
    }
  }

  @Test
  void vectorKernelMatchesExactProductOnAllShapes() {
    assertNotNull(vector, "surefire runs with jdk.incubator.vector, so the vector kernel must be usable");
    checkKernelAllShapes(vector, vector);
  }

  @Test
  void scalarKernelMatchesExactProductOnAllShapes() {
    checkKernelAllShapes(SCALAR, SCALAR);
  }

  @Test
  void eachKernelAcceptsTheOthersPacking() {
    checkKernelAllShapesSubset(SCALAR, vector);
    checkKernelAllShapesSubset(vector, SCALAR);
  }

  private static void checkKernelAllShapesSubset(GemmKernel kernel, GemmKernel packer) {
    Random rnd = new Random(7);
    for (int[] s : new int[][] {{7, 33, 129}, {17, 100, 17}, {64, 1, 3}, {3, 64, 100}}) {
      DenseMatrix a = random(s[0], s[1], rnd);
      DenseMatrix b = random(s[1], s[2], rnd);
      float[] c = new float[s[0] * s[2]];
      kernel.multiply(a.data(), 0, s[1], s[0], PackedMatrix.pack(b, packer), c, 0, s[2]);
      assertProduct(a, b, c, 0, s[2], kernel.name() + " on " + packer.name() + " panels");
    }
  }

  @Test
  void matchesEjmlOnRandomShapes() {
    Random rnd = new Random(3);
    for (int t = 0; t < 60; t++) {
      int m = 1 + rnd.nextInt(150);
      int k = 1 + rnd.nextInt(300);
      int n = 1 + rnd.nextInt(150);
      DenseMatrix a = random(m, k, rnd);
      DenseMatrix b = random(k, n, rnd);
      DenseMatrix c = new DenseMatrix(m, n);
      Gemm.multiply(a, b, c);
      FMatrixRMaj expected = new FMatrixRMaj(m, n);
      CommonOps_FDRM.mult(new FMatrixRMaj(m, k, true, a.data()), new FMatrixRMaj(k, n, true, b.data()), expected);
      for (int i = 0; i < m * n; i++) {
        float e = expected.data[i];
        assertEquals(e, c.data()[i], 1e-4f * Math.max(1f, Math.abs(e)), "EJML " + m + "x" + k + "x" + n + " at " + i);
      }
    }
  }

  @Test
  void stridedBlocksRespectLdaLdcAndLeaveColumnsBeyondNUntouched() {
    Random rnd = new Random(11);
    for (GemmKernel kernel : new GemmKernel[] {vector, SCALAR}) {
      for (int[] s : new int[][] {{13, 40, 17}, {64, 129, 33}, {5, 7, 100}, {1, 3, 1}, {33, 0, 15}, {13, 602, 131}, {70, 520, 24}}) {
        int m = s[0];
        int k = s[1];
        int n = s[2];
        int lda = k + 5;
        int ldc = n + 9;
        int aOff = 3;
        int cOff = 7;
        DenseMatrix a = random(m, k, rnd);
        DenseMatrix b = random(k, n, rnd);
        float[] aStrided = new float[aOff + m * lda];
        java.util.Arrays.fill(aStrided, Float.NaN); // padding of A must never be read
        for (int i = 0; i < m; i++) {
          System.arraycopy(a.data(), i * k, aStrided, aOff + i * lda, k);
        }
        float[] c = new float[cOff + m * ldc + 4];
        java.util.Arrays.fill(c, SENTINEL);
        kernel.multiply(aStrided, aOff, lda, m, PackedMatrix.pack(b, kernel), c, cOff, ldc);
        String what = kernel.name() + " strided " + m + "x" + k + "x" + n;
        assertProduct(a, b, c, cOff, ldc, what);
        for (int i = 0; i < c.length; i++) {
          int rel = i - cOff;
          boolean inside = rel >= 0 && rel / ldc < m && rel % ldc < n;
          if (!inside) {
            assertEquals(SENTINEL, c[i], what + ": C[" + i + "] outside the block was written");
          }
        }
      }
    }
  }

  @Test
  void parallelPathEqualsSingleThreadedAndExactProduct() {
    Random rnd = new Random(5);
    DenseMatrix a = random(3001, 150, rnd);
    DenseMatrix b = random(150, 70, rnd);
    PackedMatrix packed = PackedMatrix.pack(b);
    DenseMatrix parallel = new DenseMatrix(3001, 70);
    Gemm.multiply(a, packed, parallel);
    float[] single = new float[3001 * 70];
    Gemm.multiply(a.data(), 0, 150, 3001, packed, single, 0, 70);
    // Every row is computed by the same instruction sequence however rows are split, so results are identical.
    assertArrayEquals(single, parallel.data());
    assertProduct(a, b, parallel.data(), 0, 70, "parallel");
  }

  @Test
  void zeroInnerDimensionGivesZeros() {
    DenseMatrix c = new DenseMatrix(5, 9);
    java.util.Arrays.fill(c.data(), 3f);
    Gemm.multiply(new DenseMatrix(5, 0), new DenseMatrix(0, 9), c);
    assertArrayEquals(new float[45], c.data());
  }

  @Test
  void packedMatrixKeepsEveryElement() {
    DenseMatrix b = random(37, 129, new Random(1));
    for (GemmKernel kernel : new GemmKernel[] {vector, SCALAR}) {
      PackedMatrix p = PackedMatrix.pack(b, kernel);
      assertEquals(37, p.rows());
      assertEquals(129, p.cols());
      for (int i = 0; i < 37; i++) {
        for (int j = 0; j < 129; j++) {
          assertEquals(b.get(i, j), p.get(i, j), kernel.name() + " (" + i + "," + j + ")");
        }
      }
    }
  }

  @Test
  void vectorPanelsAreWholeVectorsOfAtMostThree() {
    int lanes = vector.panelWidths(1)[0];
    assertEquals(lanes, vector.panelWidths(lanes)[0]);
    for (int n = 1; n <= 20 * lanes; n++) {
      int total = 0;
      for (int w : vector.panelWidths(n)) {
        assertTrue(w % lanes == 0 && w / lanes >= 1 && w / lanes <= 3, "n=" + n + " width " + w);
        total += w;
      }
      assertEquals((n + lanes - 1) / lanes * lanes, total, "n=" + n);
    }
  }

  @Test
  void rejectsMismatchedShapesAndOutOfRangeBlocks() {
    assertThrows(IllegalArgumentException.class,
        () -> Gemm.multiply(new DenseMatrix(2, 3), new DenseMatrix(4, 2), new DenseMatrix(2, 2)));
    PackedMatrix b = PackedMatrix.pack(new DenseMatrix(3, 4));
    assertThrows(IndexOutOfBoundsException.class,
        () -> Gemm.multiply(new float[6], 0, 3, 3, b, new float[12], 0, 4));
  }

  @Test
  void kernelNameSaysVectorWhenTheModuleIsPresent() {
    assertTrue(Gemm.kernelName().startsWith("vector-"), Gemm.kernelName());
  }
}
