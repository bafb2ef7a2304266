package org.yarngnn.partition.mr;

import java.util.Objects;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;

/** Immutable options of the {@code partition} command; see {@link #builder()}. */
public final class PartitionJobOptions {
  private final Path edges;
  private final Path nodes;
  private final Path output;
  /** Reduce tasks and later graph workers: more than any cluster gives one graph job. */
  public static final int MAX_PARTITIONS = 10_000;

  private final int partitions;
  private final Ownership.Kind ownership;
  private final boolean undirected;
  private final MissingFeatures missingFeatures;
  private final boolean overwrite;
  private final boolean local;
  private final TableReadOptions edgeOptions;
  private final TableReadOptions nodeOptions;
  private final String queue;
  private final String name;
  private final boolean verbose;

  private PartitionJobOptions(Builder b) {
    this.edges = Objects.requireNonNull(b.edges, "--edges is required");
    this.nodes = Objects.requireNonNull(b.nodes, "--nodes is required");
    this.output = Objects.requireNonNull(b.output, "--output is required");
    this.partitions = b.partitions;
    this.ownership = b.ownership;
    this.undirected = b.undirected;
    this.missingFeatures = b.missingFeatures;
    this.overwrite = b.overwrite;
    this.local = b.local;
    this.edgeOptions = b.edgeOptions;
    this.nodeOptions = b.nodeOptions;
    this.queue = b.queue;
    this.name = b.name;
    this.verbose = b.verbose;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Path edges() {
    return edges;
  }

  public Path nodes() {
    return nodes;
  }

  public Path output() {
    return output;
  }

  /** P: the number of partitions (and reduce tasks). */
  public int partitions() {
    return partitions;
  }

  public Ownership.Kind ownership() {
    return ownership;
  }

  public boolean undirected() {
    return undirected;
  }

  public MissingFeatures missingFeatures() {
    return missingFeatures;
  }

  public boolean overwrite() {
    return overwrite;
  }

  /** Run with Hadoop's local job runner in this JVM instead of submitting to YARN. */
  public boolean local() {
    return local;
  }

  public TableReadOptions edgeOptions() {
    return edgeOptions;
  }

  public TableReadOptions nodeOptions() {
    return nodeOptions;
  }

  /** YARN queue, or null for the cluster's default. */
  public String queue() {
    return queue;
  }

  /** Job name, or null for "yarn-gnn partition". */
  public String name() {
    return name;
  }

  /** Print MapReduce progress while waiting. */
  public boolean verbose() {
    return verbose;
  }

  public static final class Builder {
    private Path edges;
    private Path nodes;
    private Path output;
    private int partitions = 1;
    private Ownership.Kind ownership = Ownership.Kind.AUTO;
    private boolean undirected;
    private MissingFeatures missingFeatures = MissingFeatures.ERROR;
    private boolean overwrite;
    private boolean local;
    private TableReadOptions edgeOptions = TableReadOptions.defaults();
    private TableReadOptions nodeOptions = TableReadOptions.defaults();
    private String queue;
    private String name;
    private boolean verbose;

    public Builder edges(Path v) {
      edges = v;
      return this;
    }

    public Builder nodes(Path v) {
      nodes = v;
      return this;
    }

    public Builder output(Path v) {
      output = v;
      return this;
    }

    public Builder partitions(int v) {
      if (v < 1 || v > MAX_PARTITIONS) {
        throw new IllegalArgumentException("--partitions must be from 1 to " + MAX_PARTITIONS + ", not " + v);
      }
      partitions = v;
      return this;
    }

    public Builder ownership(Ownership.Kind v) {
      ownership = Objects.requireNonNull(v);
      return this;
    }

    public Builder undirected(boolean v) {
      undirected = v;
      return this;
    }

    public Builder missingFeatures(MissingFeatures v) {
      missingFeatures = Objects.requireNonNull(v);
      return this;
    }

    public Builder overwrite(boolean v) {
      overwrite = v;
      return this;
    }

    public Builder local(boolean v) {
      local = v;
      return this;
    }

    public Builder edgeOptions(TableReadOptions v) {
      edgeOptions = Objects.requireNonNull(v);
      return this;
    }

    public Builder nodeOptions(TableReadOptions v) {
      nodeOptions = Objects.requireNonNull(v);
      return this;
    }

    public Builder queue(String v) {
      queue = v;
      return this;
    }

    public Builder name(String v) {
      name = v;
      return this;
    }

    public Builder verbose(boolean v) {
      verbose = v;
      return this;
    }

    public PartitionJobOptions build() {
      return new PartitionJobOptions(this);
    }
  }
}
