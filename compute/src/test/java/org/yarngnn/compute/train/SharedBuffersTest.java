package org.yarngnn.compute.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.kernel.SparseTestGraphs;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.sample.NeighbourSampler;
import org.yarngnn.compute.tensor.DenseMatrix;

/** Buffers shared by lifetime, dropped-out inputs regenerated from a bit mask, out-edges rebuilt in place. */
class SharedBuffersTest {
  private static final long SEED = 5;

  @Test
  void buffersShareAnArrayOnlyWhenTheirLifetimesAreDisjoint() {
    SharedBuffers s = new SharedBuffers();
    SharedBuffers.Request a = s.request(100, 0, 0);
    SharedBuffers.Request b = s.request(100, 0, 3);
    SharedBuffers.Request c = s.request(80, 3, 3);
    SharedBuffers.Request d = s.request(100, 2, 3);
    SharedBuffers.Request e = s.request(10, 1, 2);
    s.allocate();
    // largest first: a; b meets a; d joins a; c meets d and b; e meets a's d and b, joins c
    assertSame(a.data(), d.data());
    assertNotSame(a.data(), b.data());
    assertNotSame(c.data(), d.data());
    assertNotSame(b.data(), c.data());
    assertSame(c.data(), e.data());
    assertEquals(100, a.data().length);
    assertEquals(80, c.data().length);
    assertEquals(280, s.allocatedFloats());
    assertEquals(390, s.requestedFloats());
    assertThrows(IllegalArgumentException.class, () -> new SharedBuffers().request(1, 2, 1));
    assertThrows(IllegalStateException.class, () -> s.request(1, 0, 0));
  }

  @Test
  void droppedRowsAndTheirGradientAreDropoutsBitForBit() {
    SplittableRandom r = new SplittableRandom(1);
    int n = 37;
    int w = 70; // two mask words, the second partial
    DenseMatrix h = SparseTestGraphs.randomMatrix(r, n, w);
    for (int i = 0; i < n * w; i += 3) {
      h.data()[i] = i % 2 == 0 ? 0f : -0f; // zeros skip the hash in Dropout.apply
    }
    long[] ids = SparseTestGraphs.distinctIds(r, n);
    DenseMatrix want = new DenseMatrix(n, w);
    Dropout.apply(h, want, ids, 9, 3, 1, 0.4, 0, n);
    DenseMatrix ones = new DenseMatrix(n, w);
    java.util.Arrays.fill(ones.data(), 1.5f);
    DenseMatrix wantBack = new DenseMatrix(n, w);
    Dropout.backward(ones, wantBack, ids, 9, 3, 1, 0.4, 0, n);
    for (boolean gradientMask : new boolean[] {false, true}) {
      DroppedInput in = new DroppedInput(w);
      in.bind(h, 0.4, n, gradientMask);
      in.computeMask(ids, 9, 3, 1, 0.4, 0, 20);
      in.computeMask(ids, 9, 3, 1, 0.4, 20, n);
      float[] got = new float[n * w];
      in.rows(0, 5, got);
      float[] rest = new float[(n - 5) * w];
      in.rows(5, n - 5, rest);
      System.arraycopy(rest, 0, got, 5 * w, rest.length);
      assertArrayEquals(want.data(), got, "rows, gradient mask " + gradientMask);
      DenseMatrix back = ones.copy();
      if (gradientMask) {
        in.backward(back, 0, n);
        assertArrayEquals(wantBack.data(), back.data());
      } else {
        assertThrows(IllegalStateException.class, () -> in.backward(back, 0, n));
      }
    }
    DroppedInput kept = new DroppedInput(w);
    kept.bind(h, 0, n, true);
    float[] got = new float[n * w];
    kept.rows(0, n, got);
    assertArrayEquals(h.data(), got);
    assertEquals(0, kept.maskBytes());
  }

  @Test
  void outEdgesRebuiltInReusedArraysEqualAFreshBuild() {
    SplittableRandom r = new SplittableRandom(2);
    GraphBlock g = SparseTestGraphs.random(r, 60, 7, 400, false);
    OutEdges reuse = OutEdges.of(g.inEdges());
    for (int fanout : new int[] {3, 1, 5}) {
      GraphBlock s = NeighbourSampler.sample(g, fanout, fanout, 0);
      OutEdges fresh = OutEdges.of(s.inEdges());
      OutEdges again = OutEdges.of(s.inEdges(), reuse);
      assertSame(reuse.dst(), again.dst());
      assertArrayEquals(fresh.ptr(), again.ptr());
      for (int q = 0; q < fresh.ptr()[fresh.numSlots()]; q++) {
        assertEquals(fresh.dst()[q], again.dst()[q]);
        assertEquals(fresh.pos()[q], again.pos()[q]);
      }
      reuse = again;
    }
  }

  /**
   * Steps of a chain (shared buffers, input gradients overwritten by the previous layer's work rows, masks
   * instead of dropped-out copies) give bit for bit the outputs and gradients of steps with buffers of their own,
   * over two epochs of training forward, backward and evaluation forward, with halo slots, dropout, a sampled
   * layer and every layer type.
   */
  @Test
  void aChainComputesWhatUnsharedStepsCompute() {
    check(List.of(LayerSpec.gcn(6, 9, Activation.RELU, true), LayerSpec.gcn(9, 4, Activation.NONE, true)));
    check(List.of(LayerSpec.sage(6, 9, Activation.ELU, true, 3), LayerSpec.sage(9, 9, Activation.RELU, true, -1),
        LayerSpec.sage(9, 4, Activation.NONE, false, 2)));
    check(List.of(LayerSpec.gat(6, 3, 2, true, 0.2f, Activation.ELU, true),
        LayerSpec.sage(6, 5, Activation.RELU, true, -1), LayerSpec.gat(5, 4, 2, false, 0.2f, Activation.NONE,
            true)));
  }

  private static void check(List<LayerSpec> specs) {
    SplittableRandom r = new SplittableRandom(specs.hashCode());
    GraphBlock g = SparseTestGraphs.random(r, 80, 9, 500, true);
    List<TrainLayer> layers = new ArrayList<>();
    int params = 0;
    int[] base = new int[specs.size()];
    for (int k = 0; k < specs.size(); k++) {
      TrainLayer l = TrainLayer.create(specs.get(k), k, 0.5, specs.get(k).type().name().equals("GAT") ? 0.3 : 0);
      layers.add(l);
      base[k] = params;
      params += l.paramCount();
    }
    float[] values = SparseTestGraphs.randomVector(r, params);
    for (int k = 0; k < layers.size(); k++) {
      layers.get(k).load(values, base[k]);
    }
    DenseMatrix x = SparseTestGraphs.randomMatrix(r, g.numNodes(), specs.get(0).in());
    DenseMatrix dLogits = SparseTestGraphs.randomMatrix(r, g.numNodes(), specs.get(specs.size() - 1).outputWidth());
    LayerStep[] own = new LayerStep[layers.size()];
    for (int k = 0; k < own.length; k++) {
      own[k] = new LayerStep(layers.get(k), g, SEED, k > 0);
    }
    List<float[]> want = drive(own, g, x, dLogits, base, params);
    List<float[]> got = drive(LayerStep.chain(layers, g, SEED), g, x, dLogits, base, params);
    assertEquals(want.size(), got.size());
    for (int i = 0; i < want.size(); i++) {
      assertArrayEquals(want.get(i), got.get(i), specs + ": figure " + i);
    }
  }

  /** Two epochs; every output, gradient and halo message gradient copied out as they appear. */
  private static List<float[]> drive(LayerStep[] steps, GraphBlock g, DenseMatrix x, DenseMatrix dLogits,
      int[] base, int params) {
    List<float[]> seen = new ArrayList<>();
    int n = g.numNodes();
    for (int epoch = 1; epoch <= 2; epoch++) {
      for (boolean training : new boolean[] {true, false}) {
        DenseMatrix h = x;
        for (int k = 0; k < steps.length; k++) {
          LayerStep s = steps[k];
          int fanout = s.layer().spec().fanout();
          s.setEdges(fanout < 0 ? g : NeighbourSampler.sample(g, fanout, training ? epoch : 0, k));
          s.forwardTransform(h, epoch, training);
          SplittableRandom halo = new SplittableRandom(31L * epoch + k);
          DenseMatrix m = s.messages();
          for (int i = m.offset(n); i < g.numSlots() * m.cols(); i++) {
            m.data()[i] = (float) halo.nextDouble();
          }
          s.forwardAggregate();
          h = s.output();
          seen.add(java.util.Arrays.copyOf(h.data(), n * h.cols()));
        }
        if (!training) {
          continue;
        }
        float[] grads = new float[params];
        DenseMatrix d = dLogits;
        for (int k = steps.length - 1; k >= 0; k--) {
          LayerStep s = steps[k];
          s.backwardAggregate(d, grads, base[k]);
          DenseMatrix dm = s.messageGradients();
          seen.add(java.util.Arrays.copyOfRange(dm.data(), 0, g.numSlots() * dm.cols()));
          s.backwardTransform(grads, base[k]);
          d = s.inputGradient();
          if (d != null) {
            seen.add(java.util.Arrays.copyOf(d.data(), n * d.cols()));
          }
        }
        seen.add(grads);
      }
    }
    return seen;
  }

  @Test
  void aTwoLayerChainSharesItsLargeBuffers() {
    SplittableRandom r = new SplittableRandom(3);
    GraphBlock g = SparseTestGraphs.random(r, 50, 0, 200, false);
    for (LayerSpec first : List.of(LayerSpec.gcn(16, 16, Activation.RELU, true),
        LayerSpec.sage(16, 16, Activation.RELU, true, -1))) {
      LayerSpec second = first.type().name().equals("GCN") ? LayerSpec.gcn(16, 4, Activation.NONE, true)
          : LayerSpec.sage(16, 4, Activation.NONE, true, -1);
      LayerStep[] s = LayerStep.chain(List.of(TrainLayer.create(first, 0, 0.5, 0),
          TrainLayer.create(second, 1, 0.5, 0)), g, SEED);
      assertSame(s[0].messages().data(), s[0].messageGradients().data(), first.type() + ": messages");
      assertNotSame(s[0].output().data(), s[1].inputGradient().data());
      assertNotSame(s[0].messages().data(), s[1].inputGradient().data());
      assertSame(s[0].outEdges(), s[1].outEdges(), first.type() + ": one transpose of the block's edges");
    }
  }
}
