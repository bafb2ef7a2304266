package org.yarngnn.compute.train;

import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * A layer's transform input after dropout, kept as the undropped input (which outlives the layer's backward
 * anyway: the features, or the previous layer's output) plus its dropout mask as one bit per element, and
 * regenerated block by block where the forward transform and the weight gradients read it. Instead of a full
 * dropped-out copy (4 bytes per element) it costs {@code 8 * ceil(width / 64)} bytes per row, and the mask
 * also serves the gradient's dropout, which then needs no hashing. Values are those of {@link Dropout#apply}
 * bit for bit.
 */
final class DroppedInput {
  private final int width;
  private final int words;
  private DenseMatrix h;
  private long[] mask;
  private boolean dropped;
  private boolean allBits;
  private float scale;

  DroppedInput(int width) {
    this.width = width;
    this.words = Dropout.words(width);
  }

  /**
   * Takes {@code h} as the input of the current pass, dropped out with {@code p} (0: kept as it is) over
   * {@code rows} rows; {@code gradientMask}: the mask will serve {@link #backward} too. The mask itself is set
   * by {@link #computeMask} over the rows.
   */
  void bind(DenseMatrix h, double p, int rows, boolean gradientMask) {
    this.h = h;
    this.dropped = p > 0;
    this.allBits = gradientMask;
    this.scale = dropped ? Dropout.scale(p) : 1f;
    if (dropped && (mask == null || mask.length < (long) rows * words)) {
      mask = new long[Math.multiplyExact(rows, words)];
    }
  }

  boolean dropped() {
    return dropped;
  }

  /** The mask of rows {@code [from, to)} (see {@link Dropout#mask}). */
  void computeMask(long[] ids, long seed, long epoch, int layer, double p, int from, int to) {
    Dropout.mask(h, mask, ids, seed, epoch, layer, p, from, to, allBits);
  }

  /** Rows {@code [from, from + m)} after dropout into {@code dest[0 .. m * width)}, row-major. */
  void rows(int from, int m, float[] dest) {
    float[] x = h.data();
    int xo = h.offset(from);
    if (!dropped) {
      System.arraycopy(x, xo, dest, 0, m * width);
      return;
    }
    float s = scale;
    for (int r = 0; r < m; r++) {
      int mi = (from + r) * words;
      int o = r * width;
      for (int c = 0; c < width; c++) {
        float v = x[xo + o + c];
        dest[o + c] = v != 0f && (mask[mi + (c >>> 6)] & (1L << (c & 63))) != 0 ? v * s : 0f;
      }
    }
  }

  /** The backward of the dropout, in place on rows {@code [from, to)} of {@code d} (as {@link Dropout#backward}). */
  void backward(DenseMatrix d, int from, int to) {
    if (!dropped) {
      return;
    }
    if (!allBits) {
      throw new IllegalStateException("the dropout mask was kept without the bits of zero inputs");
    }
    float[] y = d.data();
    float s = scale;
    for (int r = from; r < to; r++) {
      int mi = r * words;
      int o = d.offset(r);
      for (int c = 0; c < width; c++) {
        y[o + c] = (mask[mi + (c >>> 6)] & (1L << (c & 63))) != 0 ? y[o + c] * s : 0f;
      }
    }
  }

  /** Bytes of the mask. */
  long maskBytes() {
    return mask == null ? 0 : 8L * mask.length;
  }
}
