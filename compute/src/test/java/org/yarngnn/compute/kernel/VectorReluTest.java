package org.yarngnn.compute.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The vector relu (a compare and blend) gives the scalar rule's bits for every float, NaNs and -0 included. */
class VectorReluTest {
  @Test
  void everyKindOfFloatGetsTheScalarRulesBits() {
    SparseRowKernel vector = VectorSparseRowKernel.createIfUseful();
    assertNotNull(vector, "this machine's preferred species has SIMD lanes");
    int[] special = {0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,
        0x7FFFFFFF, 0xFFFFFFFF, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x7F7FFFFF, 0xFF7FFFFF,
        Float.floatToRawIntBits(1f), Float.floatToRawIntBits(-1f)};
    SplittableRandom r = new SplittableRandom(11);
    int n = 4099; // not a multiple of any vector length: the tail runs the scalar loop
    for (int round = 0; round < 40; round++) {
      float[] y = new float[n + 2];
      for (int i = 0; i < y.length; i++) {
        y[i] = Float.intBitsToFloat(r.nextInt(4) == 0 ? special[r.nextInt(special.length)] : r.nextInt());
      }
      float[] before = y.clone();
      vector.relu(y, 1, n);
      assertEquals(Float.floatToRawIntBits(before[0]), Float.floatToRawIntBits(y[0]), "before the range");
      assertEquals(Float.floatToRawIntBits(before[n + 1]), Float.floatToRawIntBits(y[n + 1]), "after the range");
      for (int i = 1; i <= n; i++) {
        float x = before[i];
        float want = x > 0f ? x : 0f;
        assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(y[i]),
            "relu of bits 0x" + Integer.toHexString(Float.floatToRawIntBits(x)) + " at " + i);
      }
    }
  }
}
