package org.yarngnn.compute.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;

class KernelWarmupTest {
  /** gcn, sage and gat layers of odd widths (the kernels' tails), fused first layer or not. */
  private static final ModelSpec MODEL = new ModelSpec("row", List.of(LayerSpec.gcn(37, 20, Activation.RELU, true),
      LayerSpec.sage(20, 19, Activation.ELU, false, 10), LayerSpec.gat(19, 3, 5, true, 0.2f, Activation.ELU, true)),
      "l2", true);

  @Test
  void runsEveryLayerWithinItsLimitAndLeavesTheModelAlone() {
    Model model = RandomModels.random(MODEL, 3);
    List<Layer> layers = new LayerwiseInference(model, 1).layers();
    byte[] before = ModelDirectory.weightsBytes(model);
    long t0 = System.nanoTime();
    KernelWarmup.run(layers, TimeUnit.SECONDS.toNanos(20));
    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(25), "within its limit");
    assertArrayEquals(before, ModelDirectory.weightsBytes(model), "weights untouched");
    long t1 = System.nanoTime();
    KernelWarmup.run(layers, 0);
    assertTrue(System.nanoTime() - t1 < TimeUnit.SECONDS.toNanos(2), "a spent limit stops it at once");
  }
}
