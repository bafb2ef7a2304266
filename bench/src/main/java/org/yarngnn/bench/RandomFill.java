package org.yarngnn.bench;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

/** Fills big arrays with seeded uniform values in [-1, 1), in parallel chunks (a 600M-float operand takes seconds). */
final class RandomFill {
  private static final int CHUNK = 1 << 20;

  private RandomFill() {}

  static float[] uniform(long size, long seed) {
    float[] v = new float[Math.toIntExact(size)];
    int chunks = (v.length + CHUNK - 1) / CHUNK;
    IntStream.range(0, chunks).parallel().forEach(ch -> {
      SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + ch);
      int end = Math.min(v.length, (ch + 1) * CHUNK);
      for (int i = ch * CHUNK; i < end; i++) {
        v[i] = (float) (rnd.nextDouble() * 2 - 1);
      }
    });
    return v;
  }
}
