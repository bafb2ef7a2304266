package org.yarngnn.app.topk;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.JobOptions;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.compute.retrieval.ExactTopK;
import org.yarngnn.io.table.TableFormat;

/**
 * The options of {@code topk} (CONTRACT.md "Retrieval"), parsed and checked once. A YARN job carries them to the
 * ApplicationMaster and the workers as {@code job.xml}: every option under its documented key
 * {@code yarngnn.OPTION} ({@link #toConfiguration}), read back by the same parser ({@link #fromConfiguration}), so
 * a container refuses what the client would.
 */
public record TopkOptions(String embeddings, int k, String output, String queries, String candidates,
    String exclude, String truth, String metrics, int workers, int workerMemoryMb, int workerVcores, String queue,
    String name, boolean overwrite, TableFormat outputFormat, boolean local, int candidateBlock,
    long roundTimeoutSeconds, boolean verbose, String workDir) {
  /** Internal: the output commit's work directory, where each worker writes its part file. */
  public static final String WORK_DIR_KEY = CommandLine.KEY_PREFIX + "job.work-dir";
  /**
   * The largest K: a query's heap holds K scores and ids (12 bytes each), and a list longer than this is an
   * export of the whole table rather than retrieval.
   */
  public static final int MAX_K = 100_000;
  static final int DEFAULT_ROUND_TIMEOUT_SECONDS = 24 * 3600;

  public static OptionSpec optionSpec() {
    return JobOptions.common(new OptionSpec("topk", "--embeddings DIR --k K --output DIR [--queries TABLE] "
        + "[--candidates TABLE] [--exclude EDGES] [--truth EDGES]"))
        .value("embeddings", "DIR", "an infer output: columns id, embedding")
        .value("k", "K", "candidates per query (1.." + MAX_K + ")")
        .value("output", "DIR", "where the (query, rank, candidate, score) rows go")
        .value("queries", "TABLE", "ids (column id) to retrieve for (default: every id of --embeddings)")
        .value("candidates", "TABLE", "ids (column id) that may be retrieved (default: every id of --embeddings)")
        .value("exclude", "EDGES", "(src = query, dst = candidate) pairs never to return, e.g. the training edges")
        .value("truth", "EDGES", "held-out (src = query, dst = candidate) pairs: print recall@K, ndcg@K, "
            + "hit_rate@K and mrr")
        .value("candidate-block", "N", "candidates scored per block (default " + ExactTopK.DEFAULT_CANDIDATE_BLOCK
            + "): bounds a worker's memory whatever the candidate count")
        .value("metrics", "FILE", "also write a JSON summary of the run (and the --truth metrics)")
        .value("round-timeout", "SECONDS", "time limit of the retrieval on all workers (default "
            + DEFAULT_ROUND_TIMEOUT_SECONDS + ")")
        .flag("dry-run", "check the tables, print the plan, run nothing, write nothing")
        .flag("verbose", "stack traces on failure");
  }

  public static TopkOptions parse(CommandLine cl) {
    int k = cl.getInt("k", 0, 0);
    if (!cl.has("k")) {
      throw new UsageException("topk needs --k");
    }
    if (k < 1 || k > MAX_K) {
      throw new UsageException("option --k must be between 1 and " + MAX_K + ", not " + k);
    }
    String format = cl.get("output-format", "parquet");
    TableFormat outputFormat = format.equalsIgnoreCase("orc") ? TableFormat.ORC
        : format.equalsIgnoreCase("parquet") ? TableFormat.PARQUET : null;
    if (outputFormat == null) {
      throw new UsageException("option --output-format is parquet or orc, not '" + format + "'");
    }
    int block = cl.getInt("candidate-block", ExactTopK.DEFAULT_CANDIDATE_BLOCK, 1);
    if (block > 1 << 20) {
      throw new UsageException("option --candidate-block must be at most " + (1 << 20) + ", not " + block);
    }
    long timeout = cl.getLong("round-timeout", DEFAULT_ROUND_TIMEOUT_SECONDS);
    if (timeout < 1) {
      throw new UsageException("option --round-timeout must be at least 1 (seconds), not " + timeout);
    }
    return new TopkOptions(cl.require("embeddings"), k, cl.require("output"), cl.get("queries"),
        cl.get("candidates"), cl.get("exclude"), cl.get("truth"), cl.get("metrics"),
        cl.has("workers") ? cl.getInt("workers", 1, 1) : 0,
        cl.getInt("worker-memory", 1024, 128), cl.getInt("worker-vcores", 1, 1), cl.get("queue", "default"),
        cl.get("name", "yarn-gnn-topk"), cl.flag("overwrite"), outputFormat, JobOptions.runLocally(cl), block,
        timeout, cl.flag("verbose"), cl.conf().getTrimmed(WORK_DIR_KEY));
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
    set(c, "embeddings", embeddings);
    set(c, "k", Integer.toString(k));
    set(c, "output", output);
    set(c, "queries", queries);
    set(c, "candidates", candidates);
    set(c, "exclude", exclude);
    set(c, "truth", truth);
    set(c, "metrics", metrics);
    set(c, "workers", Integer.toString(workers));
    set(c, "worker-memory", Integer.toString(workerMemoryMb));
    set(c, "worker-vcores", Integer.toString(workerVcores));
    set(c, "queue", queue);
    set(c, "name", name);
    set(c, "overwrite", Boolean.toString(overwrite));
    set(c, "output-format", outputFormat.extension());
    set(c, "local", Boolean.toString(local));
    set(c, "candidate-block", Integer.toString(candidateBlock));
    set(c, "round-timeout", Long.toString(roundTimeoutSeconds));
    set(c, "verbose", Boolean.toString(verbose));
    if (workDir != null) {
      c.set(WORK_DIR_KEY, workDir);
    }
    return c;
  }

  private static void set(Configuration c, String option, String value) {
    if (value != null) {
      c.set(CommandLine.KEY_PREFIX + option, value);
    }
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

  /** The output's columns, as CONTRACT.md "Retrieval" fixes them. */
  public static List<org.yarngnn.io.table.ColumnSpec> columns() {
    return List.of(org.yarngnn.io.table.ColumnSpec.int64("query"), org.yarngnn.io.table.ColumnSpec.int32("rank"),
        org.yarngnn.io.table.ColumnSpec.int64("candidate"), org.yarngnn.io.table.ColumnSpec.float32("score"));
  }
}
