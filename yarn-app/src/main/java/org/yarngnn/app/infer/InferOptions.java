package org.yarngnn.app.infer;

import static java.util.Map.entry;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.JobOptions;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.app.options.OptionValues;
import org.yarngnn.io.table.TableFormat;

/**
 * Immutable options of an {@code infer} job: the graph job's ({@link #job()}) and inference's own (the model, the
 * strategy, pipelining, fusion, the targets, what a replaced worker resumes from). Parsed once, from the command
 * line ({@link #fromCommandLine}); validated once, in {@link Builder#build()}; handed as this object to the local
 * run, and carried to the ApplicationMaster and the graph-worker containers as a Hadoop configuration file
 * ({@link #toConfiguration()}, {@link #fromConfiguration}): each option under its documented key
 * {@code yarngnn.OPTION}, the internal fields under {@code yarngnn.job.*}.
 */
public final class InferOptions {
  /** The prefix of every option's configuration key ({@code -D yarngnn.OPTION=VALUE}). */
  public static final String PREFIX = Option.KEY_PREFIX;
  public static final String WORK_DIR_KEY = GraphJobOptions.WORK_DIR.key();
  public static final String LAYERS_KEY = GraphJobOptions.LAYERS.key();

  /** How the embeddings are computed. */
  public enum Strategy {
    /** Deal: every layer once for every node, distributed over the graph workers. */
    LAYERWISE,
    /** The mini-batch baseline, in one JVM. */
    NODEWISE
  }

  public static final Option<String> MODEL = Option.text("model", "DIR", null,
      "model directory: model.json + weights.safetensors");
  public static final Option<Strategy> STRATEGY = Option.choice("strategy", "layerwise|nodewise", Strategy.LAYERWISE,
      "layerwise (Deal, default) or the nodewise mini-batch baseline (--local only)",
      entry("layerwise", Strategy.LAYERWISE), entry("nodewise", Strategy.NODEWISE));
  public static final Option<Long> BATCH_SIZE = Option.whole("batch-size", "N", 1024L, 1, Integer.MAX_VALUE,
      "nodewise: targets per mini-batch (default {default})");
  /** On or off; not given: auto, resolved by {@link Builder#build()}. */
  public static final Option<Boolean> PIPELINING = Option.of("pipelining", "auto|on|off", null, v -> {
    switch (v) {
      case "auto":
        return null;
      case "on":
      case "off":
        return v.equals("on");
      default:
        throw new UsageException("--pipelining must be auto, on or off, not '" + v + "'");
    }
  }, v -> v ? "on" : "off", "chunked exchange overlapped with aggregation (default auto: on between containers, "
      + "off between --local workers)");
  public static final Option<Boolean> FUSION = Option.choice("fusion", "on|off", true,
      "first layer's transform fused with feature loading (default {default})", entry("on", true), entry("off", false));
  public static final Option<String> TARGETS = Option.text("targets", "PATH", null, "a table of node ids (column id; "
      + "text: one id a line): compute only what their embeddings need and write only their rows");
  public static final Option<TableFormat> TARGETS_FORMAT = GraphJobOptions.tableFormat("targets-format",
      "parquet|orc|tsv|csv when the targets' file names do not say");
  /** See {@link RecoveryOptions}. */
  public static final Option<Boolean> CHECKPOINT = Option.choice("checkpoint", "none|layers", false, "what a "
      + "replaced graph worker resumes from: none (default) builds the graph again and reruns the finished layers on "
      + "every worker, at no cost until a fault; layers writes each partition and its output of every finished "
      + "layer under the job's staging directory, so a replacement resumes at the current layer",
      entry("layers", true), entry("none", false));
  /** Inference's own options, beside {@link GraphJobOptions#DECLARED}. */
  static final List<Option<?>> DECLARED = List.of(CHECKPOINT, MODEL, STRATEGY, BATCH_SIZE, PIPELINING,
      FUSION, TARGETS, TARGETS_FORMAT);

  private final GraphJobOptions job;
  private final OptionValues values;
  /** Where the checkpoints go, known in the ApplicationMaster and the containers only (never shipped). */
  private final String recoveryDir;

  private InferOptions(GraphJobOptions job, OptionValues values, String recoveryDir) {
    this.job = job;
    this.values = values;
    this.recoveryDir = recoveryDir;
  }

  public static Builder builder(GraphJobOptions.Builder job) {
    return new Builder(job, OptionValues.builder(DECLARED), null);
  }

  /** A builder holding these options, to derive a variant (e.g. with qualified paths). */
  public Builder toBuilder() {
    return new Builder(job.toBuilder(), values.toBuilder(), recoveryDir);
  }

  /** The options {@code infer} accepts; each is also the configuration key {@code yarngnn.NAME}. */
  public static OptionSpec optionSpec() {
    OptionSpec spec = GraphJobOptions.declare(JobOptions.kerberos(new OptionSpec("infer",
        "--edges PATH --nodes PATH --model DIR --output DIR [--local] [--workers N]")),
        "output directory for part files and _SUCCESS");
    return OptionValues.declare(spec, DECLARED);
  }

  /**
   * The job's options from the command line (and {@code -D yarngnn.*}, {@code -conf}): where a job runs is
   * decided here ({@code --local}, or no cluster configuration found).
   */
  public static InferOptions fromCommandLine(CommandLine cl) {
    boolean local = JobOptions.runLocally(cl);
    return new Builder(GraphJobOptions.read("infer", cl).set(GraphJobOptions.LOCAL, local), OptionValues.read(DECLARED,
        cl), null).build();
  }

  /** Every option as {@code yarngnn.OPTION}, internal fields under {@code yarngnn.job.*}. */
  public Configuration toConfiguration() {
    Configuration c = new Configuration(false);
    job.write(c);
    values.write(c);
    return c;
  }

  /**
   * The options {@link #toConfiguration()} wrote (the job's {@code job.xml} in a container), parsed and
   * validated as the command line is; {@code yarngnn.local} is taken as written, not re-decided.
   */
  public static InferOptions fromConfiguration(Configuration conf) {
    CommandLine cl = CommandLine.parse(optionSpec(), new String[0], conf);
    return new Builder(GraphJobOptions.read("infer", cl), OptionValues.read(DECLARED, cl), null).build();
  }

  // ---- accessors ---------------------------------------------------------------------------------------------

  /** The options every graph job has: inputs, workers, construction, output. */
  public GraphJobOptions job() {
    return job;
  }

  /** The model directory; on YARN possibly {@code staged:NAME} (see {@link InferenceJobDriver#STAGED}). */
  public String model() {
    return values.get(MODEL);
  }

  /** Transform feature rows with the first layer where they are read, shipping only the narrow rows. */
  public boolean fusion() {
    return values.get(FUSION);
  }

  /**
   * Halo rows aggregated as soon as their inputs arrive, overlapping the transfer of later chunks; off: every
   * chunk received, then aggregated. Resolved: --pipelining auto is off for --local workers, on otherwise.
   */
  public boolean pipelining() {
    return values.get(PIPELINING);
  }

  public Strategy strategy() {
    return values.get(STRATEGY);
  }

  /** Nodewise: targets per mini-batch. */
  public int batchSize() {
    return values.get(BATCH_SIZE).intValue();
  }

  /** {@code --checkpoint} and {@code --max-worker-failures} (and, in the AM and the containers, where). */
  public RecoveryOptions recovery() {
    return new RecoveryOptions(values.get(CHECKPOINT), job.maxWorkerFailures(), recoveryDir);
  }

  /** {@code --targets}: a table of the node ids whose rows alone are computed and written; null for all nodes. */
  public String targets() {
    return values.get(TARGETS);
  }

  /** The targets' format when the file names do not say, or null. */
  public TableFormat targetsFormat() {
    return values.get(TARGETS_FORMAT);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof InferOptions other && job.equals(other.job) && values.equals(other.values)
        && java.util.Objects.equals(recoveryDir, other.recoveryDir);
  }

  @Override
  public int hashCode() {
    return job.hashCode() * 31 + values.hashCode();
  }

  @Override
  public String toString() {
    Map<String, String> keys = new TreeMap<>();
    toConfiguration().forEach(e -> keys.put(e.getKey(), e.getValue()));
    return "InferOptions" + keys;
  }

  /** Builds {@link InferOptions}; {@link #build()} checks every value and throws {@link UsageException}. */
  public static final class Builder {
    private final GraphJobOptions.Builder job;
    private final OptionValues.Builder values;
    private String recoveryDir;

    private Builder(GraphJobOptions.Builder job, OptionValues.Builder values, String recoveryDir) {
      this.job = job;
      this.values = values;
      this.recoveryDir = recoveryDir;
    }

    /** The graph job's options, to change in place. */
    public GraphJobOptions.Builder job() {
      return job;
    }

    /** Changes the graph job's options in a chain: {@code .job(j -> j.set(GraphJobOptions.LOCAL, true))}. */
    public Builder job(java.util.function.Consumer<GraphJobOptions.Builder> change) {
      change.accept(job);
      return this;
    }

    public Builder model(String v) {
      values.set(MODEL, v);
      return this;
    }

    public Builder output(String v) {
      job.set(GraphJobOptions.OUTPUT, v);
      return this;
    }

    public Builder fusion(boolean v) {
      values.set(FUSION, v);
      return this;
    }

    /** On or off; null: auto (off for --local workers, on for containers). */
    public Builder pipelining(Boolean v) {
      values.set(PIPELINING, v);
      return this;
    }

    public Builder strategy(Strategy v) {
      values.set(STRATEGY, v);
      return this;
    }

    public Builder batchSize(long v) {
      values.set(BATCH_SIZE, v);
      return this;
    }

    /** The checkpoint mode, the failures replaced and where the checkpoints go. */
    public Builder recovery(RecoveryOptions v) {
      values.set(CHECKPOINT, v.checkpointLayers());
      job.set(GraphJobOptions.MAX_WORKER_FAILURES, v.maxWorkerFailures());
      recoveryDir = v.dir();
      return this;
    }

    public Builder targets(String v) {
      values.set(TARGETS, v == null || v.isEmpty() ? null : v);
      return this;
    }

    public Builder targetsFormat(TableFormat v) {
      values.set(TARGETS_FORMAT, v);
      return this;
    }

    /** Checks every value; the message of the {@link UsageException} names the option. */
    public InferOptions build() {
      GraphJobOptions g = job.build();
      job.require(MODEL, values.get(MODEL));
      job.require(GraphJobOptions.OUTPUT, g.output());
      if (values.get(PIPELINING) == null) {
        // auto: overlapping aggregation with the transfer pays where the transfer is a network's time
        // (containers); between --local workers, threads of one JVM, it is copies on the same cores, nothing to
        // overlap, and the per-row bookkeeping overlapping needs only costs (2-worker gcn: 1.2 CPU-s more).
        values.set(PIPELINING, !g.local());
      }
      InferOptions o = new InferOptions(g, values.build(), recoveryDir);
      if (o.targets() != null && o.strategy() == Strategy.NODEWISE) {
        throw new UsageException("--targets needs --strategy layerwise (the nodewise baseline computes every node)");
      }
      if (o.strategy() == Strategy.NODEWISE && !g.local()) {
        throw new UsageException("--strategy nodewise is a single-JVM baseline: add --local");
      }
      return o;
    }
  }
}
