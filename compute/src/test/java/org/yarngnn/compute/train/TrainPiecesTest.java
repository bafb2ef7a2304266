package org.yarngnn.compute.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.kernel.SparseTestGraphs;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

class TrainPiecesTest {
  /**
   * Two steps of torch.optim.Adam(lr=0.01, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.1), by hand.
   * Element 0: p=1, grads 0.5 then -0.2. Step 1: g = 0.5 + 0.1*1 = 0.6; m = 0.06; v = 0.001*0.36 = 0.00036;
   * m^ = 0.06/0.1 = 0.6; v^ = 0.00036/0.001 = 0.36; p = 1 - 0.01*0.6/(0.6 + 1e-8) = 0.9900000001667.
   * Step 2: g = -0.2 + 0.1*0.99 = -0.101; m = 0.054 - 0.0101 = 0.0439; v = 0.00035964 + 0.000010201 =
   * 0.000369841; m^ = 0.0439/0.19 = 0.2310526; v^ = 0.000369841/0.001999 = 0.1850130, sqrt 0.4301314;
   * p = 0.99 - 0.01*0.2310526/0.4301314 = 0.9846283.
   * Element 1: p=-2, grads 0 then 0.3 (decay alone moves it). Step 1: g = -0.2; m = -0.02; v = 0.00004;
   * p = -2 + 0.01*0.2/(0.2 + 1e-8) = -1.9900000005. Step 2: g = 0.3 - 0.199 = 0.101; m = -0.018 + 0.0101 =
   * -0.0079; v = 0.00003996 + 0.000010201 = 0.000050161; m^ = -0.0415789; v^ = 0.0250931, sqrt 0.1584080;
   * p = -1.99 + 0.01*0.0415789/0.1584080 = -1.9873752.
   * Element 2, in a range without decay: p=3, grads 1 then 1: p = 3 - 0.01 = 2.99, then 2.98.
   */
  @Test
  void adamMatchesTwoHandComputedSteps() {
    float[] p = {1f, -2f, 3f};
    Adam adam = new Adam(3, 0.01);
    adam.beginStep();
    adam.update(p, new float[] {0.5f, 0f, 1f}, 0, 2, 0.1);
    adam.update(p, new float[] {0.5f, 0f, 1f}, 2, 3, 0);
    assertEquals(0.9900000001667, p[0], 1e-6);
    assertEquals(-1.9900000005, p[1], 1e-6);
    assertEquals(2.99, p[2], 1e-6);
    adam.beginStep();
    adam.update(p, new float[] {-0.2f, 0.3f, 1f}, 0, 2, 0.1);
    adam.update(p, new float[] {-0.2f, 0.3f, 1f}, 2, 3, 0);
    assertEquals(0.9846283, p[0], 2e-6);
    assertEquals(-1.9873752, p[1], 2e-6);
    assertEquals(2.98, p[2], 2e-6);
    assertEquals(2, adam.step());
  }

  /** Softmax cross-entropy: loss sum and gradient against float64 central differences. */
  @Test
  void lossGradientMatchesFiniteDifferences() {
    SplittableRandom r = new SplittableRandom(5);
    int n = 9;
    int w = 4;
    DenseMatrix logits = SparseTestGraphs.randomMatrix(r, n, w);
    for (int i = 0; i < n * w; i++) {
      logits.data()[i] *= 3;
    }
    int[] labels = new int[n];
    boolean[] mask = new boolean[n];
    for (int i = 0; i < n; i++) {
      labels[i] = r.nextInt(w);
      mask[i] = i % 3 != 1;
    }
    float scale = 1f / 6;
    DenseMatrix d = new DenseMatrix(n, w);
    double loss = SoftmaxCrossEntropy.lossAndGradient(logits, labels, mask, 0, n, scale, d);
    assertEquals(reference(logits.data(), labels, mask, n, w, -1, 0), loss, 1e-9);
    for (int k = 0; k < n * w; k++) {
      double h = 1e-6;
      double fd = (reference(logits.data(), labels, mask, n, w, k, h) - reference(logits.data(), labels, mask, n, w,
          k, -h)) / (2 * h) * scale;
      assertEquals(fd, d.data()[k], 1e-3 * Math.abs(fd) + 1e-6, "dLogits " + k);
      if (!mask[k / w]) {
        assertEquals(0f, d.data()[k], "rows outside the mask get no gradient");
      }
    }
    // Split over two "workers": the sums add up to the whole.
    double a = SoftmaxCrossEntropy.lossAndGradient(logits, labels, mask, 0, 4, scale, d);
    double b = SoftmaxCrossEntropy.lossAndGradient(logits, labels, mask, 4, n, scale, d);
    assertEquals(loss, a + b, 1e-12);
    assertEquals(6, SoftmaxCrossEntropy.count(mask));
  }

  private static double reference(float[] x, int[] labels, boolean[] mask, int n, int w, int bump, double h) {
    double total = 0;
    for (int i = 0; i < n; i++) {
      if (!mask[i]) {
        continue;
      }
      double sum = 0;
      for (int c = 0; c < w; c++) {
        sum += Math.exp(x[i * w + c] + (i * w + c == bump ? h : 0));
      }
      total += Math.log(sum) - (x[i * w + labels[i]] + (i * w + labels[i] == bump ? h : 0));
    }
    return total;
  }

  @Test
  void accuracyIsArgmaxOverTheMaskedRows() {
    DenseMatrix logits = DenseMatrix.of(new float[][] {{1, 2}, {3, 0}, {0, 1}, {5, 5}});
    int[] labels = {1, 1, 1, 0};
    assertEquals(2.0 / 3, SoftmaxCrossEntropy.accuracy(logits, labels, new boolean[] {true, true, false, true}),
        1e-12);
    assertEquals(0, SoftmaxCrossEntropy.accuracy(logits, labels, new boolean[4]));
  }

  /** The masks depend on (seed, epoch, layer, node id, column) only: not on row ranges, threads or blocks. */
  @Test
  void dropoutMasksIgnoreRowRangesThreadsAndBlocks() throws Exception {
    SplittableRandom r = new SplittableRandom(6);
    int n = 500;
    int w = 37;
    long[] ids = SparseTestGraphs.distinctIds(r, n);
    DenseMatrix h = SparseTestGraphs.randomMatrix(r, n, w);
    DenseMatrix whole = new DenseMatrix(n, w);
    Dropout.apply(h, whole, ids, 9, 3, 1, 0.5, 0, n);
    int dropped = 0;
    for (float v : whole.data()) {
      dropped += v == 0f ? 1 : 0;
    }
    assertEquals(0.5, (double) dropped / (n * w), 0.02, "about p of the entries dropped");
    for (int c = 0; c < w; c++) {
      if (whole.get(0, c) != 0f) {
        assertEquals(h.get(0, c) * 2f, whole.get(0, c), 1e-6, "kept values scaled by 1/(1-p)");
      }
    }
    for (int threads : new int[] {1, 3, 7}) {
      DenseMatrix parts = new DenseMatrix(n, w);
      ForkJoinPool pool = new ForkJoinPool(threads);
      try {
        List<Future<?>> fs = new ArrayList<>();
        int from = 0;
        while (from < n) {
          int to = Math.min(n, from + 1 + r.nextInt(60));
          int a = from;
          fs.add(pool.submit(() -> Dropout.apply(h, parts, ids, 9, 3, 1, 0.5, a, to)));
          from = to;
        }
        for (Future<?> f : fs) {
          f.get();
        }
      } finally {
        pool.shutdown();
      }
      assertArrayEquals(whole.data(), parts.data(), threads + " threads, random row ranges");
    }
    // Another block holding the same nodes in another order (another worker): the same rows by id.
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = (i * 7 + 3) % n;
    }
    long[] permIds = new long[n];
    DenseMatrix permH = new DenseMatrix(n, w);
    for (int i = 0; i < n; i++) {
      permIds[i] = ids[perm[i]];
      System.arraycopy(h.data(), h.offset(perm[i]), permH.data(), permH.offset(i), w);
    }
    DenseMatrix permOut = new DenseMatrix(n, w);
    Dropout.apply(permH, permOut, permIds, 9, 3, 1, 0.5, 0, n);
    for (int i = 0; i < n; i++) {
      assertArrayEquals(whole.row(perm[i]), permOut.row(i), "node " + permIds[i]);
    }
    // Other epochs and layers give other masks; the backward uses the forward's.
    DenseMatrix other = new DenseMatrix(n, w);
    Dropout.apply(h, other, ids, 9, 4, 1, 0.5, 0, n);
    assertNotEquals(java.util.Arrays.toString(whole.data()), java.util.Arrays.toString(other.data()));
    DenseMatrix ones = new DenseMatrix(n, w);
    java.util.Arrays.fill(ones.data(), 1f);
    DenseMatrix back = new DenseMatrix(n, w);
    Dropout.backward(ones, back, ids, 9, 3, 1, 0.5, 0, n);
    for (int i = 0; i < n * w; i++) {
      assertEquals(whole.data()[i] == 0f ? 0f : 2f, back.data()[i], "backward mask = forward mask");
    }
  }

  @Test
  void activationDerivativesFromOutputs() {
    for (Activation a : Activation.values()) {
      for (double x : new double[] {-2.5, -0.3, 0.4, 1.7}) {
        double h = 1e-4;
        double fd = (DoubleReference.act(a, x + h) - DoubleReference.act(a, x - h)) / (2 * h);
        assertEquals(fd, a.derivativeFromOutput(a.apply((float) x)), 1e-4, a + " at " + x);
      }
    }
    assertEquals(0f, Activation.RELU.derivativeFromOutput(0f), "relu'(0) = 0 as PyTorch");
    assertEquals(0.01f, Activation.LEAKY_RELU.derivativeFromOutput(0f));
    assertEquals(1f, Activation.ELU.derivativeFromOutput(0f));
  }

  @Test
  void glorotIsSeededWithinLimitsAndZeroBias() {
    ModelSpec spec = new ModelSpec("none", List.of(LayerSpec.gcn(30, 10, Activation.RELU, true),
        LayerSpec.gat(10, 4, 3, true, 0.2f, Activation.ELU, true)), "none", true);
    Parameters a = Parameters.glorot(spec, 11);
    assertArrayEquals(a.values(), Parameters.glorot(spec, 11).values());
    assertNotEquals(java.util.Arrays.toString(a.values()), java.util.Arrays.toString(Parameters.glorot(spec, 12)
        .values()));
    check(a, "layers.0.weight", 300, Math.sqrt(6.0 / 40));
    check(a, "layers.1.weight", 120, Math.sqrt(6.0 / 22));
    check(a, "layers.1.attn_src", 12, Math.sqrt(6.0 / 7));
    for (String b : new String[] {"layers.0.bias", "layers.1.bias"}) {
      int o = a.offset(b);
      for (int i = 0; i < a.shapes().get(b)[0]; i++) {
        assertEquals(0f, a.values()[o + i], b);
      }
    }
    assertEquals(Parameters.of(a.toModel()).values().length, a.size());
    assertArrayEquals(a.values(), Parameters.of(a.toModel()).values());
  }

  private static void check(Parameters p, String name, int n, double limit) {
    int o = p.offset(name);
    double max = 0;
    for (int i = 0; i < n; i++) {
      max = Math.max(max, Math.abs(p.values()[o + i]));
    }
    assertTrue(max <= limit && max > 0.7 * limit, name + " max " + max + " limit " + limit);
  }
}
