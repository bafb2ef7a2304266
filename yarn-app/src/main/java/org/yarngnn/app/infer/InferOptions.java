package org.yarngnn.app.infer;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.JobOptions;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;

/**
 * Immutable options of an {@code infer} job: every option of the command (README "infer", CONTRACT.md "Common
 * options") plus what the driver and the workers need besides (the output commit's work directory, the model's
 * layer count). Parsed once, from the command line ({@link #fromCommandLine}); validated once, in
 * {@link Builder#build()}; handed as this object to the local run, and carried to the ApplicationMaster and the
 * graph-worker containers as a Hadoop configuration file ({@link #toConfiguration()}, {@link #fromConfiguration}):
 * each option under its documented key {@code yarngnn.OPTION}, the internal fields under {@code yarngnn.job.*}.
 */
public final class InferOptions {
  /** The prefix of every option's configuration key ({@code -D yarngnn.OPTION=VALUE}). */
  public static final String PREFIX = CommandLine.KEY_PREFIX;
  /** Internal: the output commit's work directory, where each worker writes its part files. */
  public static final String WORK_DIR_KEY = PREFIX + "job.work-dir";
  /** Internal: the model's layer count (the driver runs one round per layer without reading the model). */
  public static final String LAYERS_KEY = PREFIX + "job.layers";
  /** A phase's time limit by default: generous, since a layer over a billion-edge partition takes minutes. */
  public static final long DEFAULT_ROUND_TIMEOUT_SECONDS = 3600;
  /** Workers as threads of one JVM: each has its own sockets, event loops and buffers. */
  static final int MAX_LOCAL_WORKERS = 64;
  /** Containers of one job; more than any cluster this runs on gives a graph job. */
  static final int MAX_WORKERS = 10_000;

  /** How the embeddings are computed. */
  public enum Strategy {
    /** Deal: every layer once for every node, distributed over the graph workers. */
    LAYERWISE,
    /** The mini-batch baseline, in one JVM. */
    NODEWISE;

    static Strategy byName(String v) {
      switch (v) {
        case "layerwise":
          return LAYERWISE;
        case "nodewise":
          return NODEWISE;
        default:
          throw new UsageException("--strategy must be layerwise or nodewise, not '" + v + "'");
      }
    }

    String optionValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final String edges;
  private final String nodes;
  private final TableFormat edgesFormat;
  private final TableFormat nodesFormat;
  private final String graph;
  private final String model;
  private final String output;
  private final TableFormat outputFormat;
  private final String metrics;
  private final boolean undirected;
  private final MissingFeatures missingFeatures;
  private final boolean overwrite;
  private final long seed;
  /** {@code --threads}; 0 when not given. */
  private final int threads;
  private final int workers;
  private final int workerMemoryMb;
  private final int workerVcores;
  private final String queue;
  private final String name;
  private final boolean fusion;
  private final boolean pipelining;
  private final int chunkRows;
  private final long roundTimeoutSeconds;
  private final Strategy strategy;
  private final int batchSize;
  private final Ownership.Kind ownership;
  private final EdgeReading edgeReading;
  private final boolean local;
  private final boolean verbose;
  private final String workDir;
  private final int layers;
  private final RecoveryOptions recovery;
  private final String targets;
  private final TableFormat targetsFormat;

  private InferOptions(Builder b) {
    this.edges = b.edges;
    this.nodes = b.nodes;
    this.edgesFormat = b.edgesFormat;
    this.nodesFormat = b.nodesFormat;
    this.graph = b.graph;
    this.model = b.model;
    this.output = b.output;
    this.outputFormat = b.outputFormat;
    this.metrics = b.metrics;
    this.undirected = b.undirected;
    this.missingFeatures = b.missingFeatures;
    this.overwrite = b.overwrite;
    this.seed = b.seed;
    this.threads = b.threads == null ? 0 : atLeast("threads", b.threads, 1);
    this.workers = b.workers == null ? 0 : atLeast("workers", b.workers, 1);
    this.workerMemoryMb = atLeast("worker-memory", b.workerMemoryMb, 128);
    this.workerVcores = atLeast("worker-vcores", b.workerVcores, 1);
    this.queue = b.queue;
    this.name = b.name;
    this.fusion = b.fusion;
    // auto: overlapping aggregation with the transfer pays where the transfer is a network's time (containers);
    // between --local workers, threads of one JVM, it is copies on the same cores, nothing to overlap, and the
    // per-row bookkeeping that overlapping needs only costs (2-worker gcn on the bench graph: 1.2 CPU-s more).
    this.pipelining = b.pipelining != null ? b.pipelining : !b.local;
    this.chunkRows = atLeast("chunk-rows", b.chunkRows, 1);
    if (b.roundTimeoutSeconds < 1) {
      throw new UsageException("option --round-timeout must be at least 1 (seconds), not " + b.roundTimeoutSeconds);
    }
    this.roundTimeoutSeconds = b.roundTimeoutSeconds;
    this.strategy = b.strategy;
    this.batchSize = atLeast("batch-size", b.batchSize, 1);
    this.ownership = b.ownership;
    this.edgeReading = b.edgeReading;
    this.local = b.local;
    this.verbose = b.verbose;
    this.workDir = b.workDir;
    this.layers = b.layers == null ? 0 : atLeast("job.layers", b.layers, 1);
    this.recovery = b.recovery != null ? b.recovery : RecoveryOptions.defaults();
    this.targets = b.targets;
    this.targetsFormat = b.targetsFormat;
  }

  /** The same message as {@link CommandLine#getInt} gives for a value out of range. */
  private static int atLeast(String option, long v, int min) {
    if (v < min || v > Integer.MAX_VALUE) {
      throw new UsageException("option --" + option + " must be at least " + min + ", not " + v);
    }
    return (int) v;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these options, to derive a variant (e.g. with qualified paths). */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.edges = edges;
    b.nodes = nodes;
    b.edgesFormat = edgesFormat;
    b.nodesFormat = nodesFormat;
    b.graph = graph;
    b.model = model;
    b.output = output;
    b.outputFormat = outputFormat;
    b.metrics = metrics;
    b.undirected = undirected;
    b.missingFeatures = missingFeatures;
    b.overwrite = overwrite;
    b.seed = seed;
    b.threads = threads == 0 ? null : (long) threads;
    b.workers = workers == 0 ? null : (long) workers;
    b.workerMemoryMb = workerMemoryMb;
    b.workerVcores = workerVcores;
    b.queue = queue;
    b.name = name;
    b.fusion = fusion;
    b.pipelining = pipelining;
    b.chunkRows = chunkRows;
    b.roundTimeoutSeconds = roundTimeoutSeconds;
    b.strategy = strategy;
    b.batchSize = batchSize;
    b.ownership = ownership;
    b.edgeReading = edgeReading;
    b.local = local;
    b.verbose = verbose;
    b.workDir = workDir;
    b.layers = layers == 0 ? null : (long) layers;
    b.recovery = recovery;
    b.targets = targets;
    b.targetsFormat = targetsFormat;
    return b;
  }

  // ---- the command line --------------------------------------------------------------------------------------

  /** The options {@code infer} accepts; each is also the configuration key {@code yarngnn.NAME}. */
  public static OptionSpec optionSpec() {
    return RecoveryOptions.addTo(graphOptions(new OptionSpec("infer",
        "--edges PATH --nodes PATH --model DIR --output DIR [--local] [--workers N]")))
        .value("model", "DIR", "model directory: model.json + weights.safetensors")
        .value("output", "DIR", "output directory for part files and _SUCCESS")
        .value("strategy", "layerwise|nodewise", "layerwise (Deal, default) or the nodewise mini-batch baseline (--local only)")
        .value("batch-size", "N", "nodewise: targets per mini-batch (default 1024)")
        .value("pipelining", "auto|on|off", "chunked exchange overlapped with aggregation (default auto: on "
            + "between containers, off between --local workers)")
        .value("fusion", "on|off", "first layer's transform fused with feature loading (default on)")
        .value("targets", "PATH", "a table of node ids (column id; text: one id a line): compute only what their "
            + "embeddings need and write only their rows")
        .value("targets-format", "FORMAT", "parquet|orc|tsv|csv when the targets' file names do not say");
  }

  /**
   * The options of every graph job (infer, train) besides the common ones: the tables or partitioned graph,
   * construction, threads, exchange chunks, the round timeout and the ownership.
   */
  public static OptionSpec graphOptions(OptionSpec spec) {
    return JobOptions.common(spec)
        .value("edges", "PATH", "edges table: a file or directory (Parquet, ORC, TSV, CSV, optionally .gz)")
        .flag("dry-run", "check the tables and the model, print the plan, run nothing, write nothing")
        .value("metrics", "FILE", "also write a JSON summary of the run (phase seconds, bytes exchanged, per-worker "
            + "peaks, partitions) to FILE, on any FileSystem")
        .value("graph", "DIR", "a partitioned graph written by partition, instead of --edges and --nodes")
        .value("nodes", "PATH", "nodes table: id, features[, label, split]")
        .value("edges-format", "FORMAT", "parquet|orc|tsv|csv when the file names do not say")
        .value("nodes-format", "FORMAT", "parquet|orc|tsv|csv when the file names do not say")
        .flag("undirected", "add the reverse of every edge")
        .value("missing-features", "error|zero", "an edge endpoint without a node row: refuse (default) or zero features")
        .value("threads", "N", "threads per worker for reading, routing and writing (default: the cores a worker "
            + "has: its --worker-vcores on YARN, an equal share of this machine's with --local)")
        .value("chunk-rows", "N", "rows per exchanged chunk (default 16384)")
        .value("round-timeout", "SECONDS", "time limit of one phase on all workers; past it the job fails naming the "
            + "workers that did not finish (default " + DEFAULT_ROUND_TIMEOUT_SECONDS + ")")
        .value("ownership", "auto|range|hash", "node owners: ranges when ids are 0..n-1 (auto), or a hash that "
            + "balances power-law graphs whose hubs have low ids")
        .value("edge-reading", "auto|share|all", "raw edges: each worker reads a share of the files and routes "
            + "others' edges to them, or reads every file and keeps its own (auto: all up to "
            + EdgeReading.MAX_READING_ALL + " workers)");
  }

  /** The option keys only {@code infer} has (a training job's configuration leaves them out). */
  public static final java.util.Set<String> INFER_ONLY = java.util.Set.of("model", "strategy", "batch-size",
      "pipelining", "fusion", "checkpoint", "max-worker-failures", "targets", "targets-format");

  /**
   * The job's options from the command line (and {@code -D yarngnn.*}, {@code -conf}): where a job runs is
   * decided here ({@code --local}, or no cluster configuration found).
   */
  public static InferOptions fromCommandLine(CommandLine cl) {
    boolean local = JobOptions.runLocally(cl);
    return parse(cl).local(local).recovery(RecoveryOptions.parse(cl)).build();
  }

  /** Every option as typed values; range and consistency checks are {@link Builder#build()}'s. */
  private static Builder parse(CommandLine cl) {
    return parseGraph(cl, "yarn-gnn infer")
        .model(text(cl, "model"))
        .fusion(onOff(cl, "fusion"))
        .pipelining(autoOnOff(cl, "pipelining"))
        .strategy(Strategy.byName(cl.get("strategy", "layerwise")))
        .batchSize(cl.getLong("batch-size", 1024))
        .targets(text(cl, "targets"))
        .targetsFormat(format(cl, "targets-format"));
  }

  /**
   * The options of {@link #graphOptions} (and --output) from {@code cl}, as typed values; {@code defaultName} is
   * the YARN application's name when --name is not given.
   */
  public static Builder parseGraph(CommandLine cl, String defaultName) {
    Builder b = builder()
        .edges(text(cl, "edges"))
        .nodes(text(cl, "nodes"))
        .graph(text(cl, "graph"))
        .edgesFormat(format(cl, "edges-format"))
        .nodesFormat(format(cl, "nodes-format"))
        .output(text(cl, "output"))
        .metrics(text(cl, "metrics"))
        .undirected(cl.flag("undirected"))
        .overwrite(cl.flag("overwrite"))
        .verbose(cl.flag("verbose"))
        .seed(cl.getLong("seed", 0))
        .workerMemoryMb(cl.getLong("worker-memory", 1024))
        .workerVcores(cl.getLong("worker-vcores", 1))
        .queue(cl.get("queue", "default"))
        .name(cl.get("name", defaultName))
        .chunkRows(cl.getLong("chunk-rows", 16384))
        .roundTimeoutSeconds(cl.getLong("round-timeout", DEFAULT_ROUND_TIMEOUT_SECONDS));
    TableFormat out = format(cl, "output-format");
    if (out != null) {
      b.outputFormat(out);
    }
    if (cl.has("workers")) {
      b.workers(cl.getLong("workers", 0));
    }
    if (cl.has("threads")) {
      b.threads(cl.getLong("threads", 0));
    }
    try {
      b.missingFeatures(MissingFeatures.byName(cl.get("missing-features", "error")));
      b.ownership(Ownership.Kind.byName(cl.get("ownership", "auto")));
      b.edgeReading(EdgeReading.byName(cl.get("edge-reading", "auto")));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return b;
  }

  private static String text(CommandLine cl, String option) {
    String v = cl.get(option);
    return v == null || v.isEmpty() ? null : v;
  }

  private static TableFormat format(CommandLine cl, String option) {
    String v = cl.get(option);
    if (v == null) {
      return null;
    }
    try {
      return TableFormat.fromName(v);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + option + ": unknown format '" + v + "' (parquet, orc, tsv, csv)");
    }
  }

  /** on, off, or null for auto (absent too). */
  private static Boolean autoOnOff(CommandLine cl, String option) {
    String v = cl.get(option, "auto");
    if (v.equals("auto")) {
      return null;
    }
    if (!v.equals("on") && !v.equals("off")) {
      throw new UsageException("--" + option + " must be auto, on or off, not '" + v + "'");
    }
    return v.equals("on");
  }

  private static boolean onOff(CommandLine cl, String option) {
    String v = cl.get(option, "on");
    if (!v.equals("on") && !v.equals("off")) {
      throw new UsageException("--" + option + " must be on or off, not '" + v + "'");
    }
    return v.equals("on");
  }

  // ---- the job configuration ---------------------------------------------------------------------------------

  /**
   * Every field as configuration keys: an option as {@code yarngnn.OPTION} with its command-line value, an
   * internal field under {@code yarngnn.job.*}; a null or unset field has no key. Holds nothing else (no
   * Hadoop defaults), so it can be written as the job's {@code job.xml}.
   */
  public Configuration toConfiguration() {
    Configuration c = new Configuration(false);
    set(c, "edges", edges);
    set(c, "nodes", nodes);
    set(c, "graph", graph);
    set(c, "edges-format", edgesFormat == null ? null : edgesFormat.extension());
    set(c, "nodes-format", nodesFormat == null ? null : nodesFormat.extension());
    set(c, "model", model);
    set(c, "output", output);
    set(c, "metrics", metrics);
    set(c, "output-format", outputFormat.extension());
    set(c, "undirected", Boolean.toString(undirected));
    set(c, "missing-features", missingFeatures.name().toLowerCase(Locale.ROOT));
    set(c, "overwrite", Boolean.toString(overwrite));
    set(c, "seed", Long.toString(seed));
    set(c, "threads", threads == 0 ? null : Integer.toString(threads));
    set(c, "workers", workers == 0 ? null : Integer.toString(workers));
    set(c, "worker-memory", Integer.toString(workerMemoryMb));
    set(c, "worker-vcores", Integer.toString(workerVcores));
    set(c, "queue", queue);
    set(c, "name", name);
    set(c, "fusion", fusion ? "on" : "off");
    set(c, "pipelining", pipelining ? "on" : "off");
    set(c, "chunk-rows", Integer.toString(chunkRows));
    set(c, "round-timeout", Long.toString(roundTimeoutSeconds));
    set(c, "strategy", strategy.optionValue());
    set(c, "batch-size", Integer.toString(batchSize));
    set(c, "ownership", ownership());
    set(c, "edge-reading", edgeReading.optionValue());
    set(c, "local", Boolean.toString(local));
    set(c, "verbose", Boolean.toString(verbose));
    set(c, "targets", targets);
    set(c, "targets-format", targetsFormat == null ? null : targetsFormat.extension());
    if (workDir != null) {
      c.set(WORK_DIR_KEY, workDir);
    }
    if (layers > 0) {
      c.setInt(LAYERS_KEY, layers);
    }
    recovery.toConfiguration(c);
    return c;
  }

  private static void set(Configuration c, String option, String value) {
    if (value != null) {
      c.set(PREFIX + option, value);
    }
  }

  /**
   * The options {@link #toConfiguration()} wrote (the job's {@code job.xml} in a container), parsed and
   * validated as the command line is; {@code yarngnn.local} is taken as written, not re-decided.
   */
  public static InferOptions fromConfiguration(Configuration conf) {
    CommandLine cl = CommandLine.parse(optionSpec(), new String[0], conf);
    Builder b = parse(cl).local(cl.flag("local")).workDir(conf.getTrimmed(WORK_DIR_KEY))
        .recovery(RecoveryOptions.parse(cl));
    String layers = conf.getTrimmed(LAYERS_KEY);
    if (layers != null) {
      try {
        b.layers(Long.parseLong(layers));
      } catch (NumberFormatException e) {
        throw new UsageException(LAYERS_KEY + " needs a whole number, not '" + layers + "'");
      }
    }
    return b.build();
  }

  // ---- accessors ---------------------------------------------------------------------------------------------

  /** Edges table (null with {@link #graph()}). */
  public String edges() {
    return edges;
  }

  /** Nodes table (null with {@link #graph()}). */
  public String nodes() {
    return nodes;
  }

  /** The edges' format when the file names do not say, or null. */
  public TableFormat edgesFormat() {
    return edgesFormat;
  }

  public TableFormat nodesFormat() {
    return nodesFormat;
  }

  /** A pre-partitioned graph directory written by {@code partition}, or null. */
  public String graph() {
    return graph;
  }

  /** The model directory; on YARN possibly {@code staged:NAME} (see {@link InferenceJobDriver#STAGED}). */
  public String model() {
    return model;
  }

  public String output() {
    return output;
  }

  public TableFormat outputFormat() {
    return outputFormat;
  }

  /** {@code --metrics FILE}: where the run's JSON summary goes (any FileSystem), or null. */
  public String metrics() {
    return metrics;
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

  /** Seed of the neighbour sampler. */
  public long seed() {
    return seed;
  }

  /**
   * Threads per worker for reading, routing and writing: {@code --threads}, else the cores the worker has,
   * resolved where it runs: a container's vcores (the client's cores say nothing about a container's), or with
   * {@code --local} an equal share of this JVM's cores, since its workers share them (on 2 cores, 2 workers with
   * one thread each were no slower than with two each: 12 interleaved pairs of 1M-node gcn jobs, three sets'
   * medians 11.0 against 13.4 s, 11.4 against 12.0 s, 15.2 against 14.5 s).
   */
  public int threads() {
    if (threads > 0) {
      return threads;
    }
    return local ? Math.max(1, Runtime.getRuntime().availableProcessors() / Math.max(1, workers))
        : Math.max(1, workerVcores);
  }

  /** Graph workers; 0 when not given (the command then picks: the graph's partitions, 1 locally, 2 on YARN). */
  public int workers() {
    return workers;
  }

  public int workerMemoryMb() {
    return workerMemoryMb;
  }

  public int workerVcores() {
    return workerVcores;
  }

  public String queue() {
    return queue;
  }

  /** The YARN application name. */
  public String name() {
    return name;
  }

  /** Transform feature rows with the first layer where they are read, shipping only the narrow rows. */
  public boolean fusion() {
    return fusion;
  }

  /**
   * Halo rows aggregated as soon as their inputs arrive, overlapping the transfer of later chunks; off: every
   * chunk received, then aggregated. Resolved: --pipelining auto is off for --local workers, on otherwise.
   */
  public boolean pipelining() {
    return pipelining;
  }

  /** Rows per halo chunk. */
  public int chunkRows() {
    return chunkRows;
  }

  /** Time limit of one phase (a barrier round) across all workers, in seconds. */
  public long roundTimeoutSeconds() {
    return roundTimeoutSeconds;
  }

  public Strategy strategy() {
    return strategy;
  }

  /** Nodewise: targets per mini-batch. */
  public int batchSize() {
    return batchSize;
  }

  /** auto, range or hash (see {@link Ownership.Kind}). */
  public String ownership() {
    return ownership.name().toLowerCase(Locale.ROOT);
  }

  public Ownership.Kind ownershipKind() {
    return ownership;
  }

  /** {@code --edge-reading} as given (auto, share or all). */
  public EdgeReading edgeReading() {
    return edgeReading;
  }

  /** How a job of {@code workers} graph workers reads a raw edge table: SHARE or ALL. */
  public EdgeReading edgeReadingKind(int workers) {
    return edgeReading.resolve(workers);
  }

  /** The job runs in this JVM (workers as threads) rather than on YARN. */
  public boolean local() {
    return local;
  }

  public boolean verbose() {
    return verbose;
  }

  /** The output commit's work directory: each worker writes its part files there; null before the commit began. */
  public String workDir() {
    return workDir;
  }

  /** The model's layer count, filled in by the client once it read the model; 0 before. */
  public int layers() {
    return layers;
  }

  /** {@code --checkpoint} and {@code --max-worker-failures} (and, in the AM and the containers, where). */
  public RecoveryOptions recovery() {
    return recovery;
  }

  /** {@code --targets}: a table of the node ids whose rows alone are computed and written; null for all nodes. */
  public String targets() {
    return targets;
  }

  /** The targets' format when the file names do not say, or null. */
  public TableFormat targetsFormat() {
    return targetsFormat;
  }

  private List<Object> fields() {
    return Arrays.asList(edges, nodes, edgesFormat, nodesFormat, graph, model, output, outputFormat, metrics, undirected,
        missingFeatures, overwrite, seed, threads, workers, workerMemoryMb, workerVcores, queue, name, fusion,
        pipelining, chunkRows, roundTimeoutSeconds, strategy, batchSize, ownership, edgeReading, local, verbose, workDir, layers, recovery,
        targets, targetsFormat);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof InferOptions other && fields().equals(other.fields());
  }

  @Override
  public int hashCode() {
    return fields().hashCode();
  }

  @Override
  public String toString() {
    Map<String, String> keys = new TreeMap<>();
    toConfiguration().forEach(e -> keys.put(e.getKey(), e.getValue()));
    return "InferOptions" + keys;
  }

  /** Builds {@link InferOptions}; {@link #build()} checks every value and throws {@link UsageException}. */
  public static final class Builder {
    private String edges;
    private String nodes;
    private TableFormat edgesFormat;
    private TableFormat nodesFormat;
    private String graph;
    private String model;
    private String output;
    private TableFormat outputFormat = TableFormat.PARQUET;
    private String metrics;
    private boolean undirected;
    private MissingFeatures missingFeatures = MissingFeatures.ERROR;
    private boolean overwrite;
    private long seed;
    private Long threads;
    private Long workers;
    private long workerMemoryMb = 1024;
    private long workerVcores = 1;
    private String queue = "default";
    private String name = "yarn-gnn infer";
    private boolean fusion = true;
    private Boolean pipelining;
    private long chunkRows = 16384;
    private long roundTimeoutSeconds = DEFAULT_ROUND_TIMEOUT_SECONDS;
    private Strategy strategy = Strategy.LAYERWISE;
    private long batchSize = 1024;
    private Ownership.Kind ownership = Ownership.Kind.AUTO;
    private EdgeReading edgeReading = EdgeReading.AUTO;
    private boolean local;
    private boolean verbose;
    private String workDir;
    private Long layers;
    private RecoveryOptions recovery;
    private String targets;
    private TableFormat targetsFormat;

    private Builder() {}

    public Builder edges(String v) {
      edges = v;
      return this;
    }

    public Builder nodes(String v) {
      nodes = v;
      return this;
    }

    public Builder edgesFormat(TableFormat v) {
      edgesFormat = v;
      return this;
    }

    public Builder nodesFormat(TableFormat v) {
      nodesFormat = v;
      return this;
    }

    public Builder graph(String v) {
      graph = v;
      return this;
    }

    public Builder model(String v) {
      model = v;
      return this;
    }

    public Builder output(String v) {
      output = v;
      return this;
    }

    public Builder metrics(String v) {
      metrics = v == null || v.isEmpty() ? null : v;
      return this;
    }

    public Builder outputFormat(TableFormat v) {
      outputFormat = v;
      return this;
    }

    public Builder undirected(boolean v) {
      undirected = v;
      return this;
    }

    public Builder missingFeatures(MissingFeatures v) {
      missingFeatures = v;
      return this;
    }

    public Builder overwrite(boolean v) {
      overwrite = v;
      return this;
    }

    public Builder seed(long v) {
      seed = v;
      return this;
    }

    public Builder threads(long v) {
      threads = v;
      return this;
    }

    /** Graph workers; unset (the default) lets the command pick. */
    public Builder workers(long v) {
      workers = v;
      return this;
    }

    public Builder workerMemoryMb(long v) {
      workerMemoryMb = v;
      return this;
    }

    public Builder workerVcores(long v) {
      workerVcores = v;
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

    public Builder fusion(boolean v) {
      fusion = v;
      return this;
    }

    /** On or off; null: auto (off for --local workers, on for containers). */
    public Builder pipelining(Boolean v) {
      pipelining = v;
      return this;
    }

    public Builder roundTimeoutSeconds(long v) {
      roundTimeoutSeconds = v;
      return this;
    }

    public Builder chunkRows(long v) {
      chunkRows = v;
      return this;
    }

    public Builder strategy(Strategy v) {
      strategy = v;
      return this;
    }

    public Builder batchSize(long v) {
      batchSize = v;
      return this;
    }

    public Builder ownership(Ownership.Kind v) {
      ownership = v;
      return this;
    }

    public Builder edgeReading(EdgeReading v) {
      edgeReading = v;
      return this;
    }

    public Builder local(boolean v) {
      local = v;
      return this;
    }

    public Builder verbose(boolean v) {
      verbose = v;
      return this;
    }

    public Builder workDir(String v) {
      workDir = v;
      return this;
    }

    public Builder layers(long v) {
      layers = v;
      return this;
    }

    /** Null: the defaults for where the job runs. */
    public Builder recovery(RecoveryOptions v) {
      recovery = v;
      return this;
    }

    public Builder targets(String v) {
      targets = v == null || v.isEmpty() ? null : v;
      return this;
    }

    public Builder targetsFormat(TableFormat v) {
      targetsFormat = v;
      return this;
    }

    /** Checks every value; the message of the {@link UsageException} names the option. */
    public InferOptions build() {
      Objects.requireNonNull(outputFormat, "outputFormat");
      Objects.requireNonNull(missingFeatures, "missingFeatures");
      Objects.requireNonNull(strategy, "strategy");
      Objects.requireNonNull(ownership, "ownership");
      Objects.requireNonNull(edgeReading, "edgeReading");
      Objects.requireNonNull(queue, "queue");
      Objects.requireNonNull(name, "name");
      if (outputFormat != TableFormat.PARQUET && outputFormat != TableFormat.ORC) {
        throw new UsageException("--output-format must be parquet or orc");
      }
      if (graph != null && (edges != null || nodes != null)) {
        throw new UsageException("--graph replaces --edges and --nodes: give one or the other");
      }
      if (graph == null) {
        require("edges", edges);
        require("nodes", nodes);
      }
      require("model", model);
      require("output", output);
      InferOptions o = new InferOptions(this);
      if (targets != null && strategy == Strategy.NODEWISE) {
        throw new UsageException("--targets needs --strategy layerwise (the nodewise baseline computes every node)");
      }
      if (strategy == Strategy.NODEWISE && !local) {
        throw new UsageException("--strategy nodewise is a single-JVM baseline: add --local");
      }
      int most = local ? MAX_LOCAL_WORKERS : MAX_WORKERS;
      if (o.workers > most) {
        throw new UsageException("option --workers must be at most " + most + (local
            ? " with --local (every worker is a set of threads and sockets in this JVM)" : "") + ", not " + o.workers);
      }
      return o;
    }

    private static void require(String option, String v) {
      if (v == null || v.isEmpty()) {
        throw new UsageException("infer needs --" + option);
      }
    }
  }
}
