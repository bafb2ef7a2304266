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

  @Test
  void eluIsExpm1WithinOneUlp() {
    // Every exponent from 2^-149 up to 2^7, several mantissas each, both signs; and the edge cases.
    int checked = 0;
    for (int e = -149; e <= 7; e++) {
      for (float m : new float[] {1f, 1.1f, 1.37f, 1.5f, 1.77f, 1.999f}) {
        for (float sign : new float[] {-1f, 1f}) {
          float x = sign * m * (float) Math.scalb(1.0, e);
          float want = x > 0f ? x : (float) Math.expm1(x);
          float got = Activation.elu(x);
          assertEquals(want, got, Math.ulp(want), "elu(" + x + ")");
          checked++;
        }
      }
    }
    assertEquals(157 * 12, checked);
    java.util.SplittableRandom r = new java.util.SplittableRandom(3);
    for (int i = 0; i < 1_000_000; i++) {
      float x = (float) (r.nextDouble(-20, 1) * Math.pow(10, -r.nextInt(10)));
      float want = x > 0f ? x : (float) Math.expm1(x);
      assertEquals(want, Activation.elu(x), Math.ulp(want), "elu(" + x + ")");
    }
    assertEquals(-1f, Activation.elu(Float.NEGATIVE_INFINITY));
    assertEquals(Float.floatToIntBits(-0f), Float.floatToIntBits(Activation.elu(-0f)));
    assertEquals(0f, Activation.elu(0f));
    assertEquals(Float.NaN, Activation.elu(Float.NaN));
    assertEquals(-1f, Activation.elu(-200f));
  }
}
