package org.yarngnn.compute.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.compute.sample.NeighbourSampler;
import org.yarngnn.compute.tensor.DenseMatrix;

/** Targeted inference computes the targets' sampled receptive field only, with the all-node job's values. */
class ReceptiveFieldTest {
  private static final List<ModelSpec> MODELS = List.of(
      new ModelSpec("row", List.of(LayerSpec.sage(12, 8, Activation.RELU, true, 4),
          LayerSpec.gcn(8, 5, Activation.NONE, true)), "l2", false),
      new ModelSpec("none", List.of(LayerSpec.gcn(12, 8, Activation.RELU, true),
          LayerSpec.sage(8, 6, Activation.RELU, true, 3), LayerSpec.sage(6, 4, Activation.NONE, true, 2)),
          "none", true),
      new ModelSpec("none", List.of(LayerSpec.gat(12, 4, 2, true, 0.2f, Activation.ELU, true),
          LayerSpec.sage(8, 3, Activation.NONE, false, -1)), "none", true));

  @Test
  void targetRowsEqualTheAllNodeRowsBitForBit() throws Exception {
    GraphBlock g = NodewiseInferenceTest.randomGraph(600, 5000, 3);
    int[] targets = {5, 599, 17, 5, 300, 0, 42, 17};
    for (ModelSpec spec : MODELS) {
      Model model = RandomModels.random(spec, 11);
      LayerwiseInference engine = new LayerwiseInference(model, 7);
      DenseMatrix all = engine.run(g, NodewiseInferenceTest.randomFeatures(600, 12, 4), null);
      DenseMatrix got = engine.runTargets(g, NodewiseInferenceTest.randomFeatures(600, 12, 4), targets);
      assertEquals(targets.length, got.rows());
      for (int r = 0; r < targets.length; r++) {
        for (int c = 0; c < all.cols(); c++) {
          assertEquals(all.data()[all.offset(targets[r]) + c], got.data()[got.offset(r) + c],
              "target " + targets[r] + " column " + c);
        }
      }
    }
  }

  @Test
  void eachLayerNeedsItsRowsAndTheirSampledSourcesOnly() {
    GraphBlock g = NodewiseInferenceTest.randomGraph(400, 3000, 5);
    Model model = RandomModels.random(MODELS.get(1), 2);
    LayerwiseInference engine = new LayerwiseInference(model, 9);
    ReceptiveField field = ReceptiveField.of(engine, g, new int[] {9, 3, 9, 250});
    assertEquals(3, field.layers());
    assertArrayEquals(new int[] {3, 9, 250}, field.outRows(2));
    for (int k = 0; k < 3; k++) {
      // The reference: the all-node sample of layer k, read only at the rows layer k outputs.
      Csr full = engine.sampled(k, g).inEdges();
      TreeSet<Integer> want = new TreeSet<>();
      for (int r : field.outRows(k)) {
        want.add(r);
        for (int e = full.rowPtr()[r]; e < full.rowPtr()[r + 1]; e++) {
          want.add(full.colIdx()[e]);
        }
      }
      assertArrayEquals(want.stream().mapToInt(Integer::intValue).toArray(), field.inRows(k), "layer " + k);
      if (k > 0) {
        assertArrayEquals(field.inRows(k), field.outRows(k - 1), "layer " + k + "'s inputs are layer k-1's outputs");
      }
    }
    assertTrue(field.rowsComputed() < 6L * 400, "a small field: " + field.rowsComputed() + " rows");
  }

  @Test
  void sampledRowsAreTheAllNodeSampleOfThoseRowsAndNothingElse() {
    GraphBlock g = NodewiseInferenceTest.randomGraph(300, 4000, 8);
    int[] rows = {0, 1, 2, 30, 31, 299};
    for (int fanout : new int[] {-1, 0, 1, 3, 50}) {
      Csr full = NeighbourSampler.sample(g, fanout, 13, 1).inEdges();
      Csr part = NeighbourSampler.sampleRows(g, fanout, 13, 1, rows).inEdges();
      TreeSet<Integer> chosen = new TreeSet<>();
      for (int r : rows) {
        chosen.add(r);
      }
      for (int r = 0; r < 300; r++) {
        int d = part.rowPtr()[r + 1] - part.rowPtr()[r];
        if (!chosen.contains(r)) {
          assertEquals(0, d, "row " + r + " not asked for");
          continue;
        }
        assertEquals(full.rowPtr()[r + 1] - full.rowPtr()[r], d, "fanout " + fanout + " row " + r);
        for (int i = 0; i < d; i++) {
          assertEquals(full.colIdx()[full.rowPtr()[r] + i], part.colIdx()[part.rowPtr()[r] + i]);
        }
      }
    }
    assertThrows(IllegalArgumentException.class, () -> NeighbourSampler.sampleRows(g, 2, 1, 0, new int[] {3, 3}));
    assertThrows(IllegalArgumentException.class, () -> NeighbourSampler.sampleRows(g, 2, 1, 0, new int[] {300}));
  }

  @Test
  void unionAndDistinct() {
    assertArrayEquals(new int[] {1, 2, 5, 7}, ReceptiveField.union(8, new int[] {2, 5}, new int[] {1, 5, 7}));
    assertArrayEquals(new int[] {0, 3}, ReceptiveField.distinctSorted(new int[] {3, 0, 3}));
  }

}
