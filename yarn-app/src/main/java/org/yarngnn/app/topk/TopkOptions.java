package org.yarngnn.app.topk;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.JobOptions;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.app.options.OptionValues;
import org.yarngnn.compute.retrieval.ExactTopK;
import org.yarngnn.io.table.TableFormat;

/**
 * The options of {@code topk} (docs/commands.md, "topk"), parsed and checked once. A YARN job carries them to the
 * ApplicationMaster and the workers as {@code job.xml}: every option under its documented key
 * {@code yarngnn.OPTION} ({@link #toConfiguration}), read back by the same parser ({@link #fromConfiguration}), so
 * a container refuses what the client would.
 */
public record TopkOptions(String embeddings, int k, String output, String queries, String candidates,
    String exclude, String truth, String metrics, int workers, int workerMemoryMb, int workerVcores, String queue,
    String name, boolean overwrite, TableFormat outputFormat, boolean local, int candidateBlock,
    long roundTimeoutSeconds, boolean verbose, String workDir) {
  /**
   * The largest K: a query's heap holds K scores and ids (12 bytes each), and a list longer than this is an
   * export of the whole table rather than retrieval.
   */
  public static final int MAX_K = 100_000;

  static final Option<String> EMBEDDINGS = Option.text("embeddings", "DIR", null,
      "an infer output: columns id, embedding");
  static final Option<Long> K = Option.whole("k", "K", null, 1, MAX_K, "candidates per query (1.." + MAX_K + ")");
  static final Option<String> OUTPUT = GraphJobOptions.OUTPUT.withHelp(
      "where the (query, rank, candidate, score) rows go");
  static final Option<String> QUERIES = Option.text("queries", "TABLE", null,
      "ids (column id) to retrieve for (default: every id of --embeddings)");
  static final Option<String> CANDIDATES = Option.text("candidates", "TABLE", null,
      "ids (column id) that may be retrieved (default: every id of --embeddings)");
  static final Option<String> EXCLUDE = Option.text("exclude", "EDGES", null,
      "(src = query, dst = candidate) pairs never to return, e.g. the training edges");
  static final Option<String> TRUTH = Option.text("truth", "EDGES", null, "held-out (src = query, dst = "
      + "candidate) pairs: print recall@K, ndcg@K, hit_rate@K and mrr");
  static final Option<Long> CANDIDATE_BLOCK = Option.whole("candidate-block", "N",
      (long) ExactTopK.DEFAULT_CANDIDATE_BLOCK, 1, 1 << 20, "candidates scored per block (default {default}): "
      + "bounds a worker's memory whatever the candidate count");
  static final Option<String> METRICS = GraphJobOptions.METRICS.withHelp(
      "also write a JSON summary of the run (and the --truth metrics)");
  /** A retrieval is one phase over every candidate: its limit is a day, not a layer's hour. */
  static final Option<Long> ROUND_TIMEOUT = GraphJobOptions.ROUND_TIMEOUT.withDefault(24 * 3600L)
      .withHelp("time limit of the retrieval on all workers (default {default})");
  static final Option<Boolean> DRY_RUN = GraphJobOptions.DRY_RUN.withHelp(
      "check the tables, print the plan, run nothing, write nothing");
  static final Option<Boolean> VERBOSE = GraphJobOptions.VERBOSE.withHelp("stack traces on failure");
  static final Option<String> NAME = GraphJobOptions.NAME.withDefault("yarn-gnn-topk");
  /** Topk's own options, beside the containers' ({@link GraphJobOptions#JOB}). */
  static final List<Option<?>> DECLARED = List.of(EMBEDDINGS, K, OUTPUT, QUERIES, CANDIDATES, EXCLUDE, TRUTH,
      CANDIDATE_BLOCK, METRICS, ROUND_TIMEOUT, DRY_RUN, VERBOSE);

  public static OptionSpec optionSpec() {
    OptionSpec spec = JobOptions.kerberos(new OptionSpec("topk", "--embeddings DIR --k K --output DIR "
        + "[--queries TABLE] [--candidates TABLE] [--exclude EDGES] [--truth EDGES]"));
    return OptionValues.declare(OptionValues.declare(spec, GraphJobOptions.JOB), DECLARED);
  }

  public static TopkOptions parse(CommandLine cl) {
    if (!cl.has("k")) {
      throw new UsageException("topk needs --k");
    }
    Long workers = GraphJobOptions.WORKERS.read(cl);
    return new TopkOptions(cl.require("embeddings"), K.read(cl).intValue(), cl.require("output"), QUERIES.read(cl),
        CANDIDATES.read(cl), EXCLUDE.read(cl), TRUTH.read(cl), METRICS.read(cl),
        workers == null ? 0 : workers.intValue(), GraphJobOptions.WORKER_MEMORY.read(cl).intValue(),
        GraphJobOptions.WORKER_VCORES.read(cl).intValue(), GraphJobOptions.QUEUE.read(cl), NAME.read(cl),
        GraphJobOptions.OVERWRITE.read(cl), GraphJobOptions.OUTPUT_FORMAT.read(cl), JobOptions.runLocally(cl),
        CANDIDATE_BLOCK.read(cl).intValue(), ROUND_TIMEOUT.read(cl), VERBOSE.read(cl),
        GraphJobOptions.WORK_DIR.read(cl));
  }

  /** The options with the workers resolved, tables qualified or the work directory set (builders in one line). */
  public TopkOptions with(int workers, String workDir) {
    return new TopkOptions(embeddings, k, output, queries, candidates, exclude, truth, metrics, workers,
        workerMemoryMb, workerVcores, queue, name, overwrite, outputFormat, local, candidateBlock,
        roundTimeoutSeconds, verbose, workDir);
  }

  public TopkOptions withTables(String embeddings, String queries, String candidates, String exclude, String truth,
      String output, String metrics) {
    return new TopkOptions(embeddings, k, output, queries, candidates, exclude, truth, metrics, workers,
        workerMemoryMb, workerVcores, queue, name, overwrite, outputFormat, local, candidateBlock,
        roundTimeoutSeconds, verbose, workDir);
  }

  /** The tables this job reads, as (option, path) pairs for the overlap checks; absent ones are null. */
  public Object[] inputs() {
    return new Object[] {"--embeddings", embeddings, "--queries", queries, "--candidates", candidates,
        "--exclude", exclude, "--truth", truth};
  }

  /** Every path the job reads or writes (for the delegation tokens of a YARN job). */
  public String[] accessedPaths() {
    return new String[] {embeddings, queries, candidates, exclude, truth, output, workDir, metrics};
  }

  public Configuration toConfiguration() {
    Configuration c = new Configuration(false);
    EMBEDDINGS.write(c, embeddings);
    K.write(c, (long) k);
    OUTPUT.write(c, output);
    QUERIES.write(c, queries);
    CANDIDATES.write(c, candidates);
    EXCLUDE.write(c, exclude);
    TRUTH.write(c, truth);
    METRICS.write(c, metrics);
    GraphJobOptions.WORKERS.write(c, workers == 0 ? null : (long) workers);
    GraphJobOptions.WORKER_MEMORY.write(c, (long) workerMemoryMb);
    GraphJobOptions.WORKER_VCORES.write(c, (long) workerVcores);
    GraphJobOptions.QUEUE.write(c, queue);
    NAME.write(c, name);
    GraphJobOptions.OVERWRITE.write(c, overwrite);
    GraphJobOptions.OUTPUT_FORMAT.write(c, outputFormat);
    GraphJobOptions.LOCAL.write(c, local);
    CANDIDATE_BLOCK.write(c, (long) candidateBlock);
    ROUND_TIMEOUT.write(c, roundTimeoutSeconds);
    VERBOSE.write(c, verbose);
    GraphJobOptions.WORK_DIR.write(c, workDir);
    return c;
  }

  /** What {@link #toConfiguration} wrote, parsed as a command line is (in the AM and the worker containers). */
  public static TopkOptions fromConfiguration(Configuration conf) {
    CommandLine cl = CommandLine.parse(optionSpec(), new String[0], conf);
    TopkOptions o = parse(cl);
    // yarngnn.local as written: in a container there is no cluster configuration to decide it again.
    return new TopkOptions(o.embeddings, o.k, o.output, o.queries, o.candidates, o.exclude, o.truth, o.metrics,
        o.workers, o.workerMemoryMb, o.workerVcores, o.queue, o.name, o.overwrite, o.outputFormat,
        cl.flag("local"), o.candidateBlock, o.roundTimeoutSeconds, o.verbose, o.workDir);
  }

  /** How an {@code infer} output is read: id, embedding and perhaps prediction; no split column. */
  public static org.yarngnn.io.table.TableReadOptions embeddingColumns() {
    return org.yarngnn.io.table.TableReadOptions.builder().featuresColumn("embedding").labelColumn("prediction")
        .splitColumn("_no_split_column").build();
  }

  /** The output's columns, as docs/commands.md, "topk", fixes them. */
  public static List<org.yarngnn.io.table.ColumnSpec> columns() {
    return List.of(org.yarngnn.io.table.ColumnSpec.int64("query"), org.yarngnn.io.table.ColumnSpec.int32("rank"),
        org.yarngnn.io.table.ColumnSpec.int64("candidate"), org.yarngnn.io.table.ColumnSpec.float32("score"));
  }
}
