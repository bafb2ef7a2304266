package org.yarngnn.compute.layer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.GraphBlock;
import java.util.SplittableRandom;
import org.yarngnn.compute.kernel.SparseTestGraphs;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.compute.tensor.DenseMatrix;

/** Fusion's split of the transform: completing the linear rows gives exactly what transform gives. */
class FusedTransformTest {
  @Test
  void completeOfLinearEqualsTransform() {
    int n = 300;
    SplittableRandom rnd = new SplittableRandom(3);
    GraphBlock g = SparseTestGraphs.random(rnd, n, 0, 2000, true);
    for (LayerSpec spec : List.of(
        LayerSpec.gcn(17, 9, Activation.RELU, true),
        LayerSpec.sage(17, 5, Activation.NONE, true, 3),
        LayerSpec.sage(5, 17, Activation.NONE, false, -1),
        LayerSpec.gat(17, 4, 3, true, 0.2f, Activation.ELU, true))) {
      Model model = RandomModels.random(new ModelSpec("none", List.of(spec), "none", false), 5);
      Layer layer = Layers.create(spec, 0, model.weights());
      DenseMatrix h = SparseTestGraphs.randomMatrix(rnd, n, spec.in());
      DenseMatrix msg = new DenseMatrix(n, layer.messageWidth());
      DenseMatrix self = new DenseMatrix(n, Math.max(1, layer.selfWidth()));
      layer.transform(g, h, 0, n, msg, self);

      DenseMatrix lin = new DenseMatrix(n, layer.linearWidth());
      layer.linear(h, 0, n, lin);
      DenseMatrix msg2 = new DenseMatrix(n, layer.messageWidth());
      DenseMatrix self2 = new DenseMatrix(n, Math.max(1, layer.selfWidth()));
      layer.completeTransform(g, lin, 0, 100, msg2, self2);
      layer.completeTransform(g, lin, 100, n, msg2, self2);
      for (int i = 0; i < msg.data().length; i++) {
        assertEquals(msg.data()[i], msg2.data()[i], 1e-6f, spec.type() + " message value " + i);
      }
      if (layer.selfWidth() > 0) {
        for (int i = 0; i < self.data().length; i++) {
          assertEquals(self.data()[i], self2.data()[i], 1e-6f, spec.type() + " self value " + i);
        }
      }
    }
  }
}
