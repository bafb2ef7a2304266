package org.yarngnn.compute.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.kernel.SparseTestGraphs;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The split step a remote tensor backend runs (graph side: dropout, {@code completeTransform},
 * {@code linearGradients}, {@code finishInputGradient}; tensor side: {@code Layer.linear} and
 * {@link TrainLayer#linearBackward} on copies of row intervals, as a tensor worker sees them) gives the fused
 * step's messages, outputs, input gradients and weight gradients, for every layer type, dropout on.
 */
class SplitStepTest {
  private static final long SEED = 9;
  private static final long EPOCH = 4;

  @Test
  void splitStepEqualsFusedStep() {
    SplittableRandom r = new SplittableRandom(5);
    GraphBlock g = SparseTestGraphs.random(r, 40, 9, 200, true);
    check("gcn", LayerSpec.gcn(6, 4, Activation.RELU, true), g, 0.5, 0, r);
    check("sage", LayerSpec.sage(6, 4, Activation.ELU, true, -1), g, 0.3, 0, r);
    check("gat concat", LayerSpec.gat(6, 3, 2, true, 0.2f, Activation.ELU, true), g, 0.5, 0.5, r);
    check("gat mean", LayerSpec.gat(6, 3, 3, false, 0.2f, Activation.NONE, true), g, 0.2, 0.4, r);
  }

  private static void check(String what, LayerSpec spec, GraphBlock g, double p, double pAttn, SplittableRandom r) {
    int n = g.numNodes();
    TrainLayer layer = TrainLayer.create(spec, 1, p, pAttn);
    float[] params = random(r, layer.paramCount());
    layer.load(params, 0);
    DenseMatrix h = new DenseMatrix(n, spec.in(), random(r, n * spec.in()));
    DenseMatrix dOut = new DenseMatrix(n, spec.outputWidth(), random(r, n * spec.outputWidth()));
    float[] halo = random(r, (g.numSlots() - n) * layer.messageWidth());

    LayerStep fused = new LayerStep(layer, g, SEED, true);
    fused.forwardTransform(h, EPOCH, true);
    float[] fusedGrads = run(fused, halo, dOut, layer.paramCount(), null);

    LayerStep split = new LayerStep(layer, g, SEED, true);
    split.forwardDropout(h, EPOCH, true);
    int lw = layer.linearWidth();
    int[] cuts = {0, 7, 8, 23, n};
    for (int c = 0; c + 1 < cuts.length; c++) {
      int a = cuts[c];
      int m = cuts[c + 1] - a;
      DenseMatrix rows = split.droppedRows(a, a + m);
      DenseMatrix lin = new DenseMatrix(m, lw);
      layer.layer().linear(rows, 0, m, lin);
      System.arraycopy(lin.data(), 0, split.linearRows().data(), a * lw, m * lw);
      split.completeTransform(a, a + m);
    }
    assertArrayClose(what + " messages", fused.messages().data(), split.messages().data(), n * layer.messageWidth());
    float[] splitGrads = run(split, halo, dOut, layer.paramCount(), cuts);
    assertArrayClose(what + " outputs", fused.output().data(), split.output().data(), n * spec.outputWidth());
    assertArrayClose(what + " input gradient", fused.inputGradient().data(), split.inputGradient().data(),
        n * spec.in());
    assertArrayClose(what + " weight gradients", fusedGrads, splitGrads, fusedGrads.length);
  }

  /** Halo rows in, aggregate, backward (fused when {@code cuts} is null, else split at the cuts). */
  private static float[] run(LayerStep s, float[] halo, DenseMatrix dOut, int pc, int[] cuts) {
    int n = s.block().numNodes();
    int mw = s.layer().messageWidth();
    System.arraycopy(halo, 0, s.messages().data(), n * mw, halo.length);
    s.forwardAggregate();
    float[] grads = new float[pc];
    s.backwardAggregate(dOut, grads, 0);
    if (cuts == null) {
      s.backwardTransform(grads, 0);
      return grads;
    }
    s.linearGradients(grads, 0);
    int lw = s.layer().linearWidth();
    int in = s.layer().inWidth();
    for (int c = 0; c + 1 < cuts.length; c++) {
      int a = cuts[c];
      int m = cuts[c + 1] - a;
      // what a tensor worker gets: copies of the interval's rows; what it returns: dH rows and its own gradients
      DenseMatrix hRows = s.droppedRows(a, a + m);
      DenseMatrix dLin = copyRows(s.linearRows(), a, m);
      float[] dH = new float[m * in];
      float[] part = new float[pc];
      s.layer().linearBackward(hRows.data(), 0, dLin.data(), 0, m, dH, 0, in, part, 0);
      System.arraycopy(dH, 0, s.inputGradient().data(), a * in, m * in);
      s.finishInputGradient(a, a + m);
      for (int i = 0; i < pc; i++) {
        grads[i] += part[i];
      }
    }
    assertEquals(lw, s.linearRows().cols());
    return grads;
  }

  private static DenseMatrix copyRows(DenseMatrix m, int from, int count) {
    float[] v = new float[count * m.cols()];
    System.arraycopy(m.data(), from * m.cols(), v, 0, v.length);
    return new DenseMatrix(count, m.cols(), v);
  }

  private static float[] random(SplittableRandom r, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (r.nextDouble() * 2 - 1);
    }
    return v;
  }

  private static void assertArrayClose(String what, float[] want, float[] got, int n) {
    float max = 0;
    for (int i = 0; i < n; i++) {
      max = Math.max(max, Math.abs(want[i]));
    }
    for (int i = 0; i < n; i++) {
      float tol = 1e-5f * Math.max(1f, max);
      assertTrue(Math.abs(want[i] - got[i]) <= tol, what + " [" + i + "]: " + got[i] + " vs " + want[i]);
    }
  }
}
