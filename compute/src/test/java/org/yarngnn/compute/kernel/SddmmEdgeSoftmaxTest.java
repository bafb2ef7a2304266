package org.yarngnn.compute.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

class SddmmEdgeSoftmaxTest {
  @Test
  void perEdgePerHeadDotProducts() {
    SplittableRandom r = new SplittableRandom(21);
    GraphBlock g = SparseTestGraphs.random(r, 50, 10, 300, false);
    Csr a = g.inEdges();
    for (int heads : new int[] {1, 3}) {
      for (int width : new int[] {1, 3, 17, 33}) {
        DenseMatrix dst = SparseTestGraphs.randomMatrix(r, a.numRows(), heads * width);
        DenseMatrix src = SparseTestGraphs.randomMatrix(r, a.numCols(), heads * width);
        float[] out = new float[(int) a.numEdges() * heads];
        Sddmm.dot(a, dst, src, heads, out);
        for (int i = 0; i < a.numRows(); i++) {
          for (int e = a.rowPtr()[i]; e < a.rowPtr()[i + 1]; e++) {
            for (int h = 0; h < heads; h++) {
              double s = 0;
              for (int c = h * width; c < (h + 1) * width; c++) {
                s += (double) dst.get(i, c) * src.get(a.colIdx()[e], c);
              }
              assertEquals(s, out[e * heads + h], 1e-5 * Math.max(1, Math.abs(s)), "edge " + e + " head " + h);
            }
          }
        }
      }
    }
  }

  @Test
  void leakyScoresAndSoftmaxSumToOnePerRowAndHead() {
    SplittableRandom r = new SplittableRandom(22);
    GraphBlock g = SparseTestGraphs.random(r, 60, 5, 400, false);
    Csr a = g.inEdges();
    int heads = 4;
    float[] src = SparseTestGraphs.randomVector(r, a.numCols() * heads);
    float[] dst = SparseTestGraphs.randomVector(r, a.numRows() * heads);
    for (int k = 0; k < src.length; k++) {
      src[k] *= 300; // large scores: a naive exp would overflow
    }
    float[] s = new float[(int) a.numEdges() * heads];
    Sddmm.leakyScores(a, src, dst, heads, 0.2f, s);
    float[] raw = s.clone();
    EdgeSoftmax.softmax(a, s, heads);
    for (int i = 0; i < a.numRows(); i++) {
      int start = a.rowPtr()[i];
      int end = a.rowPtr()[i + 1];
      for (int h = 0; h < heads; h++) {
        double max = Double.NEGATIVE_INFINITY;
        for (int e = start; e < end; e++) {
          double x = src[a.colIdx()[e] * heads + h] + dst[i * heads + h];
          double expectRaw = x > 0 ? x : 0.2 * x;
          assertEquals(expectRaw, raw[e * heads + h], 1e-4, "score");
          max = Math.max(max, expectRaw);
        }
        double sum = 0;
        for (int e = start; e < end; e++) {
          sum += Math.exp(raw[e * heads + h] - max);
        }
        double total = 0;
        for (int e = start; e < end; e++) {
          double expected = Math.exp(raw[e * heads + h] - max) / sum;
          assertEquals(expected, s[e * heads + h], 1e-6, "alpha");
          assertFalse(Float.isNaN(s[e * heads + h]));
          total += s[e * heads + h];
        }
        if (end > start) {
          assertEquals(1.0, total, 1e-5, "row " + i + " head " + h);
        }
      }
    }
  }

  @Test
  void segmentSoftmaxMasksNegativeInfinityAndNeverGivesNaN() {
    float[] s = {Float.NEGATIVE_INFINITY, 1000f, 1000f, Float.NEGATIVE_INFINITY};
    EdgeSoftmax.softmax(s, 0, 4, 1);
    assertEquals(0f, s[0]);
    assertEquals(0.5f, s[1], 1e-7f);
    assertEquals(0.5f, s[2], 1e-7f);
    assertEquals(0f, s[3]);
    float[] allMasked = {Float.NEGATIVE_INFINITY, 7f, Float.NEGATIVE_INFINITY};
    EdgeSoftmax.softmax(allMasked, 0, 2, 2);
    assertEquals(0f, allMasked[0]);
    assertEquals(7f, allMasked[1], "stride leaves other heads alone");
    assertEquals(0f, allMasked[2]);
  }
}
