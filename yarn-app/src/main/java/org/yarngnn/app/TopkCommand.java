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
    PathOverlap.check(conf, "--output", o.output(), o.inputs());
    RunMetrics.check(conf, o.metrics(), o.output(), o.inputs());
    long rows = validate(conf, o);
    if (cl.flag("dry-run")) {
      printPlan(out, o, rows, conf);
      return Main.OK;
    }
    return o.local() ? runLocal(conf, o, out) : runOnYarn(conf, o, out);
  }

  /**
   * What can be refused before anything runs: each table opens with the columns it needs, and K is at most the
   * candidate count where a footer says it exactly. Returns the embeddings' row count (exact for Parquet/ORC).
   */
  static long validate(Configuration conf, TopkOptions o) {
    NodeTable e = NodeTable.open(conf, o.embeddings(), TopkOptions.embeddingColumns());
    long rows = e.countHint();
    boolean exact = true;
    for (int i = 0; i < e.files().size(); i++) {
      exact &= e.exactRows(i) >= 0;
    }
    if (o.queries() != null) {
      IdTable.open(conf, o.queries(), TableReadOptions.builder().build(), "queries");
    }
    if (o.candidates() != null) {
      IdTable c = IdTable.open(conf, o.candidates(), TableReadOptions.builder().build(), "candidates");
      if (c.exactRows(0) >= 0 && c.files().size() == 1 && o.k() > c.countHint()) {
        throw new InputException("--k " + o.k() + " is more than the " + c.countHint() + " rows of --candidates "
            + o.candidates());
      }
    } else if (exact && o.k() > rows) {
      throw new InputException("--k " + o.k() + " is more than the " + rows + " candidates (rows of --embeddings "
          + o.embeddings() + ")");
    }
    if (o.exclude() != null) {
      EdgeTable.open(conf, o.exclude(), TableReadOptions.builder().build());
    }
    if (o.truth() != null) {
      EdgeTable.open(conf, o.truth(), TableReadOptions.builder().build());
    }
    return rows;
  }

  private static void printPlan(PrintStream out, TopkOptions o, long rows, Configuration conf) {
    int workers = o.workers() == 0 ? (o.local() ? 1 : 2) : o.workers();
    NodeTable e = NodeTable.open(conf, o.embeddings(), TopkOptions.embeddingColumns());
    int width = e.featureWidth();
    long queriesPerWorker = (rows + workers - 1) / workers;
    long bytes = ExactTopK.heapBytes(queriesPerWorker, o.k()) + queriesPerWorker * width * 4L
        + ExactTopK.blockBytes(o.candidateBlock(), width, 2);
    out.printf(Locale.ROOT, "yarn-gnn topk: plan: --embeddings %s: %,d rows of width %d; top %d per query%n",
        o.embeddings(), rows, width, o.k());
    out.printf(Locale.ROOT, "yarn-gnn topk: plan: %d %s, queries hashed over them, each reading the candidates"
        + " in blocks of %,d rows; about %,d queries and %,d MB of lists, query rows and blocks per worker "
        + "(at most all rows as queries)%n", workers, o.local() ? "worker threads" : "worker containers of "
        + o.workerMemoryMb() + " MB", o.candidateBlock(), queriesPerWorker, bytes >> 20);
    out.printf(Locale.ROOT, "yarn-gnn topk: plan: %.1f GFLOP of scoring at most (every row against every row)%n",
        2.0 * rows * rows * width / 1e9);
    out.println("yarn-gnn topk: dry run: nothing was run or written");
  }

  private int runLocal(Configuration conf, TopkOptions o, PrintStream out) throws Exception {
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.output()), o.overwrite()).abortOnExit();
    try {
      TopkOptions job = o.with(o.workers() == 0 ? 1 : o.workers(), commit.workDir().toString());
      JobTransport transport = JobTransport.local(conf);
      TopkDriver.Result r;
      try (WorkerLauncher launcher = TopkDriver.threadWorkers(conf, job, transport)) {
        r = new TopkDriver(job, transport, launcher, null, out).run();
      }
      commit.commit();
      if (o.metrics() != null) {
        RunMetrics.writeOrWarn(conf, o.metrics(), r.summary(), out, "topk");
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
    TopkOptions qualified = o.withTables(JobCommands.onCluster(conf, o.embeddings(), "embeddings"),
        o.queries() == null ? null : JobCommands.onCluster(conf, o.queries(), "queries"),
        o.candidates() == null ? null : JobCommands.onCluster(conf, o.candidates(), "candidates"),
        o.exclude() == null ? null : JobCommands.onCluster(conf, o.exclude(), "exclude"),
        o.truth() == null ? null : JobCommands.onCluster(conf, o.truth(), "truth"), o.output(), o.metrics());
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.output()), o.overwrite());
    try {
      TopkOptions job = qualified.withTables(qualified.embeddings(), qualified.queries(), qualified.candidates(),
          qualified.exclude(), qualified.truth(), commit.outputDir().toString(), qualified.metrics())
          .with(o.workers() == 0 ? 2 : o.workers(), commit.workDir().toString());
      JobSubmission submission = JobSubmission.builder().appName(job.name()).queue(job.queue())
          .jar(JobCommands.shippedJar(conf)).amMemoryMb(512).accesses(job.accessedPaths())
          .jobConf(job.toConfiguration()).driver(TopkJobDriver.class.getName(), List.of()).build();
      JobResult r = new YarnJobClient(conf, out).run(submission);
      if (!r.succeeded()) {
        throw JobCommands.failed(r);
      }
      out.printf("yarn-gnn topk: application %s SUCCEEDED: top %d in %s%n", r.applicationId(), job.k(),
          commit.outputDir());
      if (o.metrics() != null && o.truth() != null) {
        // The AM computed them; its --metrics file is where the client finds them.
        Object retrieval = readMetrics(conf, o.metrics()).get("retrieval");
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
