package org.yarngnn.partition;

/** A well-mixed 64-bit hash (the SplitMix64 finaliser): every input bit affects every output bit. */
public final class Mixing {
  private Mixing() {}

  public static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
