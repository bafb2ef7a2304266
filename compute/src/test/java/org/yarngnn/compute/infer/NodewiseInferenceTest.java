package org.yarngnn.compute.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.CsrBuilder;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.compute.tensor.DenseMatrix;

/** The nodewise baseline computes the same embeddings as layer-wise inference, with more work. */
class NodewiseInferenceTest {
  static GraphBlock randomGraph(int n, int m, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] dst = new int[m];
    int[] src = new int[m];
    for (int e = 0; e < m; e++) {
      // Skewed sources so some nodes have many in-edges and the sampler is exercised.
      dst[e] = rnd.nextInt(4) == 0 ? rnd.nextInt(Math.max(1, n / 10)) : rnd.nextInt(n);
      src[e] = rnd.nextInt(n);
    }
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    return new GraphBlock(ids, new long[0], CsrBuilder.build(n, n, dst, src, null, m, null));
  }

  static DenseMatrix randomFeatures(int n, int f, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DenseMatrix x = new DenseMatrix(n, f);
    for (int i = 0; i < x.data().length; i++) {
      x.data()[i] = (float) rnd.nextDouble();
    }
    return x;
  }

  @Test
  void sameEmbeddingsAsLayerwiseWithMoreWork() {
    GraphBlock g = randomGraph(500, 4000, 1);
    for (ModelSpec spec : List.of(
        new ModelSpec("row", List.of(LayerSpec.sage(12, 8, Activation.RELU, true, 4),
            LayerSpec.gcn(8, 5, Activation.NONE, true)), "l2", false),
        new ModelSpec("none", List.of(LayerSpec.gat(12, 4, 2, true, 0.2f, Activation.ELU, true),
            LayerSpec.sage(8, 3, Activation.NONE, false, -1)), "none", true))) {
      Model model = RandomModels.random(spec, 9);
      DenseMatrix want = new LayerwiseInference(model, 5).run(g, randomFeatures(500, 12, 2), null);
      NodewiseInference nodewise = new NodewiseInference(model, 5, 64);
      DenseMatrix got = nodewise.run(g, randomFeatures(500, 12, 2));
      assertEquals(want.rows(), got.rows());
      for (int i = 0; i < want.data().length; i++) {
        assertEquals(want.data()[i], got.data()[i], 1e-5f * Math.max(1f, Math.abs(want.data()[i])), "value " + i);
      }
      // Layer-wise computes 2 * 500 rows per layer; nodewise recomputes shared neighbourhoods per batch.
      assertTrue(nodewise.rowsComputed() > 2 * 2 * 500, "rows computed " + nodewise.rowsComputed());
    }
  }
}
