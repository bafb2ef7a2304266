package org.yarngnn.compute.train;

import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Inverted dropout whose masks are pure functions of global keys, never of the worker, thread or row range that
 * computes them, so a distributed run drops exactly what a single JVM drops. Kept values are scaled by
 * {@code 1 / (1 - p)}; {@code p = 0} keeps everything unscaled.
 *
 * <h2>Exact keys</h2>
 * All arithmetic on 64-bit integers modulo 2^64, {@code mix64} the SplitMix64 finaliser of
 * {@link org.yarngnn.compute.sample.NeighbourSampler}, {@code G = 0x9E3779B97F4A7C15}:
 * <pre>
 * row(kind, seed, epoch, layer, id) = mix64(mix64(mix64(mix64(seed ^ kind) ^ epoch) ^ layer) ^ id)
 * feature (layer input) element (node id, column c):
 *     u = mix64(row(FEATURE, seed, epoch, layer, node_id) + G * (c + 1))
 * gat attention coefficient (destination id, source id, head h, position q):
 *     u = mix64(mix64(row(ATTENTION, seed, epoch, layer, dst_id) ^ src_id) + G * (q * 2^16 + h + 1))
 *     q = the edge's position in the destination's in-edges ordered by source id (so parallel edges differ),
 *         q = -1 for the one self-loop the layer adds (src_id = dst_id)
 * kept iff (u >>> 11) * 2^-53 >= p
 * </pre>
 * {@code FEATURE = 0x6A09E667F3BCC909}, {@code ATTENTION = 0xBB67AE8584CAA73B}; per-epoch neighbour samples use
 * {@link #sampleSeed}. Every owner holds the full in-edge list of its nodes, so positions agree across workers.
 */
public final class Dropout {
  static final long FEATURE = 0x6A09E667F3BCC909L;
  static final long ATTENTION = 0xBB67AE8584CAA73BL;
  static final long SAMPLE = 0x3C6EF372FE94F82BL;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private Dropout() {}

  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The per-row state of the class comment. */
  public static long rowState(long kind, long seed, long epoch, int layer, long id) {
    return mix64(mix64(mix64(mix64(seed ^ kind) ^ epoch) ^ (long) layer) ^ id);
  }

  /** Uniform in [0, 1) from a 64-bit hash. */
  static double unit(long u) {
    return (u >>> 11) * 0x1.0p-53;
  }

  /** Whether column {@code c} of the row whose {@link #rowState} (kind FEATURE) is {@code row} is kept. */
  public static boolean featureKept(long row, int c, double p) {
    return unit(mix64(row + GOLDEN * (c + 1L))) >= p;
  }

  /** Whether the attention coefficient keyed as in the class comment is kept ({@code row}: kind ATTENTION). */
  public static boolean attentionKept(long row, long srcId, int position, int head, double p) {
    return unit(mix64(mix64(row ^ srcId) + GOLDEN * (((long) position << 16) + head + 1L))) >= p;
  }

  /** The seed the neighbour sampler uses for the samples of training epoch {@code epoch}. */
  public static long sampleSeed(long seed, long epoch) {
    return mix64(mix64(seed ^ SAMPLE) ^ epoch);
  }

  /** {@code 1 / (1 - p)}, the scale of kept values. */
  public static float scale(double p) {
    return (float) (1.0 / (1.0 - p));
  }

  /**
   * Rows {@code [from, to)} of {@code out} = rows of {@code in} with dropout {@code p} applied; row r is local
   * node r with global id {@code ids[r]}. {@code out} may be {@code in}. Zero inputs skip the hash (their output
   * is zero either way), which makes sparse feature rows cheap.
   */
  public static void apply(DenseMatrix in, DenseMatrix out, long[] ids, long seed, long epoch, int layer, double p,
      int from, int to) {
    int w = in.cols();
    float[] x = in.data();
    float[] y = out.data();
    if (p <= 0) {
      if (x != y) {
        System.arraycopy(x, in.offset(from), y, out.offset(from), (to - from) * w);
      }
      return;
    }
    float s = scale(p);
    for (int r = from; r < to; r++) {
      long row = rowState(FEATURE, seed, epoch, layer, ids[r]);
      int xi = in.offset(r);
      int yi = out.offset(r);
      for (int c = 0; c < w; c++) {
        float v = x[xi + c];
        y[yi + c] = v != 0f && featureKept(row, c, p) ? v * s : 0f;
      }
    }
  }

  /**
   * The mask of rows {@code [from, to)} of {@code in} as bits: bit {@code c % 64} of
   * {@code mask[r * words + c / 64]} set iff element (r, c) is kept, {@code words = ceil(in.cols() / 64)}. With
   * {@code zerosMatter} false a zero input gets bit 0 without its hash (for a consumer that multiplies by the
   * input, as {@link DroppedInput#rows} does); the gradient's mask needs every bit.
   */
  static void mask(DenseMatrix in, long[] mask, long[] ids, long seed, long epoch, int layer, double p, int from,
      int to, boolean zerosMatter) {
    int w = in.cols();
    int words = words(w);
    float[] x = in.data();
    for (int r = from; r < to; r++) {
      long row = rowState(FEATURE, seed, epoch, layer, ids[r]);
      int xi = in.offset(r);
      int mi = r * words;
      for (int q = 0; q < words; q++) {
        long bits = 0;
        int end = Math.min(w, (q + 1) * 64);
        for (int c = q * 64; c < end; c++) {
          if ((zerosMatter || x[xi + c] != 0f) && featureKept(row, c, p)) {
            bits |= 1L << (c & 63);
          }
        }
        mask[mi + q] = bits;
      }
    }
  }

  /** Longs per row of a {@link #mask} of {@code width} columns. */
  static int words(int width) {
    return (width + 63) >>> 6;
  }

  /**
   * Backward of {@link #apply}: rows {@code [from, to)} of {@code dIn} = {@code dOut} times the same mask and
   * scale (the mask is recomputed from its keys, not stored). {@code dIn} may be {@code dOut}.
   */
  public static void backward(DenseMatrix dOut, DenseMatrix dIn, long[] ids, long seed, long epoch, int layer,
      double p, int from, int to) {
    int w = dOut.cols();
    float[] x = dOut.data();
    float[] y = dIn.data();
    if (p <= 0) {
      if (x != y) {
        System.arraycopy(x, dOut.offset(from), y, dIn.offset(from), (to - from) * w);
      }
      return;
    }
    float s = scale(p);
    for (int r = from; r < to; r++) {
      long row = rowState(FEATURE, seed, epoch, layer, ids[r]);
      int xi = dOut.offset(r);
      int yi = dIn.offset(r);
      for (int c = 0; c < w; c++) {
        y[yi + c] = featureKept(row, c, p) ? x[xi + c] * s : 0f;
      }
    }
  }
}
