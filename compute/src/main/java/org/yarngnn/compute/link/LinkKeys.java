package org.yarngnn.compute.link;

import org.yarngnn.compute.synth.SplitMix64;

/**
 * The hashes every random choice of link prediction is a pure function of (held-out pairs, training negatives,
 * evaluation negatives), so a choice never depends on the worker, thread or partition that makes it. All
 * arithmetic on 64-bit integers modulo 2^64, {@code mix64} the SplitMix64 finaliser,
 * {@code G = 0x9E3779B97F4A7C15}:
 * <pre>
 * key(kind, seed, epoch, src, dst) = mix64(mix64(mix64(mix64(seed ^ kind) ^ epoch) ^ src) ^ dst)
 * draw j of that key                = mix64(key + G * (j + 1));  uniform in [0, 1): (draw >>> 11) * 2^-53
 * </pre>
 */
final class LinkKeys {
  /** Held-out split of an unordered pair (epoch 0, src = the smaller id, dst = the larger). */
  static final long SPLIT = 0x510E527FADE682D1L;
  /** Training negatives of a positive edge, per epoch. */
  static final long NEGATIVE = 0x9B05688C2B3E6C1FL;
  /** Evaluation negatives of a held-out edge (epoch 0: the same every epoch). */
  static final long EVAL_NEGATIVE = 0x1F83D9ABFB41BD6BL;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private LinkKeys() {}

  static long key(long kind, long seed, long epoch, long src, long dst) {
    return SplitMix64.mix64(SplitMix64.mix64(SplitMix64.mix64(SplitMix64.mix64(seed ^ kind) ^ epoch) ^ src) ^ dst);
  }

  static long draw(long key, long j) {
    return SplitMix64.mix64(key + GOLDEN * (j + 1));
  }

  static double unit(long draw) {
    return (draw >>> 11) * 0x1.0p-53;
  }
}
