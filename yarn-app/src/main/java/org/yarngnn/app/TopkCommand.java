package org.yarngnn.app;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.app.runtime.WorkerLauncher;
import org.yarngnn.app.topk.TopkDriver;
import org.yarngnn.app.topk.TopkJobDriver;
import org.yarngnn.app.topk.TopkOptions;
import org.yarngnn.app.yarn.JobResult;
import org.yarngnn.app.yarn.JobSubmission;
import org.yarngnn.app.yarn.YarnJobClient;
import org.yarngnn.compute.retrieval.ExactTopK;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.IdTable;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.PathOverlap;
import org.yarngnn.io.table.TableReadOptions;

/**
 * {@code topk}: exact top-K candidates per query from an {@code infer} output, in one JVM ({@code --local}) or on
 * YARN; the workers run {@link org.yarngnn.app.topk} on the shared runtime.
 */
public final class TopkCommand implements Command {
  @Override
  public OptionSpec options() {
    return TopkOptions.optionSpec();
  }

  @Override
  public int run(CommandLine cl, PrintStream out) throws Exception {
    TopkOptions o = TopkOptions.parse(cl);
    Configuration conf = cl.conf();
    PathOverlap.check(conf, "--output", o.get(TopkOptions.OUTPUT), o.inputs());
    RunMetrics.check(conf, o.get(TopkOptions.METRICS), o.get(TopkOptions.OUTPUT), o.inputs());
    long rows = validate(conf, o);
    if (cl.flag("dry-run")) {
      printPlan(out, o, rows, conf);
      return Main.OK;
    }
    return o.get(GraphJobOptions.LOCAL) ? runLocal(conf, o, out) : runOnYarn(conf, o, out);
  }

  /**
   * What can be refused before anything runs: each table opens with the columns it needs, and K is at most the
   * candidate count where a footer says it exactly. Returns the embeddings' row count (exact for Parquet/ORC).
   */
  static long validate(Configuration conf, TopkOptions o) {
    NodeTable e = NodeTable.open(conf, o.get(TopkOptions.EMBEDDINGS), TopkOptions.embeddingColumns());
    long rows = e.countHint();
    boolean exact = true;
    for (int i = 0; i < e.files().size(); i++) {
      exact &= e.exactRows(i) >= 0;
    }
    if (o.get(TopkOptions.QUERIES) != null) {
      IdTable.open(conf, o.get(TopkOptions.QUERIES), TableReadOptions.builder().build(), "queries");
    }
    if (o.get(TopkOptions.CANDIDATES) != null) {
      IdTable c = IdTable.open(conf, o.get(TopkOptions.CANDIDATES), TableReadOptions.builder().build(), "candidates");
      if (c.exactRows(0) >= 0 && c.files().size() == 1 && o.getInt(TopkOptions.K) > c.countHint()) {
        throw new InputException("--k " + o.getInt(TopkOptions.K) + " is more than the " + c.countHint()
            + " rows of --candidates " + o.get(TopkOptions.CANDIDATES));
      }
    } else if (exact && o.getInt(TopkOptions.K) > rows) {
      throw new InputException("--k " + o.getInt(TopkOptions.K) + " is more than the " + rows
          + " candidates (rows of --embeddings "
          + o.get(TopkOptions.EMBEDDINGS) + ")");
    }
    if (o.get(TopkOptions.EXCLUDE) != null) {
      EdgeTable.open(conf, o.get(TopkOptions.EXCLUDE), TableReadOptions.builder().build());
    }
    if (o.get(TopkOptions.TRUTH) != null) {
      EdgeTable.open(conf, o.get(TopkOptions.TRUTH), TableReadOptions.builder().build());
    }
    return rows;
  }

  private static void printPlan(PrintStream out, TopkOptions o, long rows, Configuration conf) {
    int workers = o.getInt(GraphJobOptions.WORKERS) == 0 ? (o.get(GraphJobOptions.LOCAL) ? 1 : 2)
        : o.getInt(GraphJobOptions.WORKERS);
    NodeTable e = NodeTable.open(conf, o.get(TopkOptions.EMBEDDINGS), TopkOptions.embeddingColumns());
    int width = e.featureWidth();
    long queriesPerWorker = (rows + workers - 1) / workers;
    long bytes = ExactTopK.heapBytes(queriesPerWorker, o.getInt(TopkOptions.K)) + queriesPerWorker * width * 4L
        + ExactTopK.blockBytes(o.getInt(TopkOptions.CANDIDATE_BLOCK), width, 2);
    out.printf(Locale.ROOT, "yarn-gnn topk: plan: --embeddings %s: %,d rows of width %d; top %d per query%n",
        o.get(TopkOptions.EMBEDDINGS), rows, width, o.getInt(TopkOptions.K));
    out.printf(Locale.ROOT, "yarn-gnn topk: plan: %d %s, queries hashed over them, each reading the candidates"
        + " in blocks of %,d rows; about %,d queries and %,d MB of lists, query rows and blocks per worker "
        + "(at most all rows as queries)%n", workers, o.get(GraphJobOptions.LOCAL) ? "worker threads"
        : "worker containers of "
        + o.getInt(GraphJobOptions.WORKER_MEMORY) + " MB", o.getInt(TopkOptions.CANDIDATE_BLOCK), queriesPerWorker,
        bytes >> 20);
    out.printf(Locale.ROOT, "yarn-gnn topk: plan: %.1f GFLOP of scoring at most (every row against every row)%n",
        2.0 * rows * rows * width / 1e9);
    out.println("yarn-gnn topk: dry run: nothing was run or written");
  }

  private int runLocal(Configuration conf, TopkOptions o, PrintStream out) throws Exception {
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.get(TopkOptions.OUTPUT)),
        o.get(GraphJobOptions.OVERWRITE)).abortOnExit();
    try {
      TopkOptions job = o.toBuilder().set(GraphJobOptions.WORKERS, Math.max(1, o.getInt(GraphJobOptions.WORKERS)))
          .set(GraphJobOptions.WORK_DIR, commit.workDir().toString()).build();
      JobTransport transport = JobTransport.local(conf);
      TopkDriver.Result r;
      try (WorkerLauncher launcher = TopkDriver.threadWorkers(conf, job, transport)) {
        r = new TopkDriver(job, transport, launcher, null, out).run();
      }
      commit.commit();
      if (o.get(TopkOptions.METRICS) != null) {
        RunMetrics.writeOrWarn(conf, o.get(TopkOptions.METRICS), r.summary(), out, "topk");
      }
      JobCommands.printStats(out, "topk", r.workers());
      printMetrics(out, r.metrics());
      out.printf(Locale.ROOT, "yarn-gnn topk: wrote %,d rows for %,d queries to %s in %.1f s%n", r.rows(),
          r.queries(), commit.outputDir(), r.seconds());
      return Main.OK;
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    }
  }

  static void printMetrics(PrintStream out, Map<String, ?> metrics) {
    if (metrics == null) {
      return;
    }
    StringBuilder sb = new StringBuilder("yarn-gnn topk: truth:");
    metrics.forEach((k, v) -> sb.append(' ').append(k).append('=').append(k.equals("queries_with_truth")
        ? Long.toString(((Number) v).longValue()) : String.format(Locale.ROOT, "%.6f", ((Number) v).doubleValue())));
    out.println(sb);
  }

  /**
   * Submits the job to YARN: the tables must be on the cluster FileSystem; the ApplicationMaster runs the
   * driver, the workers run in containers, and the AM promotes the output.
   */
  private int runOnYarn(Configuration clientConf, TopkOptions o, PrintStream out) throws Exception {
    Configuration conf = new YarnConfiguration(clientConf);
    CommandOptions.Builder<TopkOptions> qualified = o.toBuilder();
    for (Option<String> table : List.of(TopkOptions.EMBEDDINGS, TopkOptions.QUERIES, TopkOptions.CANDIDATES,
        TopkOptions.EXCLUDE, TopkOptions.TRUTH)) {
      if (o.get(table) != null) {
        qualified.set(table, JobCommands.onCluster(conf, o.get(table), table.name()));
      }
    }
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.get(TopkOptions.OUTPUT)),
        o.get(GraphJobOptions.OVERWRITE));
    try {
      TopkOptions job = qualified.set(TopkOptions.OUTPUT, commit.outputDir().toString())
          .set(GraphJobOptions.WORKERS, o.getInt(GraphJobOptions.WORKERS) == 0 ? 2 : o.getInt(GraphJobOptions.WORKERS))
          .set(GraphJobOptions.WORK_DIR, commit.workDir().toString()).build();
      JobSubmission submission = JobSubmission.builder().appName(job.get(TopkOptions.NAME))
          .queue(job.get(GraphJobOptions.QUEUE))
          .jar(JobCommands.shippedJar(conf)).amMemoryMb(512).accesses(job.accessedPaths())
          .jobConf(job.toConfiguration()).driver(TopkJobDriver.class.getName(), List.of()).build();
      JobResult r = new YarnJobClient(conf, out).run(submission);
      if (!r.succeeded()) {
        throw JobCommands.failed(r);
      }
      commit.finish(); // the ApplicationMaster's done mark, kept until the job's outcome is known
      out.printf("yarn-gnn topk: application %s SUCCEEDED: top %d in %s%n", r.applicationId(),
          job.getInt(TopkOptions.K),
          commit.outputDir());
      if (o.get(TopkOptions.METRICS) != null && o.get(TopkOptions.TRUTH) != null) {
        // The AM computed them; its --metrics file is where the client finds them.
        Object retrieval = readMetrics(conf, o.get(TopkOptions.METRICS)).get("retrieval");
        if (retrieval instanceof Map<?, ?> m) {
          @SuppressWarnings("unchecked")
          Map<String, ?> typed = (Map<String, ?>) m;
          printMetrics(out, typed);
        }
      }
      return Main.OK;
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    }
  }

  private static Map<?, ?> readMetrics(Configuration conf, String file) {
    try (java.io.InputStream in = new Path(file).getFileSystem(conf).open(new Path(file))) {
      Object parsed = org.yarngnn.compute.json.Json.parse(new String(in.readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8));
      return parsed instanceof Map<?, ?> m ? m : Map.of();
    } catch (java.io.IOException | RuntimeException e) {
      return Map.of();
    }
  }
}
