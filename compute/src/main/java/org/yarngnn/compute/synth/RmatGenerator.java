package org.yarngnn.compute.synth;

/**
 * R-MAT power-law graphs (Chakrabarti, Zhan, Faloutsos 2004): each edge descends the levels of the 2^L x 2^L
 * adjacency matrix, choosing a quadrant with probabilities a (top-left), b (top-right), c (bottom-left), d.
 * Optional per-level noise (Seshadhri, Pinar, Kolda's "noisy" Kronecker) smooths the oscillating degree
 * distribution; optional id scrambling maps node indexes to sparse int64 ids and spreads the hubs, which plain
 * R-MAT puts at the smallest ids.
 *
 * <p>Edge {@code e} depends only on the options and {@code e}, so any range of edges can be generated on its own
 * (in parallel, in chunks) and the union is the same graph for any chunking. When the node count is not a power
 * of two, or self-loops are excluded, an edge that falls outside is redrawn from the same edge's stream.
 */
public final class RmatGenerator {
  private static final long EDGE_SALT = 0xED6EL;
  private static final long NOISE_SALT = 0x401CEL;
  private static final int MAX_REDRAWS = 1_000_000;

  private final Options options;
  private final int levels;
  /** Per level, the cumulative thresholds a, a+b, a+b+c scaled to unsigned 32-bit integers. */
  private final long[] thresholdA;
  private final long[] thresholdAB;
  private final long[] thresholdABC;
  private final IdScrambler scrambler;

  public RmatGenerator(Options options) {
    this.options = options;
    this.levels = 64 - Long.numberOfLeadingZeros(options.nodes - 1);
    this.thresholdA = new long[levels];
    this.thresholdAB = new long[levels];
    this.thresholdABC = new long[levels];
    SplitMix64 noiseRng = SplitMix64.forItem(options.seed, NOISE_SALT, 0);
    double a = options.a;
    double b = options.b;
    double c = options.c;
    double d = 1 - a - b - c;
    for (int l = 0; l < levels; l++) {
      double mu = options.noise == 0 ? 0 : (noiseRng.nextDouble() * 2 - 1) * options.noise;
      double al = a - 2 * mu * a / (a + d);
      double bl = b + mu;
      double cl = c + mu;
      thresholdA[l] = scaled(al);
      thresholdAB[l] = scaled(al + bl);
      thresholdABC[l] = scaled(al + bl + cl);
    }
    this.scrambler = options.scrambleIds ? new IdScrambler(options.seed) : null;
  }

  private static long scaled(double p) {
    return Math.min(1L << 32, Math.round(p * (1L << 32)));
  }

  public Options options() {
    return options;
  }

  public long nodeCount() {
    return options.nodes;
  }

  public long edgeCount() {
    return options.edges;
  }

  /** The id of node index {@code index} (0 <= index < nodeCount): the index itself unless ids are scrambled. */
  public long nodeId(long index) {
    return scrambler == null ? index : scrambler.scramble(index);
  }

  /** All edges, in edge-index order. */
  public void generateEdges(EdgeConsumer out) {
    generateEdges(0, options.edges, out);
  }

  /** Edges {@code fromEdge..toEdge-1}; the same index always gives the same edge. */
  public void generateEdges(long fromEdge, long toEdge, EdgeConsumer out) {
    if (fromEdge < 0 || toEdge > options.edges || fromEdge > toEdge) {
      throw new IllegalArgumentException("edge range [" + fromEdge + ", " + toEdge + ") outside [0, "
          + options.edges + ")");
    }
    long n = options.nodes;
    boolean selfLoops = options.selfLoops;
    SplitMix64 rng = new SplitMix64(0);
    for (long e = fromEdge; e < toEdge; e++) {
      rng.reseed(SplitMix64.itemSeed(options.seed, EDGE_SALT, e));
      for (int attempt = 0; ; attempt++) {
        long src = 0;
        long dst = 0;
        long bits = 0;
        for (int l = 0; l < levels; l++) {
          // Two levels per 64-bit draw: 32 bits of resolution is ample for the quadrant probabilities.
          long r;
          if ((l & 1) == 0) {
            bits = rng.nextLong();
            r = bits >>> 32;
          } else {
            r = bits & 0xFFFFFFFFL;
          }
          // Branch-free quadrant choice (the branches would mispredict ~half the time): geX is 1 when r >= X.
          long geA = (thresholdA[l] - 1 - r) >>> 63;
          long geAB = (thresholdAB[l] - 1 - r) >>> 63;
          long geABC = (thresholdABC[l] - 1 - r) >>> 63;
          src = (src << 1) | geAB;
          dst = (dst << 1) | (geA - geAB + geABC);
        }
        if (src < n && dst < n && (selfLoops || src != dst)) {
          out.edge(nodeId(src), nodeId(dst));
          break;
        }
        if (attempt >= MAX_REDRAWS) {
          throw new IllegalStateException("R-MAT edge " + e + " redrawn " + MAX_REDRAWS + " times; nodes "
              + n + " is too far below 2^" + levels + " for these probabilities");
        }
      }
    }
  }

  /**
   * Nodes {@code fromIndex..toIndex-1} with {@link RandomFeatures} of {@code featureWidth} (label -1, split
   * "none"); the features array passed to {@code out} is reused.
   */
  public void generateNodes(long fromIndex, long toIndex, int featureWidth, NodeConsumer out) {
    if (fromIndex < 0 || toIndex > options.nodes || fromIndex > toIndex) {
      throw new IllegalArgumentException("node range [" + fromIndex + ", " + toIndex + ") outside [0, "
          + options.nodes + ")");
    }
    RandomFeatures features = new RandomFeatures(featureWidth, options.seed);
    float[] row = new float[featureWidth];
    for (long i = fromIndex; i < toIndex; i++) {
      features.fill(i, row);
      out.node(nodeId(i), -1, "none", row);
    }
  }

  /** Start of chunk {@code chunk} of {@code chunks} near-equal ranges of {@code total} items. */
  public static long chunkStart(long total, int chunk, int chunks) {
    // floor(total * chunk / chunks) without overflowing total * chunk.
    return total / chunks * chunk + total % chunks * chunk / chunks;
  }

  /** Immutable R-MAT options; see {@link #builder()}. */
  public static final class Options {
    final long nodes;
    final long edges;
    final double a;
    final double b;
    final double c;
    final double noise;
    final long seed;
    final boolean scrambleIds;
    final boolean selfLoops;

    private Options(Builder bld) {
      this.nodes = bld.nodes;
      this.edges = bld.edges < 0 ? 16 * bld.nodes : bld.edges;
      this.a = bld.a;
      this.b = bld.b;
      this.c = bld.c;
      this.noise = bld.noise;
      this.seed = bld.seed;
      this.scrambleIds = bld.scrambleIds;
      this.selfLoops = bld.selfLoops;
    }

    public long nodes() {
      return nodes;
    }

    public long edges() {
      return edges;
    }

    public double a() {
      return a;
    }

    public double b() {
      return b;
    }

    public double c() {
      return c;
    }

    public double d() {
      return 1 - a - b - c;
    }

    public double noise() {
      return noise;
    }

    public long seed() {
      return seed;
    }

    public boolean scrambleIds() {
      return scrambleIds;
    }

    public boolean selfLoops() {
      return selfLoops;
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Defaults: 2^16 nodes, 16 edges per node, a,b,c,d = 0.57, 0.19, 0.19, 0.05 (Graph500), no noise, seed 1,
   * dense ids, self-loops kept.
   */
  public static final class Builder {
    private long nodes = 1L << 16;
    private long edges = -1;
    private double a = 0.57;
    private double b = 0.19;
    private double c = 0.19;
    private double noise;
    private long seed = 1;
    private boolean scrambleIds;
    private boolean selfLoops = true;

    /** 2^scale nodes. */
    public Builder scale(int scale) {
      if (scale < 1 || scale > 62) {
        throw new IllegalArgumentException("scale must be in 1..62, got " + scale);
      }
      this.nodes = 1L << scale;
      return this;
    }

    /** Any node count >= 2; indexes above it are redrawn. */
    public Builder nodes(long nodes) {
      this.nodes = nodes;
      return this;
    }

    /** Edge count; unset (or negative) means 16 per node. */
    public Builder edges(long edges) {
      this.edges = edges;
      return this;
    }

    /** Quadrant probabilities; d = 1 - a - b - c. */
    public Builder probabilities(double a, double b, double c) {
      this.a = a;
      this.b = b;
      this.c = c;
      return this;
    }

    /** Per-level noise amplitude, 0 (none) up to min(b, c, (a+d)/2); 0.1 is a common choice. */
    public Builder noise(double noise) {
      this.noise = noise;
      return this;
    }

    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    public Builder scrambleIds(boolean scrambleIds) {
      this.scrambleIds = scrambleIds;
      return this;
    }

    public Builder selfLoops(boolean selfLoops) {
      this.selfLoops = selfLoops;
      return this;
    }

    public Options build() {
      if (nodes < 2 || nodes > (1L << 62)) {
        throw new IllegalArgumentException("R-MAT needs 2..2^62 nodes, got " + nodes);
      }
      double d = 1 - a - b - c;
      if (!(a >= 0 && b >= 0 && c >= 0 && d >= -1e-9)) {
        throw new IllegalArgumentException("R-MAT probabilities must be >= 0 and a+b+c <= 1, got a=" + a + " b="
            + b + " c=" + c);
      }
      double maxNoise = Math.min(Math.min(b, c), (a + Math.max(d, 0)) / 2);
      if (!(noise >= 0 && noise <= maxNoise)) {
        throw new IllegalArgumentException("R-MAT noise must be in [0, " + maxNoise + "], got " + noise);
      }
      return new Options(this);
    }
  }
}
