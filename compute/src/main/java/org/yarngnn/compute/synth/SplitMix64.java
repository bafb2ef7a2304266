package org.yarngnn.compute.synth;

/**
 * SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast generator whose output depends only on its seed, so each
 * generated item (an edge, a node) gets its own stream via {@link #forItem} and any range of items can be
 * generated independently of the others, in any order or thread.
 */
public final class SplitMix64 {
  private static final long GAMMA = 0x9E3779B97F4A7C15L;

  private long state;
  private double spareGaussian;
  private boolean hasSpare;

  public SplitMix64(long seed) {
    this.state = seed;
  }

  /** The stream of item {@code index} of kind {@code salt} in a generation seeded with {@code seed}. */
  public static SplitMix64 forItem(long seed, long salt, long index) {
    return new SplitMix64(itemSeed(seed, salt, index));
  }

  /** The starting state {@link #forItem} uses; lets hot loops reset a generator with {@link #reseed}. */
  public static long itemSeed(long seed, long salt, long index) {
    return mix64(mix64(seed ^ mix64(salt)) + index * GAMMA);
  }

  public void reseed(long newState) {
    state = newState;
    hasSpare = false;
  }

  /** The SplitMix64 output function: a bijective 64-bit mix with good avalanche. */
  public static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  public long nextLong() {
    return mix64(state += GAMMA);
  }

  /** Uniform in [0, 1). */
  public double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** Uniform in (0, 1]: safe to take the logarithm of. */
  public double nextDoubleOpenZero() {
    return ((nextLong() >>> 11) + 1) * 0x1.0p-53;
  }

  /** Standard normal (Marsaglia's polar method; the second value of each pair is kept for the next call). */
  public double nextGaussian() {
    if (hasSpare) {
      hasSpare = false;
      return spareGaussian;
    }
    double u;
    double v;
    double s;
    do {
      u = nextDouble() * 2 - 1;
      v = nextDouble() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double m = Math.sqrt(-2 * Math.log(s) / s);
    spareGaussian = v * m;
    hasSpare = true;
    return u * m;
  }
}
