package org.yarngnn.compute.train;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.kernel.SparseTestGraphs;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.sample.NeighbourSampler;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Every layer's analytic float gradients (weights, biases, attention vectors, dH of own rows, dMsg of halo
 * slots) against central finite differences of {@link DoubleReference} (float64, step 1e-6), for the objective
 * {@code L = sum R .* out} with random R, on a block with halo slots, input self-loops, parallel edges and
 * isolated nodes. Bound per entry: {@code |analytic - fd| <= 1e-3 |fd| + 1e-4 max|fd|} (float gradients
 * against a float64 reference).
 */
class GradientCheckTest {
  private static final int K = 1;
  private static final long SEED = 77;
  private static final long EPOCH = 5;
  private static final double STEP = 1e-6;

  private static GraphBlock block(SplittableRandom r, boolean weighted) {
    return SparseTestGraphs.random(r, 12, 6, 45, weighted);
  }

  private static void check(String what, LayerSpec spec, GraphBlock g, int fanout, double p, double pAttn,
      SplittableRandom r) {
    GraphBlock edges = fanout < 0 ? g : NeighbourSampler.sample(g, fanout, 3, K);
    TrainLayer layer = TrainLayer.create(spec, K, p, pAttn);
    int pc = layer.paramCount();
    int n = g.numNodes();
    int halo = g.numSlots() - n;
    int msgW = layer.messageWidth();
    DoubleReference ref = new DoubleReference(spec, g, edges, K, SEED, EPOCH, p, pAttn, pc, msgW);
    // float values, so the float code and the float64 reference see the same inputs
    double[] v = new double[ref.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (r.nextDouble() * 2 - 1);
    }
    float[] params = new float[pc];
    for (int i = 0; i < pc; i++) {
      params[i] = (float) v[i];
    }
    DenseMatrix h = new DenseMatrix(n, spec.in());
    for (int i = 0; i < n * spec.in(); i++) {
      h.data()[i] = (float) v[pc + i];
    }
    int outW = spec.outputWidth();
    double[][] rw = new double[n][outW];
    DenseMatrix dOut = new DenseMatrix(n, outW);
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < outW; c++) {
        rw[i][c] = (float) (r.nextDouble() * 2 - 1);
        dOut.set(i, c, (float) rw[i][c]);
      }
    }

    layer.load(params, 0);
    LayerStep step = new LayerStep(layer, g, SEED, true);
    step.setEdges(edges);
    step.forwardTransform(h, EPOCH, true);
    int haloBase = pc + n * spec.in();
    for (int s = 0; s < halo; s++) {
      for (int c = 0; c < msgW; c++) {
        step.messages().set(n + s, c, (float) v[haloBase + s * msgW + c]);
      }
    }
    step.forwardAggregate();
    double[][] want = ref.forward(v);
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < outW; c++) {
        double a = step.output().get(i, c);
        assertTrue(Math.abs(a - want[i][c]) <= 1e-5 * Math.max(1, Math.abs(want[i][c])),
            what + ": forward (" + i + "," + c + ") " + a + " vs " + want[i][c]);
      }
    }
    float[] grads = new float[pc];
    step.backwardAggregate(dOut, grads, 0);
    step.backwardTransform(grads, 0);

    double[] analytic = new double[v.length];
    for (int i = 0; i < pc; i++) {
      analytic[i] = grads[i];
    }
    for (int i = 0; i < n * spec.in(); i++) {
      analytic[pc + i] = step.inputGradient().data()[i];
    }
    for (int s = 0; s < halo; s++) {
      for (int c = 0; c < msgW; c++) {
        analytic[haloBase + s * msgW + c] = step.messageGradients().get(n + s, c);
      }
    }
    double[] fd = new double[v.length];
    double max = 0;
    for (int i = 0; i < v.length; i++) {
      double keep = v[i];
      v[i] = keep + STEP;
      double up = objective(ref.forward(v), rw);
      v[i] = keep - STEP;
      double down = objective(ref.forward(v), rw);
      v[i] = keep;
      fd[i] = (up - down) / (2 * STEP);
      max = Math.max(max, Math.abs(fd[i]));
    }
    assertTrue(max > 1e-3, what + ": the objective depends on its inputs");
    int nonZeroHalo = 0;
    for (int i = 0; i < v.length; i++) {
      String part = i < pc ? "param " + i : i < haloBase ? "dH " + (i - pc) : "halo dMsg " + (i - haloBase);
      assertTrue(Math.abs(analytic[i] - fd[i]) <= 1e-3 * Math.abs(fd[i]) + 1e-4 * max,
          what + ": " + part + " analytic " + analytic[i] + " vs finite difference " + fd[i]);
      if (i >= haloBase && fd[i] != 0) {
        nonZeroHalo++;
      }
    }
    assertTrue(halo == 0 || nonZeroHalo > 0, what + ": some halo message gradients are non-zero");
  }

  private static double objective(double[][] out, double[][] rw) {
    double s = 0;
    for (int i = 0; i < out.length; i++) {
      for (int c = 0; c < out[i].length; c++) {
        s += out[i][c] * rw[i][c];
      }
    }
    return s;
  }

  @Test
  void gcnEveryActivationWithAndWithoutEdgeWeights() {
    SplittableRandom r = new SplittableRandom(1);
    for (boolean weighted : new boolean[] {false, true}) {
      for (Activation act : Activation.values()) {
        GraphBlock g = block(r, weighted);
        check("gcn " + act + " weighted " + weighted, LayerSpec.gcn(4, 3, act, true), g, -1, 0, 0, r);
      }
    }
    check("gcn without bias", LayerSpec.gcn(3, 5, Activation.TANH, false), block(r, true), -1, 0, 0, r);
  }

  @Test
  void sageWithAndWithoutFanout() {
    SplittableRandom r = new SplittableRandom(2);
    for (int fanout : new int[] {-1, 2}) {
      for (Activation act : new Activation[] {Activation.RELU, Activation.SIGMOID, Activation.ELU}) {
        check("sage " + act + " fanout " + fanout, LayerSpec.sage(4, 3, act, true, fanout), block(r, false), fanout,
            0, 0, r);
      }
    }
    check("sage 3->6 without bias", LayerSpec.sage(3, 6, Activation.LEAKY_RELU, false, -1), block(r, true), -1, 0,
        0, r);
  }

  @Test
  void gatHeadsConcatAndMean() {
    SplittableRandom r = new SplittableRandom(3);
    for (int heads : new int[] {1, 3}) {
      for (boolean concat : new boolean[] {true, false}) {
        for (Activation act : new Activation[] {Activation.ELU, Activation.NONE, Activation.TANH}) {
          check("gat heads " + heads + " concat " + concat + " " + act,
              LayerSpec.gat(4, 3, heads, concat, 0.2f, act, true), block(r, false), -1, 0, 0, r);
        }
      }
    }
    check("gat slope 0.05 without bias", LayerSpec.gat(3, 2, 2, true, 0.05f, Activation.LEAKY_RELU, false),
        block(r, true), -1, 0, 0, r);
  }

  /** With dropout on, the masked gradient is the gradient of the masked forward (same keyed masks). */
  @Test
  void dropoutOnMatchesTheMaskedForward() {
    SplittableRandom r = new SplittableRandom(4);
    check("gcn dropout 0.5", LayerSpec.gcn(4, 3, Activation.RELU, true), block(r, true), -1, 0.5, 0, r);
    check("sage dropout 0.3 fanout 2", LayerSpec.sage(4, 3, Activation.ELU, true, 2), block(r, false), 2, 0.3, 0, r);
    check("gat dropout 0.5 + attention 0.5", LayerSpec.gat(4, 3, 3, true, 0.2f, Activation.ELU, true),
        block(r, false), -1, 0.5, 0.5, r);
    check("gat mean, attention dropout 0.6", LayerSpec.gat(4, 3, 2, false, 0.2f, Activation.NONE, true),
        block(r, false), -1, 0, 0.6, r);
  }
}
