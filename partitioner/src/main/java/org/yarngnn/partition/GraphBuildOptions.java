package org.yarngnn.partition;

/** Immutable options of graph construction; see {@link #builder()}. */
public final class GraphBuildOptions {
  private final boolean undirected;
  private final MissingFeatures missingFeatures;
  private final int threads;
  private final Ownership.Kind ownership;

  private GraphBuildOptions(Builder b) {
    this.ownership = b.ownership;
    this.undirected = b.undirected;
    this.missingFeatures = b.missingFeatures;
    this.threads = b.threads;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Adds the reverse of every edge that is not a self-loop. */
  public boolean undirected() {
    return undirected;
  }

  public MissingFeatures missingFeatures() {
    return missingFeatures;
  }

  /** Threads reading edge files in parallel. */
  public int threads() {
    return threads;
  }

  /** How node owners are chosen when building several partitions. */
  public Ownership.Kind ownership() {
    return ownership;
  }

  public static final class Builder {
    private Ownership.Kind ownership = Ownership.Kind.AUTO;

    public Builder ownership(Ownership.Kind v) {
      ownership = java.util.Objects.requireNonNull(v);
      return this;
    }

    private boolean undirected;
    private MissingFeatures missingFeatures = MissingFeatures.ERROR;
    private int threads = Runtime.getRuntime().availableProcessors();

    public Builder undirected(boolean v) {
      undirected = v;
      return this;
    }

    public Builder missingFeatures(MissingFeatures v) {
      missingFeatures = v;
      return this;
    }

    public Builder threads(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("threads must be >= 1");
      }
      threads = v;
      return this;
    }

    public GraphBuildOptions build() {
      return new GraphBuildOptions(this);
    }
  }
}
