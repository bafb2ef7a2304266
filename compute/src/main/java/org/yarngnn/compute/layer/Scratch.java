package org.yarngnn.compute.layer;

/**
 * Per-thread float buffers that grow and are then reused, so the row loops of the layers allocate nothing per
 * row (only when a thread first meets a larger block or degree).
 */
final class Scratch {
  /** Slot for buffers used inside {@code transform*}. */
  static final int TRANSFORM = 0;
  /** Slot for buffers used inside {@code aggregate}. */
  static final int AGGREGATE = 1;

  private static final ThreadLocal<float[][]> BUFFERS = ThreadLocal.withInitial(() -> new float[2][0]);

  private Scratch() {}

  /** A buffer of at least {@code size} floats for {@code slot}; contents are arbitrary. */
  static float[] floats(int slot, int size) {
    float[][] b = BUFFERS.get();
    if (b[slot].length < size) {
      // Doubling keeps regrowth rare when degrees rise slowly (power-law rows in arbitrary order).
      b[slot] = new float[Math.max(size, (int) Math.min(2L * b[slot].length, Integer.MAX_VALUE - 16))];
    }
    return b[slot];
  }
}
