package org.yarngnn.compute.synth;

/**
 * Label-free node features: each entry uniform in [0, 1), so row normalization ("input.normalize": "row")
 * is meaningful. The row of node index i depends only on the seed and i.
 */
public final class RandomFeatures {
  private static final long SALT = 0xFEA7L;

  private final int width;
  private final long seed;
  private final SplitMix64 rng = new SplitMix64(0);

  public RandomFeatures(int width, long seed) {
    if (width <= 0) {
      throw new IllegalArgumentException("feature width must be positive, got " + width);
    }
    this.width = width;
    this.seed = seed;
  }

  public int width() {
    return width;
  }

  /** Writes the features of node index {@code index} into {@code out[0..width)}. Not thread-safe. */
  public void fill(long index, float[] out) {
    rng.reseed(SplitMix64.itemSeed(seed, SALT, index));
    for (int j = 0; j < width; j++) {
      out[j] = (float) rng.nextDouble();
    }
  }
}
