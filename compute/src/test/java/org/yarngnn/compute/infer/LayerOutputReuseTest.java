package org.yarngnn.compute.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * A layer allowed to reuse its input writes its output over the input's array (sage its self rows too), with the
 * same values.
 */
class LayerOutputReuseTest {
  @Test
  void sameShapedOutputTakesTheInputsArrayAndTheSameValues() throws Exception {
    GraphBlock g = NodewiseInferenceTest.randomGraph(500, 4000, 6);
    List<LayerSpec> layers = List.of(LayerSpec.gcn(8, 8, Activation.RELU, true),
        LayerSpec.sage(8, 8, Activation.RELU, true, -1), LayerSpec.gat(8, 4, 2, true, 0.2f, Activation.ELU, true),
        LayerSpec.gcn(8, 5, Activation.NONE, true));
    LayerwiseInference engine = new LayerwiseInference(RandomModels.random(
        new ModelSpec("none", layers, "none", false), 3), 7);
    // The sage layer keeps its self rows in the input's array (the path compared below), gcn and gat have none.
    assertTrue(engine.layers().get(1).selfOverInput());
    DenseMatrix a = NodewiseInferenceTest.randomFeatures(500, 8, 4);
    DenseMatrix b = NodewiseInferenceTest.randomFeatures(500, 8, 4);
    for (int k = 0; k < layers.size(); k++) {
      DenseMatrix fresh = engine.layer(k, g, g, a, false, HaloExchangeHook.NONE, false);
      DenseMatrix reused = engine.layer(k, g, g, b, false, HaloExchangeHook.NONE, true);
      assertArrayEquals(fresh.data(), reused.data(), "layer " + k);
      if (k < 3) {
        assertSame(b, reused, "layer " + k + " wrote over its input");
      } else {
        assertNotSame(b, reused, "a narrower output needs its own matrix");
      }
      assertNotSame(a, fresh);
      a = fresh;
      b = reused;
    }
  }

  /**
   * The first layer's message matrix allocated ahead on a thread of its own ({@link
   * LayerwiseInference#reserveFirstMessages}), for the right slot count, too few or too many (the matrix then
   * takes a new array, or the first part of the larger one, with stale values from the next layers on): the same
   * values through every layer as without.
   */
  @Test
  void aReservedMessageMatrixGivesTheSameValues() throws Exception {
    GraphBlock g = NodewiseInferenceTest.randomGraph(500, 4000, 6);
    List<LayerSpec> layers = List.of(LayerSpec.gcn(8, 8, Activation.RELU, true),
        LayerSpec.gat(8, 4, 2, true, 0.2f, Activation.ELU, true), LayerSpec.sage(8, 8, Activation.RELU, true, -1),
        LayerSpec.gcn(8, 5, Activation.NONE, true));
    ModelSpec spec = new ModelSpec("none", layers, "none", false);
    LayerwiseInference plain = new LayerwiseInference(RandomModels.random(spec, 3), 7);
    DenseMatrix expected = NodewiseInferenceTest.randomFeatures(500, 8, 4);
    for (int k = 0; k < layers.size(); k++) {
      expected = plain.layer(k, g, g, expected, false, HaloExchangeHook.NONE, false);
    }
    for (long slots : new long[] {500, 10, 900, 0, -1, Long.MAX_VALUE}) {
      LayerwiseInference engine = new LayerwiseInference(RandomModels.random(spec, 3), 7);
      engine.reserveFirstMessages(slots);
      DenseMatrix h = NodewiseInferenceTest.randomFeatures(500, 8, 4);
      for (int k = 0; k < layers.size(); k++) {
        h = engine.layer(k, g, g, h, false, HaloExchangeHook.NONE, true);
      }
      assertArrayEquals(expected.data(), h.data(), "reserved for " + slots + " slots");
    }
  }
}
