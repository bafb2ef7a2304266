package org.yarngnn.compute.synth;

/**
 * A keyed bijection of [0, 2^63) onto itself that turns dense node indexes 0..n-1 into sparse, unordered,
 * non-negative int64 ids (distinct indexes always give distinct ids), and back. Built from steps that are each
 * invertible modulo 2^63: xor with the key, xor-shifts and multiplications by odd constants.
 */
public final class IdScrambler {
  private static final long MASK = Long.MAX_VALUE;
  private static final long M1 = 0xBF58476D1CE4E5B9L;
  private static final long M2 = 0x94D049BB133111EBL;

  private final long key;
  private final long inverseM1 = inverseOdd(M1);
  private final long inverseM2 = inverseOdd(M2);

  public IdScrambler(long seed) {
    this.key = SplitMix64.mix64(seed ^ 0x5CA4B1E5L) & MASK;
  }

  /** The id of index {@code index} (0 <= index < 2^63). */
  public long scramble(long index) {
    long x = (index ^ key) & MASK;
    x ^= x >>> 31;
    x = (x * M1) & MASK;
    x ^= x >>> 29;
    x = (x * M2) & MASK;
    x ^= x >>> 32;
    return x;
  }

  /** The index whose id is {@code id}. */
  public long unscramble(long id) {
    long x = unshift(id, 32);
    x = (x * inverseM2) & MASK;
    x = unshift(x, 29);
    x = (x * inverseM1) & MASK;
    x = unshift(x, 31);
    return (x ^ key) & MASK;
  }

  /** Inverts y = x ^ (x >>> s) on 63-bit values. */
  private static long unshift(long y, int s) {
    long x = y;
    for (int known = s; known < 63; known += s) {
      x = y ^ (x >>> s);
    }
    return x;
  }

  /** The inverse of an odd number modulo 2^64 (Newton's iteration doubles the correct bits each step). */
  private static long inverseOdd(long a) {
    long inv = a;
    for (int i = 0; i < 5; i++) {
      inv *= 2 - a * inv;
    }
    return inv;
  }
}
