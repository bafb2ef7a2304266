package org.yarngnn.app.graphworker;

import static java.util.Map.entry;

import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.options.Option;
import org.yarngnn.app.options.OptionValues;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;

/**
 * The options every graph job shares ({@code infer}, {@code train}): the job's containers (workers, memory,
 * vcores, queue, name), its input (tables or a partitioned graph) and how it is built (construction, threads,
 * exchange chunks, ownership, edge reading), the round timeout, the output, and the fields the client fills in for
 * the containers (the output commit's work directory, the layer count). One declaration set: each command adds
 * its own options beside it ({@code InferOptions}, {@code TrainOptions}), none removes any. Immutable; checked
 * once, in {@link Builder#build()}; shipped to the ApplicationMaster and the workers in job.xml ({@link #write},
 * {@link #read}).
 */
public final class GraphJobOptions {
  /** Workers as threads of one JVM: each has its own sockets, event loops and buffers. */
  static final int MAX_LOCAL_WORKERS = 64;
  /** Containers of one job; more than any cluster this runs on gives a graph job. */
  static final int MAX_WORKERS = 10_000;
  private static final long INT = Integer.MAX_VALUE;

  // ---- the options of every YARN job command ----------------------------------------------------------------

  public static final Option<Boolean> LOCAL = Option.flag("local",
      "run in this JVM (workers as threads); the default when no cluster configuration is found");
  public static final Option<Long> WORKERS = Option.whole("workers", "N", null, 1, INT,
      "graph workers (default 1 locally)");
  public static final Option<Long> WORKER_MEMORY = Option.whole("worker-memory", "MB", 1024L, 128, INT,
      "memory per worker container (default {default})");
  public static final Option<Long> WORKER_VCORES = Option.whole("worker-vcores", "N", 1L, 1, INT,
      "vcores per worker container (default {default})");
  public static final Option<String> QUEUE = Option.text("queue", "Q", "default", "YARN queue (default {default})");
  public static final Option<String> NAME = Option.text("name", "NAME", null, "YARN application name");
  public static final Option<Boolean> OVERWRITE = Option.flag("overwrite", "replace an existing output directory");
  public static final Option<TableFormat> OUTPUT_FORMAT = Option.of("output-format", "parquet|orc",
      TableFormat.PARQUET, v -> {
        TableFormat f = format("output-format", v);
        if (f != TableFormat.PARQUET && f != TableFormat.ORC) {
          throw new UsageException("--output-format must be parquet or orc");
        }
        return f;
      }, TableFormat::extension, "output table format (default {default})");
  public static final Option<Long> SEED = Option.whole("seed", "S", 0L, Long.MIN_VALUE, Long.MAX_VALUE,
      "seed of the neighbour sampler (default {default})");
  public static final Option<Boolean> VERBOSE = Option.flag("verbose", "print stack traces and debug output");
  /** What {@code topk} shares with the graph jobs. */
  public static final List<Option<?>> JOB = List.of(LOCAL, WORKERS, WORKER_MEMORY, WORKER_VCORES, QUEUE, NAME,
      OVERWRITE, OUTPUT_FORMAT, SEED);

  // ---- the graph ---------------------------------------------------------------------------------------------

  public static final Option<String> EDGES = Option.text("edges", "PATH", null,
      "edges table: a file or directory (Parquet, ORC, TSV, CSV, optionally .gz)");
  public static final Option<Boolean> DRY_RUN = Option.flag("dry-run",
      "check the tables and the model, print the plan, run nothing, write nothing");
  public static final Option<String> METRICS = Option.text("metrics", "FILE", null, "also write a JSON summary of "
      + "the run (phase seconds, bytes exchanged, per-worker peaks, partitions) to FILE, on any FileSystem");
  public static final Option<String> GRAPH = Option.text("graph", "DIR", null,
      "a partitioned graph written by partition, instead of --edges and --nodes");
  public static final Option<String> NODES = Option.text("nodes", "PATH", null,
      "nodes table: id, features[, label, split]");
  public static final Option<TableFormat> EDGES_FORMAT = tableFormat("edges-format",
      "parquet|orc|tsv|csv when the file names do not say");
  public static final Option<TableFormat> NODES_FORMAT = tableFormat("nodes-format",
      "parquet|orc|tsv|csv when the file names do not say");
  public static final Option<Boolean> UNDIRECTED = Option.flag("undirected", "add the reverse of every edge");
  public static final Option<MissingFeatures> MISSING_FEATURES = Option.choice("missing-features", "error|zero",
      MissingFeatures.ERROR, "an edge endpoint without a node row: refuse (default) or zero features",
      entry("error", MissingFeatures.ERROR), entry("zero", MissingFeatures.ZERO));
  public static final Option<Long> THREADS = Option.whole("threads", "N", null, 1, INT, "threads per worker for "
      + "reading, routing and writing (default: the cores a worker has: its --worker-vcores on YARN, an equal share "
      + "of this machine's with --local)");
  public static final Option<Long> CHUNK_ROWS = Option.whole("chunk-rows", "N", 16384L, 1, INT,
      "rows per exchanged chunk (default {default})");
  /** By default an hour: generous, since a layer over a billion-edge partition takes minutes. */
  public static final Option<Long> ROUND_TIMEOUT = Option.whole("round-timeout", "SECONDS",
      3600L, Long.MIN_VALUE, Long.MAX_VALUE, "time limit of one phase on all workers; past "
      + "it the job fails naming the workers that did not finish (default {default})")
      .checked(v -> v < 1 ? "option --round-timeout must be at least 1 (seconds), not " + v : null);
  public static final Option<Ownership.Kind> OWNERSHIP = Option.choice("ownership", "auto|range|hash",
      Ownership.Kind.AUTO, "node owners: ranges when ids are 0..n-1 (auto), or a hash that balances power-law "
      + "graphs whose hubs have low ids", entry("auto", Ownership.Kind.AUTO), entry("range", Ownership.Kind.RANGE),
      entry("hash", Ownership.Kind.HASH));
  public static final Option<EdgeReading> EDGE_READING = Option.choice("edge-reading", "auto|share|all",
      EdgeReading.AUTO, "raw edges: each worker reads a share of the files and routes others' edges to them, or "
      + "reads every file and keeps its own (auto: all up to " + EdgeReading.MAX_READING_ALL + " workers)",
      entry("auto", EdgeReading.AUTO), entry("share", EdgeReading.SHARE), entry("all", EdgeReading.ALL));
  /** At most 1000: more than any job should survive; past it a cluster is broken, not unlucky. */
  public static final Option<Long> MAX_WORKER_FAILURES = Option.whole("max-worker-failures", "N", 3L, 0, 1000,
      "on YARN, lost graph-worker containers replaced in total before the job fails (default {default}); a "
      + "replacement goes on from the job's checkpoints, or from its inputs without any");
  public static final Option<String> OUTPUT = Option.text("output", "DIR", null, "the job's output");

  // ---- what the client fills in for the containers ----------------------------------------------------------

  /** The output commit's work directory, where each worker writes its part files. */
  public static final Option<String> WORK_DIR = Option.text("job.work-dir", null, null, "").internal();
  /** The model's layer count (the driver runs one round per layer without reading the model). */
  public static final Option<Long> LAYERS = Option.whole("job.layers", null, null, 1, INT, "").internal();

  /** Every graph job's options, in the order of the help. */
  public static final List<Option<?>> DECLARED = OptionValues.concat(JOB, List.of(VERBOSE, EDGES, DRY_RUN,
      METRICS, GRAPH, NODES, EDGES_FORMAT, NODES_FORMAT, UNDIRECTED, MISSING_FEATURES, THREADS, CHUNK_ROWS,
      ROUND_TIMEOUT, OWNERSHIP, EDGE_READING, MAX_WORKER_FAILURES, OUTPUT, WORK_DIR, LAYERS));

  private final String command;
  private final OptionValues values;

  private GraphJobOptions(String command, OptionValues values) {
    this.command = command;
    this.values = values;
  }

  private static TableFormat format(String option, String v) {
    try {
      return TableFormat.fromName(v);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + option + ": unknown format '" + v + "' (parquet, orc, tsv, csv)");
    }
  }

  /** A table's format when its file names do not say. */
  public static Option<TableFormat> tableFormat(String name, String help) {
    return Option.of(name, "FORMAT", null, v -> format(name, v), TableFormat::extension, help);
  }

  /** Adds the graph job's options (those with a flag) to {@code spec}, with the command's help of --output. */
  public static OptionSpec declare(OptionSpec spec, String outputHelp) {
    return OptionValues.declare(spec, DECLARED.stream().map(o -> o.equals(OUTPUT) ? OUTPUT.withHelp(outputHelp) : o)
        .toList());
  }

  /** Options of a {@code command} job (its name is the application's default name and the messages'). */
  public static Builder builder(String command) {
    return new Builder(command, OptionValues.builder(DECLARED));
  }

  /** The options {@code cl} gives, unchecked; where the job runs is the caller's to decide. */
  public static Builder read(String command, CommandLine cl) {
    return new Builder(command, OptionValues.read(DECLARED, cl));
  }

  public Builder toBuilder() {
    return new Builder(command, values.toBuilder());
  }

  /** Every option under its key {@code yarngnn.NAME}, the client's fields under {@code yarngnn.job.*}. */
  public void write(Configuration c) {
    values.write(c);
  }

  /** The tables, graph, output and work directory the job reads or writes (its model aside); absent ones null. */
  public String[] accessedPaths() {
    return new String[] {edges(), nodes(), graph(), output(), workDir(), metrics()};
  }

  /** The command whose job this is ({@code infer}, {@code train}). */
  public String command() {
    return command;
  }

  // ---- accessors ---------------------------------------------------------------------------------------------

  /** Edges table (null with {@link #graph()}). */
  public String edges() {
    return values.get(EDGES);
  }

  /** Nodes table (null with {@link #graph()}). */
  public String nodes() {
    return values.get(NODES);
  }

  /** The edges' format when the file names do not say, or null. */
  public TableFormat edgesFormat() {
    return values.get(EDGES_FORMAT);
  }

  public TableFormat nodesFormat() {
    return values.get(NODES_FORMAT);
  }

  /** A pre-partitioned graph directory written by {@code partition}, or null. */
  public String graph() {
    return values.get(GRAPH);
  }

  public String output() {
    return values.get(OUTPUT);
  }

  public TableFormat outputFormat() {
    return values.get(OUTPUT_FORMAT);
  }

  /** {@code --metrics FILE}: where the run's JSON summary goes (any FileSystem), or null. */
  public String metrics() {
    return values.get(METRICS);
  }

  public boolean undirected() {
    return values.get(UNDIRECTED);
  }

  public MissingFeatures missingFeatures() {
    return values.get(MISSING_FEATURES);
  }

  public boolean overwrite() {
    return values.get(OVERWRITE);
  }

  /** Seed of the neighbour sampler. */
  public long seed() {
    return values.get(SEED);
  }

  /**
   * Threads per worker for reading, routing and writing: {@code --threads}, else the cores the worker has,
   * resolved where it runs: a container's vcores (the client's cores say nothing about a container's), or with
   * {@code --local} an equal share of this JVM's cores, since its workers share them (on 2 cores, 2 workers with
   * one thread each were no slower than with two each: 12 interleaved pairs of 1M-node gcn jobs, three sets'
   * medians 11.0 against 13.4 s, 11.4 against 12.0 s, 15.2 against 14.5 s).
   */
  public int threads() {
    Long given = values.get(THREADS);
    if (given != null) {
      return given.intValue();
    }
    return local() ? Math.max(1, Runtime.getRuntime().availableProcessors() / Math.max(1, workers()))
        : Math.max(1, workerVcores());
  }

  /** Graph workers; 0 when not given (the command then picks: the graph's partitions, 1 locally, 2 on YARN). */
  public int workers() {
    Long w = values.get(WORKERS);
    return w == null ? 0 : w.intValue();
  }

  public int workerMemoryMb() {
    return values.get(WORKER_MEMORY).intValue();
  }

  public int workerVcores() {
    return values.get(WORKER_VCORES).intValue();
  }

  public String queue() {
    return values.get(QUEUE);
  }

  /** The YARN application name. */
  public String name() {
    return values.get(NAME);
  }

  /** Rows per halo chunk. */
  public int chunkRows() {
    return values.get(CHUNK_ROWS).intValue();
  }

  /** Time limit of one phase (a barrier round) across all workers, in seconds. */
  public long roundTimeoutSeconds() {
    return values.get(ROUND_TIMEOUT);
  }

  /** auto, range or hash (see {@link Ownership.Kind}). */
  public String ownership() {
    return ownershipKind().name().toLowerCase(Locale.ROOT);
  }

  public Ownership.Kind ownershipKind() {
    return values.get(OWNERSHIP);
  }

  /** {@code --edge-reading} as given (auto, share or all). */
  public EdgeReading edgeReading() {
    return values.get(EDGE_READING);
  }

  /** How a job of {@code workers} graph workers reads a raw edge table: SHARE or ALL. */
  public EdgeReading edgeReadingKind(int workers) {
    return edgeReading().resolve(workers);
  }

  /** Lost graph workers a job on YARN replaces in total. */
  public int maxWorkerFailures() {
    return values.get(MAX_WORKER_FAILURES).intValue();
  }

  /** The job runs in this JVM (workers as threads) rather than on YARN. */
  public boolean local() {
    return values.get(LOCAL);
  }

  public boolean verbose() {
    return values.get(VERBOSE);
  }

  /** The output commit's work directory: each worker writes its part files there; null before the commit began. */
  public String workDir() {
    return values.get(WORK_DIR);
  }

  /** The model's layer count, filled in by the client once it read the model; 0 before. */
  public int layers() {
    Long l = values.get(LAYERS);
    return l == null ? 0 : l.intValue();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GraphJobOptions other && command.equals(other.command) && values.equals(other.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  /** Builds {@link GraphJobOptions}; {@link #build()} checks every value and throws {@link UsageException}. */
  public static final class Builder {
    private final String command;
    private final OptionValues.Builder values;

    private Builder(String command, OptionValues.Builder values) {
      this.command = command;
      this.values = values;
    }

    /** Sets any of {@link #DECLARED}; null: its default. */
    public <T> Builder set(Option<T> option, T value) {
      values.set(option, value);
      return this;
    }

    /** Sets a whole-number option from an int or a long. */
    public Builder set(Option<Long> option, long value) {
      return set(option, Long.valueOf(value));
    }

    public <T> T get(Option<T> option) {
      return values.get(option);
    }

    /** Checks every value; the message of the {@link UsageException} names the option. */
    public GraphJobOptions build() {
      if (values.get(NAME) == null) {
        values.set(NAME, "yarn-gnn " + command);
      }
      OptionValues v = values.build();
      if (v.get(GRAPH) != null && (v.get(EDGES) != null || v.get(NODES) != null)) {
        throw new UsageException("--graph replaces --edges and --nodes: give one or the other");
      }
      if (v.get(GRAPH) == null) {
        require(EDGES, v.get(EDGES));
        require(NODES, v.get(NODES));
      }
      GraphJobOptions o = new GraphJobOptions(command, v);
      int most = o.local() ? MAX_LOCAL_WORKERS : MAX_WORKERS;
      if (o.workers() > most) {
        throw new UsageException("option --workers must be at most " + most + (o.local()
            ? " with --local (every worker is a set of threads and sockets in this JVM)" : "") + ", not " + o.workers());
      }
      return o;
    }

    /** Refuses a job without {@code option}: "infer needs --nodes". */
    public void require(Option<?> option, Object v) {
      if (v == null || v.toString().isEmpty()) {
        throw new UsageException(command + " needs --" + option.name());
      }
    }
  }
}
