package org.yarngnn.compute.layer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.yarngnn.compute.kernel.SparseTestGraphs.assertClose;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.kernel.SparseTestGraphs;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Tensor;
import org.yarngnn.compute.tensor.DenseMatrix;

class LayersTest {
  private final SplittableRandom r = new SplittableRandom(41);

  private Tensor t(String name, int... shape) {
    int n = 1;
    for (int d : shape) {
      n *= d;
    }
    return new Tensor(name, shape, SparseTestGraphs.randomVector(r, n));
  }

  @Test
  void buildsEachTypeFromContractTensorNames() {
    Map<String, Tensor> w = new HashMap<>();
    for (Tensor x : new Tensor[] {t("layers.0.weight", 5, 4), t("layers.0.bias", 4),
        t("layers.1.weight_self", 4, 3), t("layers.1.weight_neigh", 4, 3), t("layers.1.bias", 3),
        t("layers.2.weight", 3, 6), t("layers.2.attn_src", 3, 2), t("layers.2.attn_dst", 3, 2), t("layers.2.bias", 2)}) {
      w.put(x.name(), x);
    }
    Layer gcn = Layers.create(LayerSpec.gcn(5, 4, Activation.RELU, true), 0, w);
    Layer sage = Layers.create(LayerSpec.sage(4, 3, Activation.RELU, true, 5), 1, w);
    Layer gat = Layers.create(LayerSpec.gat(3, 2, 3, false, 0.2f, Activation.NONE, true), 2, w);
    assertInstanceOf(GcnLayer.class, gcn);
    assertInstanceOf(SageLayer.class, sage);
    assertInstanceOf(GatLayer.class, gat);
    assertEquals(2, gat.outWidth());

    GraphBlock g = SparseTestGraphs.random(r, 20, 0, 60, true);
    DenseMatrix h = SparseTestGraphs.randomMatrix(r, 20, 5);
    assertClose(ContractReference.gcn(g, h, w.get("layers.0.weight").asMatrix(), w.get("layers.0.bias").data(),
        Activation.RELU), ContractReference.run(gcn, g, h), 2e-5, "factory gcn uses the named tensors");
  }

  @Test
  void missingOrMisshapenTensorIsNamed() {
    Map<String, Tensor> w = new HashMap<>();
    w.put("layers.3.weight", t("layers.3.weight", 5, 4));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Layers.create(LayerSpec.gcn(5, 4, Activation.RELU, true), 3, w));
    assertTrue(e.getMessage().contains("layers.3.bias"), e.getMessage());
    Layers.create(LayerSpec.gcn(5, 4, Activation.RELU, false), 3, w); // no bias needed
    e = assertThrows(IllegalArgumentException.class,
        () -> Layers.create(LayerSpec.sage(5, 4, Activation.RELU, false, -1), 3, w));
    assertTrue(e.getMessage().contains("layers.3.weight_self"), e.getMessage());
    w.put("layers.3.weight", t("layers.3.weight", 4, 5));
    e = assertThrows(IllegalArgumentException.class,
        () -> Layers.create(LayerSpec.gcn(5, 4, Activation.RELU, false), 3, w));
    assertTrue(e.getMessage().contains("layers.3.weight") && e.getMessage().contains("[4, 5]"), e.getMessage());
  }
}
