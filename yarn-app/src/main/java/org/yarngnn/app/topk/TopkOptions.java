package org.yarngnn.app.topk;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.JobOptions;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.compute.retrieval.ExactTopK;

/**
 * The options of {@code topk} (docs/commands.md, "topk"), parsed and checked once: its own and the containers'
 * ({@link GraphJobOptions#JOB}). A YARN job carries them to the ApplicationMaster and the workers as
 * {@code job.xml}: every option under its documented key {@code yarngnn.OPTION} ({@link #toConfiguration}), read
 * back by the same parser ({@link #fromConfiguration}), so a container refuses what the client would.
 */
public final class TopkOptions extends CommandOptions<TopkOptions> {
  /**
   * The largest K: a query's heap holds K scores and ids (12 bytes each), and a list longer than this is an
   * export of the whole table rather than retrieval.
   */
  public static final int MAX_K = 100_000;

  public static final Option<String> EMBEDDINGS = Option.text("embeddings", "DIR", null,
      "an infer output: columns id, embedding");
  public static final Option<Long> K = Option.whole("k", "K", null, 1, MAX_K, "candidates per query (1.." + MAX_K
      + ")");
  public static final Option<String> OUTPUT = GraphJobOptions.OUTPUT.withHelp(
      "where the (query, rank, candidate, score) rows go");
  public static final Option<String> QUERIES = Option.text("queries", "TABLE", null,
      "ids (column id) to retrieve for (default: every id of --embeddings)");
  public static final Option<String> CANDIDATES = Option.text("candidates", "TABLE", null,
      "ids (column id) that may be retrieved (default: every id of --embeddings)");
  public static final Option<String> EXCLUDE = Option.text("exclude", "EDGES", null,
      "(src = query, dst = candidate) pairs never to return, e.g. the training edges");
  public static final Option<String> TRUTH = Option.text("truth", "EDGES", null, "held-out (src = query, dst = "
      + "candidate) pairs: print recall@K, ndcg@K, hit_rate@K and mrr");
  public static final Option<Long> CANDIDATE_BLOCK = Option.whole("candidate-block", "N",
      (long) ExactTopK.DEFAULT_CANDIDATE_BLOCK, 1, 1 << 20, "candidates scored per block (default {default}): "
      + "bounds a worker's memory whatever the candidate count");
  public static final Option<String> METRICS = GraphJobOptions.METRICS.withHelp(
      "also write a JSON summary of the run (and the --truth metrics)");
  /** A retrieval is one phase over every candidate: its limit is a day, not a layer's hour. */
  public static final Option<Long> ROUND_TIMEOUT = GraphJobOptions.ROUND_TIMEOUT.withDefault(24 * 3600L)
      .withHelp("time limit of the retrieval on all workers (default {default})");
  public static final Option<Boolean> DRY_RUN = GraphJobOptions.DRY_RUN.withHelp(
      "check the tables, print the plan, run nothing, write nothing");
  public static final Option<Boolean> VERBOSE = GraphJobOptions.VERBOSE.withHelp("stack traces on failure");
  public static final Option<String> NAME = GraphJobOptions.NAME.withDefault("yarn-gnn-topk");
  /** Topk's own options, beside the containers' ({@link GraphJobOptions#JOB}). */
  static final List<Option<?>> DECLARED = List.of(EMBEDDINGS, K, OUTPUT, QUERIES, CANDIDATES, EXCLUDE, TRUTH,
      CANDIDATE_BLOCK, METRICS, ROUND_TIMEOUT, DRY_RUN, VERBOSE);

  private TopkOptions(Builder<TopkOptions> b) {
    super(b);
  }

  public static OptionSpec optionSpec() {
    OptionSpec spec = JobOptions.kerberos(new OptionSpec("topk", "--embeddings DIR --k K --output DIR "
        + "[--queries TABLE] [--candidates TABLE] [--exclude EDGES] [--truth EDGES]"));
    return CommandOptions.declare(CommandOptions.declare(spec, GraphJobOptions.JOB), DECLARED);
  }

  public static TopkOptions parse(CommandLine cl) {
    return read(cl).set(GraphJobOptions.LOCAL, JobOptions.runLocally(cl)).build();
  }

  /** What {@link #toConfiguration} wrote, parsed as a command line is (in the AM and the worker containers). */
  public static TopkOptions fromConfiguration(Configuration conf) {
    // yarngnn.local as written: in a container there is no cluster configuration to decide it again.
    return read(CommandLine.parse(optionSpec(), new String[0], conf)).build();
  }

  private static Builder<TopkOptions> read(CommandLine cl) {
    if (!cl.has("k")) {
      throw new UsageException("topk needs --k");
    }
    return new Builder<TopkOptions>("topk", CommandOptions.concat(GraphJobOptions.JOB.stream()
        .map(o -> o.equals(NAME) ? NAME : o).toList(), DECLARED, List.of(GraphJobOptions.WORK_DIR)), b -> {
          b.require(EMBEDDINGS);
          b.require(OUTPUT);
          return new TopkOptions(b);
        }).read(cl);
  }

  /** The tables this job reads, as (option, path) pairs for the overlap checks; absent ones are null. */
  public Object[] inputs() {
    return new Object[] {"--embeddings", get(EMBEDDINGS), "--queries", get(QUERIES), "--candidates",
        get(CANDIDATES), "--exclude", get(EXCLUDE), "--truth", get(TRUTH)};
  }

  /** Every path the job reads or writes (for the delegation tokens of a YARN job). */
  public String[] accessedPaths() {
    return new String[] {get(EMBEDDINGS), get(QUERIES), get(CANDIDATES), get(EXCLUDE), get(TRUTH), get(OUTPUT),
        get(GraphJobOptions.WORK_DIR), get(METRICS)};
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
