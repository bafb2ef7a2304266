package org.yarngnn.compute.synth;

/**
 * A labelled stochastic block model with class-correlated features, for demos and training tests where a GNN
 * should beat a features-only classifier.
 *
 * <p>Node index i has class {@code i % classes} (so any range of indexes holds every class evenly). Each
 * unordered pair of nodes is an edge with probability pIn (same class) or pOut (different classes), drawn
 * with geometric skips (Batagelj and Brandes 2005), so generation costs O(nodes * classes + edges). The pair
 * {u < v} is decided by row u, whose stream depends only on the seed and u: any range of rows can be generated
 * on its own. An edge is emitted once as (u, v), or both ways with {@code bothDirections}.
 *
 * <p>Features: class c has a centroid whose entries are N(0, featureSignal^2); a node's features are its
 * centroid plus N(0, featureNoise^2) per entry. Splits are drawn per node with the given fractions; the rest
 * is "none".
 */
public final class SbmGenerator {
  private static final long ROW_SALT = 0x5B3EL;
  private static final long NODE_SALT = 0x5B3FL;
  private static final long CENTROID_SALT = 0x5B40L;

  private final Options options;
  private final double pIn;
  private final double pOut;
  private final float[][] centroids;
  private final IdScrambler scrambler;

  public SbmGenerator(Options options) {
    this.options = options;
    long n = options.nodes;
    int k = options.classes;
    if (options.pIn >= 0) {
      pIn = options.pIn;
      pOut = options.pOut;
    } else {
      double withinPairs = 0;
      for (int c = 0; c < k; c++) {
        double size = classSize(c);
        withinPairs += size * (size - 1) / 2;
      }
      double betweenPairs = (double) n * (n - 1) / 2 - withinPairs;
      double edges = n * options.averageDegree / 2;
      pIn = withinPairs == 0 ? 0 : options.homophily * edges / withinPairs;
      pOut = betweenPairs == 0 ? 0 : (1 - options.homophily) * edges / betweenPairs;
      if (pIn > 1 || pOut > 1) {
        throw new IllegalArgumentException("SBM average degree " + options.averageDegree + " with homophily "
            + options.homophily + " needs p_in " + pIn + ", p_out " + pOut + " (> 1): too dense for "
            + n + " nodes in " + k + " classes");
      }
    }
    centroids = new float[k][options.featureWidth];
    for (int c = 0; c < k; c++) {
      SplitMix64 rng = SplitMix64.forItem(options.seed, CENTROID_SALT, c);
      for (int j = 0; j < options.featureWidth; j++) {
        centroids[c][j] = (float) (rng.nextGaussian() * options.featureSignal);
      }
    }
    scrambler = options.scrambleIds ? new IdScrambler(options.seed) : null;
  }

  public Options options() {
    return options;
  }

  public long nodeCount() {
    return options.nodes;
  }

  /** Probability of an edge between two nodes of the same class. */
  public double pIn() {
    return pIn;
  }

  /** Probability of an edge between two nodes of different classes. */
  public double pOut() {
    return pOut;
  }

  /** The class of node index {@code index}. */
  public int classOf(long index) {
    return (int) (index % options.classes);
  }

  /** Nodes of class {@code c}. */
  public long classSize(int c) {
    long n = options.nodes;
    int k = options.classes;
    return n / k + (c < n % k ? 1 : 0);
  }

  /** A copy of class {@code c}'s feature centroid. */
  public float[] centroid(int c) {
    return centroids[c].clone();
  }

  /** The id of node index {@code index}: the index itself unless ids are scrambled. */
  public long nodeId(long index) {
    return scrambler == null ? index : scrambler.scramble(index);
  }

  /** All nodes in index order; the features array is reused. */
  public void generateNodes(NodeConsumer out) {
    generateNodes(0, options.nodes, out);
  }

  /** Nodes {@code fromIndex..toIndex-1}; the features array passed to {@code out} is reused. */
  public void generateNodes(long fromIndex, long toIndex, NodeConsumer out) {
    checkRange(fromIndex, toIndex);
    float[] row = new float[options.featureWidth];
    SplitMix64 rng = new SplitMix64(0);
    double trainEnd = options.train;
    double valEnd = trainEnd + options.val;
    double testEnd = valEnd + options.test;
    for (long i = fromIndex; i < toIndex; i++) {
      rng.reseed(SplitMix64.itemSeed(options.seed, NODE_SALT, i));
      double u = rng.nextDouble();
      String split = u < trainEnd ? "train" : u < valEnd ? "val" : u < testEnd ? "test" : "none";
      int label = classOf(i);
      float[] centroid = centroids[label];
      for (int j = 0; j < row.length; j++) {
        row[j] = centroid[j] + (float) (rng.nextGaussian() * options.featureNoise);
      }
      out.node(nodeId(i), label, split, row);
    }
  }

  /** All edges. */
  public void generateEdges(EdgeConsumer out) {
    generateEdges(0, options.nodes, out);
  }

  /**
   * The edges decided by rows {@code fromRow..toRow-1}: pairs (u, v) with u in the range and v > u. Rows
   * near 0 have the most candidates; {@link #rowChunkStart} splits the rows into chunks of similar work.
   */
  public void generateEdges(long fromRow, long toRow, EdgeConsumer out) {
    checkRange(fromRow, toRow);
    long n = options.nodes;
    int k = options.classes;
    double logQIn = Math.log1p(-pIn);
    double logQOut = Math.log1p(-pOut);
    boolean both = options.bothDirections;
    SplitMix64 rng = new SplitMix64(0);
    for (long u = fromRow; u < toRow; u++) {
      rng.reseed(SplitMix64.itemSeed(options.seed, ROW_SALT, u));
      long uid = nodeId(u);
      int cu = classOf(u);
      for (int c = 0; c < k; c++) {
        double p = c == cu ? pIn : pOut;
        if (p <= 0) {
          continue;
        }
        double logQ = c == cu ? logQIn : logQOut;
        // Candidates of class c after u: first, first + k, first + 2k, ... below n.
        long first = u + 1 + Math.floorMod(c - (u + 1), (long) k);
        if (first >= n) {
          continue;
        }
        long count = (n - 1 - first) / k + 1;
        long pos = skip(rng, p, logQ);
        while (pos < count) {
          long v = first + pos * k;
          long vid = nodeId(v);
          out.edge(uid, vid);
          if (both) {
            out.edge(vid, uid);
          }
          pos += 1 + skip(rng, p, logQ);
        }
      }
    }
  }

  /** Candidates passed over before the next edge: geometric with success probability p. */
  private static long skip(SplitMix64 rng, double p, double logQ) {
    if (p >= 1) {
      return 0;
    }
    double s = Math.floor(Math.log(rng.nextDoubleOpenZero()) / logQ);
    return s >= Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 4 : (long) s;
  }

  /**
   * Start row of chunk {@code chunk} of {@code chunks}, chosen so that the chunks have about equal numbers of
   * candidate pairs (row u has n-1-u): rows up to u cover 1 - ((n-u)/n)^2 of them.
   */
  public long rowChunkStart(int chunk, int chunks) {
    if (chunk <= 0) {
      return 0;
    }
    if (chunk >= chunks) {
      return options.nodes;
    }
    long n = options.nodes;
    return Math.min(n, (long) Math.floor(n * (1 - Math.sqrt(1 - (double) chunk / chunks))));
  }

  private void checkRange(long from, long to) {
    if (from < 0 || to > options.nodes || from > to) {
      throw new IllegalArgumentException("node range [" + from + ", " + to + ") outside [0, " + options.nodes
          + ")");
    }
  }

  /** Immutable SBM options; see {@link #builder()}. */
  public static final class Options {
    final long nodes;
    final int classes;
    final double pIn;
    final double pOut;
    final double averageDegree;
    final double homophily;
    final int featureWidth;
    final double featureSignal;
    final double featureNoise;
    final double train;
    final double val;
    final double test;
    final long seed;
    final boolean scrambleIds;
    final boolean bothDirections;

    private Options(Builder b) {
      nodes = b.nodes;
      classes = b.classes;
      pIn = b.pIn;
      pOut = b.pOut;
      averageDegree = b.averageDegree;
      homophily = b.homophily;
      featureWidth = b.featureWidth;
      featureSignal = b.featureSignal;
      featureNoise = b.featureNoise;
      train = b.train;
      val = b.val;
      test = b.test;
      seed = b.seed;
      scrambleIds = b.scrambleIds;
      bothDirections = b.bothDirections;
    }

    public long nodes() {
      return nodes;
    }

    public int classes() {
      return classes;
    }

    public int featureWidth() {
      return featureWidth;
    }

    public long seed() {
      return seed;
    }

    public boolean scrambleIds() {
      return scrambleIds;
    }

    public boolean bothDirections() {
      return bothDirections;
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Defaults: 10,000 nodes, 8 classes, average degree 10 with 80% of edges inside a class, 32 features with
   * centroid scale 0.3 and noise 1 (features alone classify far above chance but well below perfect, so the
   * graph helps), splits 0.6/0.2/0.2, seed 1, dense ids, each edge emitted once.
   */
  public static final class Builder {
    private long nodes = 10_000;
    private int classes = 8;
    private double pIn = -1;
    private double pOut = -1;
    private double averageDegree = 10;
    private double homophily = 0.8;
    private int featureWidth = 32;
    private double featureSignal = 0.3;
    private double featureNoise = 1.0;
    private double train = 0.6;
    private double val = 0.2;
    private double test = 0.2;
    private long seed = 1;
    private boolean scrambleIds;
    private boolean bothDirections;

    public Builder nodes(long nodes) {
      this.nodes = nodes;
      return this;
    }

    public Builder classes(int classes) {
      this.classes = classes;
      return this;
    }

    /** Explicit edge probabilities (instead of average degree and homophily). */
    public Builder probabilities(double pIn, double pOut) {
      this.pIn = pIn;
      this.pOut = pOut;
      return this;
    }

    /** Expected neighbours per node, {@code homophily} of them in the node's own class. */
    public Builder averageDegree(double averageDegree, double homophily) {
      this.averageDegree = averageDegree;
      this.homophily = homophily;
      this.pIn = -1;
      this.pOut = -1;
      return this;
    }

    public Builder featureWidth(int featureWidth) {
      this.featureWidth = featureWidth;
      return this;
    }

    /** Standard deviation of the class centroids' entries and of the per-node noise. */
    public Builder featureSignalAndNoise(double signal, double noise) {
      this.featureSignal = signal;
      this.featureNoise = noise;
      return this;
    }

    public Builder splits(double train, double val, double test) {
      this.train = train;
      this.val = val;
      this.test = test;
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

    /** Emit each edge as (u, v) and (v, u), so in-edge aggregation sees both endpoints. */
    public Builder bothDirections(boolean bothDirections) {
      this.bothDirections = bothDirections;
      return this;
    }

    public Options build() {
      if (nodes < 1) {
        throw new IllegalArgumentException("SBM needs at least one node, got " + nodes);
      }
      if (classes < 1 || classes > nodes) {
        throw new IllegalArgumentException("SBM classes must be in 1..nodes, got " + classes);
      }
      if (pIn >= 0 || pOut >= 0) {
        if (!(pIn >= 0 && pIn <= 1 && pOut >= 0 && pOut <= 1)) {
          throw new IllegalArgumentException("SBM p_in and p_out must be in [0, 1], got " + pIn + ", " + pOut);
        }
      } else if (!(averageDegree >= 0 && homophily >= 0 && homophily <= 1)) {
        throw new IllegalArgumentException("SBM average degree must be >= 0 and homophily in [0, 1], got "
            + averageDegree + ", " + homophily);
      }
      if (featureWidth < 1) {
        throw new IllegalArgumentException("SBM feature width must be positive, got " + featureWidth);
      }
      if (!(featureSignal >= 0 && featureNoise >= 0)) {
        throw new IllegalArgumentException("SBM feature signal and noise must be >= 0");
      }
      if (!(train >= 0 && val >= 0 && test >= 0 && train + val + test <= 1 + 1e-9)) {
        throw new IllegalArgumentException("SBM split fractions must be >= 0 and sum to at most 1, got "
            + train + ", " + val + ", " + test);
      }
      return new Options(this);
    }
  }
}
