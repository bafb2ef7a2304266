package org.yarngnn.compute.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.yarngnn.compute.kernel.SparseTestGraphs.assertClose;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

class SpMMTest {
  /** Widths below, at and across the strips of the vector kernel (1, 4 and 8 vectors) and its scalar tail. */
  private static final int[] WIDTHS = {1, 3, 8, 16, 17, 33, 64, 100, 128, 133};

  private static double[][] naive(Csr a, DenseMatrix x, SpMM.Reduce r, float[] rowScale, float[] colScale) {
    double[][] out = new double[a.numRows()][x.cols()];
    for (int i = 0; i < a.numRows(); i++) {
      for (int e = a.rowPtr()[i]; e < a.rowPtr()[i + 1]; e++) {
        int j = a.colIdx()[e];
        double w = a.weight(e) * (colScale == null ? 1 : colScale[j]);
        for (int c = 0; c < x.cols(); c++) {
          out[i][c] += w * x.get(j, c);
        }
      }
      double f = rowScale == null ? 1 : rowScale[i];
      if (r == SpMM.Reduce.MEAN && a.degree(i) > 0) {
        f /= a.degree(i);
      }
      for (int c = 0; c < x.cols(); c++) {
        out[i][c] *= f;
      }
    }
    return out;
  }

  /**
   * A row without edges (or whose only edge is the skipped column) leaves its output exactly as it was, NaN and
   * negative zero included, at every width: the vector kernel returns before its strip loops for it.
   */
  @Test
  void gatherOverNoEdgesLeavesTheOutputAsItWas() {
    int[] col = {3, 1};
    float[] x = new float[4 * 133];
    Arrays.fill(x, 2.5f);
    for (int n : WIDTHS) {
      float[] out = new float[n + 2];
      for (int c = 0; c < out.length; c++) {
        out[c] = c % 3 == 0 ? Float.NaN : c % 3 == 1 ? -0f : c;
      }
      float[] before = out.clone();
      SparseRows.gather(col, 1, 1, null, 0, null, SparseRows.NO_SKIP, x, 0, n, out, 1, n);
      SparseRows.gather(col, 0, 1, new float[] {0.5f, 2f}, 0, null, 3, x, 0, n, out, 1, n);
      for (int c = 0; c < out.length; c++) {
        assertEquals(Float.floatToRawIntBits(before[c]), Float.floatToRawIntBits(out[c]),
            SparseRows.kernelName() + ", width " + n + ", column " + c);
      }
      SparseRows.gather(col, 0, 2, null, 0, null, SparseRows.NO_SKIP, x, 0, n, out, 1, n);
      assertEquals(5f, out[1], 0f, "two edges still add up, width " + n);
    }
  }

  @Test
  void sumAndMeanMatchNaiveForWeightedAndUnweightedGraphs() {
    SplittableRandom r = new SplittableRandom(11);
    for (boolean weighted : new boolean[] {false, true}) {
      GraphBlock g = SparseTestGraphs.random(r, 90, 20, 700, weighted);
      Csr a = g.inEdges();
      for (int width : WIDTHS) {
        DenseMatrix x = SparseTestGraphs.randomMatrix(r, g.numSlots(), width);
        for (SpMM.Reduce red : SpMM.Reduce.values()) {
          DenseMatrix out = SparseTestGraphs.randomMatrix(r, g.numNodes(), width); // stale values must go
          SpMM.multiply(a, x, out, red);
          assertClose(naive(a, x, red, null, null), out, 1e-5, red + " width " + width + " weighted " + weighted);
        }
      }
    }
  }

  @Test
  void emptyRowsGiveZeroAndRangesCoverOnlyTheirRows() {
    Csr a = new Csr(3, 3, new int[] {0, 0, 2, 2}, new int[] {0, 2}, null);
    DenseMatrix x = DenseMatrix.of(new float[][] {{1, 2}, {3, 4}, {5, 6}});
    DenseMatrix out = DenseMatrix.of(new float[][] {{9, 9}, {9, 9}, {9, 9}});
    SpMM.multiplyRows(a, x, out, SpMM.Reduce.MEAN, 0, 2);
    assertClose(new double[][] {{0, 0}, {3, 4}, {9, 9}}, out, 0, "mean rows 0..2");
    SpMM.multiply(a, x, out, SpMM.Reduce.SUM);
    assertClose(new double[][] {{0, 0}, {6, 8}, {0, 0}}, out, 0, "sum");
  }

  @Test
  void scaledVariantIsGcnNormalisation() {
    SplittableRandom r = new SplittableRandom(12);
    GraphBlock g = SparseTestGraphs.random(r, 70, 0, 400, true);
    Csr a = g.inEdges();
    float[] rowScale = SparseTestGraphs.randomVector(r, a.numRows());
    float[] colScale = SparseTestGraphs.randomVector(r, a.numCols());
    for (int width : new int[] {1, 17, 40}) {
      DenseMatrix x = SparseTestGraphs.randomMatrix(r, a.numCols(), width);
      DenseMatrix out = new DenseMatrix(a.numRows(), width);
      SpMM.multiplyScaled(a, rowScale, colScale, x, out);
      assertClose(naive(a, x, SpMM.Reduce.SUM, rowScale, colScale), out, 1e-5, "scaled width " + width);
      SpMM.multiplyScaled(a, null, null, x, out);
      assertClose(naive(a, x, SpMM.Reduce.SUM, null, null), out, 1e-5, "unscaled width " + width);
    }
  }

  @Test
  void singleNodeWithSelfLoop() {
    Csr a = new Csr(1, 1, new int[] {0, 2}, new int[] {0, 0}, new float[] {2f, 0.5f});
    DenseMatrix x = DenseMatrix.of(new float[][] {{1, -2, 3}});
    DenseMatrix out = new DenseMatrix(1, 3);
    SpMM.multiply(a, x, out, SpMM.Reduce.SUM);
    assertClose(new double[][] {{2.5, -5, 7.5}}, out, 1e-6, "sum");
    SpMM.multiply(a, x, out, SpMM.Reduce.MEAN);
    assertClose(new double[][] {{1.25, -2.5, 3.75}}, out, 1e-6, "mean");
  }

  @Test
  void rejectsMismatchedShapes() {
    Csr a = new Csr(2, 3, new int[] {0, 1, 2}, new int[] {0, 2}, null);
    assertThrows(IllegalArgumentException.class,
        () -> SpMM.multiply(a, new DenseMatrix(2, 4), new DenseMatrix(2, 4), SpMM.Reduce.SUM));
    assertThrows(IllegalArgumentException.class,
        () -> SpMM.multiply(a, new DenseMatrix(3, 4), new DenseMatrix(2, 5), SpMM.Reduce.SUM));
  }

  @Test
  void scalarAndSelectedRowKernelsAgree() {
    SplittableRandom r = new SplittableRandom(13);
    GraphBlock g = SparseTestGraphs.random(r, 40, 5, 300, true);
    Csr a = g.inEdges();
    float[] colScale = SparseTestGraphs.randomVector(r, a.numCols());
    for (int width : WIDTHS) {
      DenseMatrix x = SparseTestGraphs.randomMatrix(r, a.numCols(), width + 2);
      for (int i = 0; i < a.numRows(); i++) {
        float[] expected = new float[width + 1];
        float[] actual = new float[width + 1];
        int skip = i % 2 == 0 ? i : -1;
        ScalarSparseRowKernel.INSTANCE.gather(a.colIdx(), a.rowPtr()[i], a.rowPtr()[i + 1], a.weights(), 0,
            colScale, skip, x.data(), 2, x.cols(), expected, 1, width);
        SparseRows.gather(a.colIdx(), a.rowPtr()[i], a.rowPtr()[i + 1], a.weights(), 0, colScale, skip, x.data(), 2,
            x.cols(), actual, 1, width);
        assertEquals(0f, actual[0], "column before the window untouched");
        for (int c = 1; c <= width; c++) {
          assertEquals(expected[c], actual[c], 1e-5f * Math.max(1f, Math.abs(expected[c])), "gather " + width);
        }
      }
      float[] u = SparseTestGraphs.randomVector(r, width);
      float[] v = SparseTestGraphs.randomVector(r, width);
      assertEquals(ScalarSparseRowKernel.INSTANCE.dot(u, 0, v, 0, width), SparseRows.dot(u, 0, v, 0, width), 1e-5f);
      float[] y1 = v.clone();
      float[] y2 = v.clone();
      ScalarSparseRowKernel.INSTANCE.axpy(0.7f, u, 0, y1, 0, width);
      SparseRows.axpy(0.7f, u, 0, y2, 0, width);
      ScalarSparseRowKernel.INSTANCE.scale(-1.5f, y1, 0, width);
      SparseRows.scale(-1.5f, y2, 0, width);
      for (int c = 0; c < width; c++) {
        assertEquals(y1[c], y2[c], 1e-5f, "axpy/scale");
      }
    }
  }

  /**
   * Skipping a column (GCN's input self-loops) splits the row into runs accumulated in edge order: with unit
   * weights the vector kernel's sums are the plain sums in edge order, bit for bit, wherever the skipped column
   * sits (first, between, last, repeated, every edge).
   */
  @Test
  void skippedColumnsGiveThePlainSumInEdgeOrderBitForBit() {
    SplittableRandom r = new SplittableRandom(29);
    int[][] rows = {{3, 0, 1}, {0, 3, 2, 3, 1}, {1, 2, 3}, {3, 3}, {3}, {}, {2, 0, 1, 2, 0}};
    for (int width : WIDTHS) {
      DenseMatrix x = SparseTestGraphs.randomMatrix(r, 4, width);
      for (int[] cols : rows) {
        float[] expected = new float[width];
        for (int j : cols) {
          if (j != 3) {
            for (int c = 0; c < width; c++) {
              expected[c] += x.get(j, c);
            }
          }
        }
        float[] actual = new float[width];
        SparseRows.gather(cols, 0, cols.length, null, 0, null, 3, x.data(), 0, width, actual, 0, width);
        assertArrayEquals(bits(expected), bits(actual), "width " + width + ", columns " + Arrays.toString(cols));
      }
    }
  }

  private static int[] bits(float[] v) {
    int[] b = new int[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = Float.floatToRawIntBits(v[i]);
    }
    return b;
  }
}
