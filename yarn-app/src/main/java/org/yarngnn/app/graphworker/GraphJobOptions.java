package org.yarngnn.app.graphworker;

import static java.util.Map.entry;

import java.util.List;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;

/**
 * The options every graph job shares ({@code infer}, {@code train}): the job's containers (workers, memory,
 * vcores, queue, name), its input (tables or a partitioned graph) and how it is built (construction, threads,
 * exchange chunks, ownership, edge reading), the round timeout, the output, and the fields the client fills in for
 * the containers (the output commit's work directory, the layer count). One declaration set: each command adds
 * its own options beside it ({@code InferOptions}, {@code TrainOptions}), none removes any. Immutable; checked
 * once, in {@link Builder#build()}; shipped to the ApplicationMaster and the workers in job.xml
 * ({@link #toConfiguration()}).
 */
public final class GraphJobOptions extends CommandOptions<GraphJobOptions> {
  /** Workers as threads of one JVM: each has its own sockets, event loops and buffers. */
  static final int MAX_LOCAL_WORKERS = 64;
  /** Containers of one job; more than any cluster this runs on gives a graph job. */
  static final int MAX_WORKERS = 10_000;
  private static final long INT = Integer.MAX_VALUE;

  // ---- the options of every YARN job command ----------------------------------------------------------------

  public static final Option<Boolean> LOCAL = Option.flag("local",
      "run in this JVM (workers as threads); the default when no cluster configuration is found");
  /** Not given ({@code getInt}: 0): the command picks (the graph's partitions, 1 locally, 2 on YARN). */
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

  /** The output commit's work directory, where each worker writes its part files; null before the commit began. */
  public static final Option<String> WORK_DIR = Option.text("job.work-dir", null, null, "").internal();
  /**
   * The model's layer count (the driver runs one round per layer without reading the model), filled in by the
   * client once it read the model; 0 before.
   */
  public static final Option<Long> LAYERS = Option.whole("job.layers", null, null, 1, INT, "").internal();

  /** Every graph job's options, in the order of the help. */
  public static final List<Option<?>> DECLARED = CommandOptions.concat(JOB, List.of(VERBOSE, EDGES, DRY_RUN,
      METRICS, GRAPH, NODES, EDGES_FORMAT, NODES_FORMAT, UNDIRECTED, MISSING_FEATURES, THREADS, CHUNK_ROWS,
      ROUND_TIMEOUT, OWNERSHIP, EDGE_READING, MAX_WORKER_FAILURES, OUTPUT, WORK_DIR, LAYERS));

  private GraphJobOptions(Builder<GraphJobOptions> b) {
    super(b);
  }

  private GraphJobOptions(CommandOptions<?> of) {
    super(of, GraphJobOptions::finish);
  }

  /** The graph job's part of a command's options ({@code infer}'s, {@code train}'s), as shared code takes it. */
  public static GraphJobOptions of(CommandOptions<?> command) {
    return new GraphJobOptions(command);
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
    return CommandOptions.declare(spec, DECLARED.stream().map(o -> o.equals(OUTPUT) ? OUTPUT.withHelp(outputHelp) : o)
        .toList());
  }

  /** Options of a {@code command} job (its name is the application's default name and the messages'). */
  public static Builder<GraphJobOptions> builder(String command) {
    return new Builder<>(command, DECLARED, GraphJobOptions::finish);
  }

  private static GraphJobOptions finish(Builder<GraphJobOptions> b) {
    check(b);
    return new GraphJobOptions(b);
  }

  /**
   * Checks the graph job's options of {@code b} (a command's builder runs this before its own checks): each by its
   * declaration, then across them; names the application after the command when no --name is given.
   */
  public static void check(Builder<?> b) {
    if (b.get(NAME) == null) {
      b.set(NAME, "yarn-gnn " + b.command());
    }
    b.check(DECLARED);
    if (b.get(GRAPH) != null && (b.get(EDGES) != null || b.get(NODES) != null)) {
      throw new UsageException("--graph replaces --edges and --nodes: give one or the other");
    }
    if (b.get(GRAPH) == null) {
      b.require(EDGES);
      b.require(NODES);
    }
    int most = b.get(LOCAL) ? MAX_LOCAL_WORKERS : MAX_WORKERS;
    if (b.get(WORKERS) != null && b.get(WORKERS) > most) {
      throw new UsageException("option --workers must be at most " + most + (b.get(LOCAL)
          ? " with --local (every worker is a set of threads and sockets in this JVM)" : "") + ", not "
          + b.get(WORKERS));
    }
  }

  /** The tables, graph, output and work directory the job reads or writes (its model aside); absent ones null. */
  public String[] accessedPaths() {
    return new String[] {get(EDGES), get(NODES), get(GRAPH), get(OUTPUT), get(WORK_DIR), get(METRICS)};
  }

  /**
   * Threads per worker for reading, routing and writing: {@code --threads}, else the cores the worker has,
   * resolved where it runs: a container's vcores (the client's cores say nothing about a container's), or with
   * {@code --local} an equal share of this JVM's cores, since its workers share them (on 2 cores, 2 workers with
   * one thread each were no slower than with two each: 12 interleaved pairs of 1M-node gcn jobs, three sets'
   * medians 11.0 against 13.4 s, 11.4 against 12.0 s, 15.2 against 14.5 s).
   */
  public int threads() {
    if (get(THREADS) != null) {
      return getInt(THREADS);
    }
    return get(LOCAL) ? Math.max(1, Runtime.getRuntime().availableProcessors() / Math.max(1, getInt(WORKERS)))
        : Math.max(1, getInt(WORKER_VCORES));
  }
}
