package org.yarngnn.app.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelSpec;

/**
 * The parameter server's weight stashing: a held version outlives the step that replaced it, with its exact
 * values, and is freed when its last hold is released; at staleness 0 at most 2 versions are live, 1 at the end.
 */
class WeightStashingTest {
  @Test
  void aHeldVersionOutlivesItsStepAndIsFreedOnRelease() {
    ModelSpec spec = new ModelSpec("none", List.of(LayerSpec.gcn(3, 2, Activation.RELU, true)), "none", true);
    ParameterServer ps = new ParameterServer(spec, 1, 0.01, 0);
    Weights v0 = ps.current();
    float[] g = new float[v0.values().length];
    java.util.Arrays.fill(g, 0.5f);
    for (int epoch = 1; epoch <= 5; epoch++) {
      long used = ps.version();
      Weights before = ps.weights(used);
      ps.hold(used);
      ps.hold(used); // two intervals
      Weights next = ps.step(List.of(new WeightGradients(used, g)));
      assertEquals(used + 1, next.version());
      assertEquals(2, ps.liveVersions());
      assertArrayEquals(before.values(), ps.weights(used).values(), "the stashed version keeps its values");
      ps.release(used);
      assertEquals(2, ps.liveVersions());
      ps.release(used);
      assertEquals(1, ps.liveVersions());
      assertNull(ps.weights(used), "a released old version is freed");
    }
    assertEquals(2, ps.maxLiveVersions());
    assertThrows(IllegalStateException.class, () -> ps.release(ps.version()));
    assertThrows(IllegalStateException.class, () -> ps.hold(0));
  }
}
