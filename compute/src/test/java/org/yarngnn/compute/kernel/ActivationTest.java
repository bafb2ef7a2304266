package org.yarngnn.compute.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ActivationTest {
  @Test
  void arrayFormMatchesScalarFormOnlyInsideTheRange() {
    // Longer than any vector (relu runs on vectors of up to 16 lanes), every special value in every lane.
    float[] some = {-3f, -0.5f, -0f, 0f, 0.25f, 2f, 40f, -40f, Float.NaN};
    float[] xs = new float[some.length * 7];
    for (int k = 0; k < xs.length; k++) {
      xs[k] = some[k % some.length] * (1 + k / some.length);
    }
    for (Activation a : Activation.values()) {
      float[] v = new float[xs.length + 2];
      System.arraycopy(xs, 0, v, 1, xs.length);
      v[0] = -7f;
      v[v.length - 1] = -7f;
      a.apply(v, 1, 1 + xs.length);
      assertEquals(-7f, v[0], a + " before range");
      assertEquals(-7f, v[v.length - 1], a + " after range");
      for (int k = 0; k < xs.length; k++) {
        assertEquals(a.apply(xs[k]), v[k + 1], a + " at " + xs[k]);
      }
    }
    assertEquals(0f, Activation.RELU.apply(-2f));
    assertEquals(-0.02f, Activation.LEAKY_RELU.apply(-2f), 1e-7f);
    assertEquals((float) Math.expm1(-2), Activation.ELU.apply(-2f), 1e-7f);
  }
}
