package org.yarngnn.compute.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.tensor.DenseMatrix;

class LinkLossTest {
  private static double loss(LinkLoss.Kind kind, double t, float[] pos, float[] neg, int k) {
    return LinkLoss.lossAndGradient(kind, t, pos, neg, k, 0, pos.length, 1f, new float[pos.length],
        new float[neg.length]);
  }

  /** Values worked out by hand: every score 0 gives log 2 terms, and softmax over K + 1 equal scores log(K+1). */
  @Test
  void handComputedValues() {
    float[] zero1 = {0f};
    float[] zero3 = {0f, 0f, 0f};
    assertEquals(2 * Math.log(2), loss(LinkLoss.Kind.BCE, 1, zero1, zero3, 3), 1e-12);
    assertEquals(Math.log(2), loss(LinkLoss.Kind.BPR, 1, zero1, zero3, 3), 1e-12);
    assertEquals(Math.log(4), loss(LinkLoss.Kind.SOFTMAX, 1, zero1, zero3, 3), 1e-12);
    // p = 2, n = -1, T = 2: bce = log(1+e^-1) + log(1+e^-0.5); bpr = log(1+e^-1.5); softmax = log(1+e^-1.5).
    float[] p = {2f};
    float[] n = {-1f};
    assertEquals(Math.log1p(Math.exp(-1)) + Math.log1p(Math.exp(-0.5)), loss(LinkLoss.Kind.BCE, 2, p, n, 1), 1e-12);
    assertEquals(Math.log1p(Math.exp(-1.5)), loss(LinkLoss.Kind.BPR, 2, p, n, 1), 1e-12);
    assertEquals(Math.log1p(Math.exp(-1.5)), loss(LinkLoss.Kind.SOFTMAX, 2, p, n, 1), 1e-12);
    // Huge scores neither overflow nor lose the linear part of softplus.
    assertEquals(1000, loss(LinkLoss.Kind.BCE, 1, new float[] {-1000f}, new float[] {-1000f}, 1), 1e-9);
    assertEquals(2000, loss(LinkLoss.Kind.SOFTMAX, 1, new float[] {-1000f}, new float[] {1000f}, 1), 1e-9);
  }

  /** Each kind's score gradients against central differences of its loss (in double). */
  @Test
  void gradientsMatchFiniteDifferences() {
    SplittableRandom r = new SplittableRandom(7);
    int p = 5;
    int k = 4;
    for (LinkLoss.Kind kind : LinkLoss.Kind.values()) {
      for (double t : new double[] {1, 0.5, 3}) {
        float[] pos = new float[p];
        float[] neg = new float[p * k];
        for (int i = 0; i < p; i++) {
          pos[i] = (float) r.nextDouble(-3, 3);
        }
        for (int i = 0; i < p * k; i++) {
          neg[i] = (float) r.nextDouble(-3, 3);
        }
        float scale = 0.25f;
        float[] dPos = new float[p];
        float[] dNeg = new float[p * k];
        LinkLoss.lossAndGradient(kind, t, pos, neg, k, 0, p, scale, dPos, dNeg);
        assertCentralDifferences(kind, t, pos, neg, k, pos, dPos, scale, "positive");
        assertCentralDifferences(kind, t, pos, neg, k, neg, dNeg, scale, "negative");
      }
    }
  }

  /** Each element of {@code varied} (pos or neg) moved both ways: {@code scale} times the loss's slope. */
  private static void assertCentralDifferences(LinkLoss.Kind kind, double t, float[] pos, float[] neg, int k,
      float[] varied, float[] grad, float scale, String what) {
    float h = 1e-2f;
    for (int i = 0; i < varied.length; i++) {
      float keep = varied[i];
      varied[i] = keep + h;
      double up = loss(kind, t, pos, neg, k);
      varied[i] = keep - h;
      double down = loss(kind, t, pos, neg, k);
      varied[i] = keep;
      assertEquals(scale * (up - down) / (2 * h), grad[i], 2e-4, kind + " T " + t + " " + what + " " + i);
    }
  }

  /** Embedding gradients of the pair loss (both ends of every pair) against central differences. */
  @Test
  void embeddingGradientsMatchFiniteDifferences() {
    SplittableRandom r = new SplittableRandom(3);
    int n = 6;
    int w = 3;
    int k = 2;
    int[] src = {0, 1, 4, 2};
    int[] dst = {1, 0, 5, 2}; // a self-pair too: both ends of the score are the same row
    int[] negRow = {3, 5, 2, 2, 0, 1, 2, 4};
    for (LinkLoss.Kind kind : LinkLoss.Kind.values()) {
      DenseMatrix z = new DenseMatrix(n, w);
      for (int i = 0; i < n * w; i++) {
        z.data()[i] = (float) r.nextDouble(-1, 1);
      }
      int p = src.length;
      DenseMatrix dZ = new DenseMatrix(n, w);
      PairScores.lossAndGradient(z, src, dst, negRow, k, kind, 0.7, 1f, new float[p], new float[p * k],
          new float[p], new float[p * k], dZ);
      float h = 1e-2f;
      for (int i = 0; i < n * w; i++) {
        float keep = z.data()[i];
        z.data()[i] = keep + h;
        double up = pairLoss(z, src, dst, negRow, k, kind);
        z.data()[i] = keep - h;
        double down = pairLoss(z, src, dst, negRow, k, kind);
        z.data()[i] = keep;
        assertEquals((up - down) / (2 * h), dZ.data()[i], 5e-4, kind + " element " + i);
      }
    }
  }

  private static double pairLoss(DenseMatrix z, int[] src, int[] dst, int[] negRow, int k, LinkLoss.Kind kind) {
    int p = src.length;
    return PairScores.lossAndGradient(z, src, dst, negRow, k, kind, 0.7, 1f, new float[p], new float[p * k],
        new float[p], new float[p * k], new DenseMatrix(z.rows(), z.cols()));
  }

  /** The l2 normalisation's backward against central differences of a linear function of the unit rows. */
  @Test
  void normalizeBackwardMatchesFiniteDifferences() {
    SplittableRandom r = new SplittableRandom(5);
    int n = 3;
    int w = 4;
    DenseMatrix z = new DenseMatrix(n, w);
    DenseMatrix c = new DenseMatrix(n, w);
    for (int i = 0; i < n * w; i++) {
      z.data()[i] = (float) r.nextDouble(-1, 1);
      c.data()[i] = (float) r.nextDouble(-1, 1);
    }
    java.util.Arrays.fill(z.data(), z.offset(2), z.offset(2) + w, 0f); // a zero row: stays zero, no gradient
    DenseMatrix unit = new DenseMatrix(n, w);
    float[] norms = new float[n];
    PairScores.normalize(z, unit, norms, 0, n);
    DenseMatrix d = c.copy();
    PairScores.normalizeBackward(unit, norms, d, 0, n);
    float h = 1e-3f;
    for (int i = 0; i < 2 * w; i++) {
      float keep = z.data()[i];
      z.data()[i] = keep + h;
      double up = linear(z, c);
      z.data()[i] = keep - h;
      double down = linear(z, c);
      z.data()[i] = keep;
      assertEquals((up - down) / (2 * h), d.data()[i], 1e-3, "element " + i);
    }
    for (int i = 2 * w; i < 3 * w; i++) {
      assertEquals(0f, d.data()[i]);
      assertEquals(0f, unit.data()[i]);
    }
    assertTrue(Math.abs(PairScores.dot(unit, 0, unit, 0) - 1) < 1e-6);
  }

  private static double linear(DenseMatrix z, DenseMatrix c) {
    DenseMatrix u = new DenseMatrix(z.rows(), z.cols());
    PairScores.normalize(z, u, new float[z.rows()], 0, z.rows());
    double s = 0;
    for (int i = 0; i < u.data().length; i++) {
      s += (double) u.data()[i] * c.data()[i];
    }
    return s;
  }
}
