package org.yarngnn.partition.mr;

import java.util.Objects;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;

/**
 * Immutable options of the {@code partition} command; see {@link #builder()}.
 *
 * @param partitions P: the number of partitions (and reduce tasks)
 * @param local run with Hadoop's local job runner in this JVM instead of submitting to YARN
 * @param queue YARN queue, or null for the cluster's default
 * @param name job name, or null for "yarn-gnn partition"
 * @param verbose print MapReduce progress while waiting
 */
public record PartitionJobOptions(Path edges, Path nodes, Path output, int partitions, Ownership.Kind ownership,
    boolean undirected, MissingFeatures missingFeatures, boolean overwrite, boolean local,
    TableReadOptions edgeOptions, TableReadOptions nodeOptions, String queue, String name, boolean verbose) {
  /** Reduce tasks and later graph workers: more than any cluster gives one graph job. */
  public static final int MAX_PARTITIONS = 10_000;

  public PartitionJobOptions {
    Objects.requireNonNull(edges, "--edges is required");
    Objects.requireNonNull(nodes, "--nodes is required");
    Objects.requireNonNull(output, "--output is required");
  }

  public static Builder builder() {
    return new Builder();
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
      return new PartitionJobOptions(edges, nodes, output, partitions, ownership, undirected, missingFeatures,
          overwrite, local, edgeOptions, nodeOptions, queue, name, verbose);
    }
  }
}
