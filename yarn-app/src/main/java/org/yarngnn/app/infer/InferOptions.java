package org.yarngnn.app.infer;

import static java.util.Map.entry;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.JobOptions;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.io.table.TableFormat;

/**
 * Immutable options of an {@code infer} job: the graph job's ({@link #job()}) and inference's own (the model, the
 * strategy, pipelining, fusion, the targets, what a replaced worker resumes from). Parsed once, from the command
 * line ({@link #fromCommandLine}); validated once, in {@code build()}; handed as this object to the local
 * run, and carried to the ApplicationMaster and the graph-worker containers as a Hadoop configuration file
 * ({@link #toConfiguration()}, {@link #fromConfiguration}): each option under its documented key
 * {@code yarngnn.OPTION}, the internal fields under {@code yarngnn.job.*}.
 */
public final class InferOptions extends CommandOptions<InferOptions> {
  /** How the embeddings are computed. */
  public enum Strategy {
    /** Deal: every layer once for every node, distributed over the graph workers. */
    LAYERWISE,
    /** The mini-batch baseline, in one JVM. */
    NODEWISE
  }

  /** The model directory; on YARN possibly {@code staged:NAME} (see {@link InferenceJobDriver#STAGED}). */
  public static final Option<String> MODEL = Option.text("model", "DIR", null,
      "model directory: model.json + weights.safetensors");
  public static final Option<Strategy> STRATEGY = Option.choice("strategy", "layerwise|nodewise", Strategy.LAYERWISE,
      "layerwise (Deal, default) or the nodewise mini-batch baseline (--local only)",
      entry("layerwise", Strategy.LAYERWISE), entry("nodewise", Strategy.NODEWISE));
  public static final Option<Long> BATCH_SIZE = Option.whole("batch-size", "N", 1024L, 1, Integer.MAX_VALUE,
      "nodewise: targets per mini-batch (default {default})");
  /**
   * Halo rows aggregated as soon as their inputs arrive, overlapping the transfer of later chunks; off: every
   * chunk received, then aggregated. Not given: auto, resolved by {@code build()}: off for --local
   * workers, on otherwise.
   */
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
  /** Transform feature rows with the first layer where they are read, shipping only the narrow rows. */
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
  /** Where the checkpoints go, set in the ApplicationMaster and the containers only (see {@link RecoveryOptions}). */
  static final Option<String> RECOVERY_DIR = Option.text("job.recovery-dir", null, null, "").internal();
  /** Inference's own options, beside {@link GraphJobOptions#DECLARED}. */
  static final List<Option<?>> DECLARED = List.of(CHECKPOINT, MODEL, STRATEGY, BATCH_SIZE, PIPELINING,
      FUSION, TARGETS, TARGETS_FORMAT, RECOVERY_DIR);

  private InferOptions(Builder<InferOptions> b) {
    super(b);
  }

  public static Builder<InferOptions> builder() {
    return new Builder<>("infer", CommandOptions.concat(GraphJobOptions.DECLARED, DECLARED), InferOptions::finish);
  }

  /** The options {@code infer} accepts; each is also the configuration key {@code yarngnn.NAME}. */
  public static OptionSpec optionSpec() {
    OptionSpec spec = GraphJobOptions.declare(JobOptions.kerberos(new OptionSpec("infer",
        "--edges PATH --nodes PATH --model DIR --output DIR [--local] [--workers N]")),
        "output directory for part files and _SUCCESS");
    return CommandOptions.declare(spec, DECLARED);
  }

  /**
   * The job's options from the command line (and {@code -D yarngnn.*}, {@code -conf}): where a job runs is
   * decided here ({@code --local}, or no cluster configuration found).
   */
  public static InferOptions fromCommandLine(CommandLine cl) {
    return builder().read(cl).set(GraphJobOptions.LOCAL, JobOptions.runLocally(cl)).build();
  }

  /**
   * The options {@link #toConfiguration()} wrote (the job's {@code job.xml} in a container), parsed and
   * validated as the command line is; {@code yarngnn.local} is taken as written, not re-decided.
   */
  public static InferOptions fromConfiguration(Configuration conf) {
    return builder().read(CommandLine.parse(optionSpec(), new String[0], conf)).build();
  }

  /** The options every graph job has: inputs, workers, construction, output. */
  public GraphJobOptions job() {
    return GraphJobOptions.of(this);
  }

  /** {@code --checkpoint} and {@code --max-worker-failures} (and, in the AM and the containers, where). */
  public RecoveryOptions recovery() {
    return new RecoveryOptions(get(CHECKPOINT), getInt(GraphJobOptions.MAX_WORKER_FAILURES), get(RECOVERY_DIR));
  }

  /** Sets the checkpoint mode, the failures replaced and where the checkpoints go. */
  public static Builder<InferOptions> withRecovery(Builder<InferOptions> b, RecoveryOptions v) {
    return b.set(CHECKPOINT, v.checkpointLayers()).set(GraphJobOptions.MAX_WORKER_FAILURES, v.maxWorkerFailures())
        .set(RECOVERY_DIR, v.dir());
  }

  private static InferOptions finish(Builder<InferOptions> b) {
    GraphJobOptions.check(b);
    b.require(MODEL);
    b.require(GraphJobOptions.OUTPUT);
    if (b.get(PIPELINING) == null) {
      // auto: overlapping aggregation with the transfer pays where the transfer is a network's time
      // (containers); between --local workers, threads of one JVM, it is copies on the same cores, nothing to
      // overlap, and the per-row bookkeeping overlapping needs only costs (2-worker gcn: 1.2 CPU-s more).
      b.set(PIPELINING, !b.get(GraphJobOptions.LOCAL));
    }
    InferOptions o = new InferOptions(b);
    if (o.get(TARGETS) != null && o.get(STRATEGY) == Strategy.NODEWISE) {
      throw new UsageException("--targets needs --strategy layerwise (the nodewise baseline computes every node)");
    }
    if (o.get(STRATEGY) == Strategy.NODEWISE && !o.get(GraphJobOptions.LOCAL)) {
      throw new UsageException("--strategy nodewise is a single-JVM baseline: add --local");
    }
    return o;
  }
}
