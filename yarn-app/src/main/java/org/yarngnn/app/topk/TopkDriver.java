package org.yarngnn.app.topk;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.graphworker.ThreadWorkers;
import org.yarngnn.app.runtime.DriverSession;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.app.runtime.WorkerLauncher;
import org.yarngnn.compute.retrieval.RankingMetrics;

/**
 * The driver of a {@code topk} job, the same in the client ({@code --local}) and in the ApplicationMaster: starts
 * the workers through the shared {@link DriverSession}, runs one {@link Phase#RETRIEVE} round (each worker
 * writes its part) and the {@link Phase#EXIT} round, and adds up the workers' figures and metric sums. The caller
 * commits the output once this returns.
 */
public final class TopkDriver {
  /** What a run produced: rows written, the --truth metrics (null without), every worker's figures. */
  public record Result(long rows, long queries, Map<String, Double> metrics, List<Map<String, Double>> workers,
      double seconds) {
    /** The run's JSON summary: the runtime's common fields plus the retrieval's. */
    public Map<String, Object> summary() {
      Map<String, Object> m = RunMetrics.summary("topk", seconds, workers);
      m.put("queries", queries);
      m.put("rows", rows);
      if (metrics != null) {
        m.put("retrieval", new LinkedHashMap<String, Object>(metrics));
      }
      return m;
    }
  }

  private final TopkOptions options;
  private final JobTransport transport;
  private final WorkerLauncher launcher;
  private final DriverSession.Progress progress;
  private final PrintStream log;

  public TopkDriver(TopkOptions options, JobTransport transport, WorkerLauncher launcher,
      DriverSession.Progress progress, PrintStream log) {
    this.options = options;
    this.transport = transport;
    this.launcher = launcher;
    this.progress = progress;
    this.log = log;
  }

  /**
   * {@code --local}: the workers as threads of this JVM, on the driver's {@code transport} (its in-memory secret,
   * loopback).
   */
  public static WorkerLauncher threadWorkers(org.apache.hadoop.conf.Configuration conf, TopkOptions job,
      JobTransport transport) {
    return new ThreadWorkers(
        (index, host, port) -> TopkWorker.serve(conf, job, index, host, port, transport));
  }

  public Result run() throws Exception {
    long t0 = System.nanoTime();
    try (DriverSession session = new DriverSession(TopkWorker.CODEC, transport, launcher,
        options.get(TopkOptions.ROUND_TIMEOUT), progress, log)) {
      session.start(options.getInt(GraphJobOptions.WORKERS));
      List<PhaseResult> retrieved = session.round(new PhaseCommand(Phase.RETRIEVE), 0.95f, "retrieve",
          (c, r) -> r instanceof PhaseResult.WorkerReport);
      List<PhaseResult> exits = session.round(new PhaseCommand(Phase.EXIT), 0.99f, "exit",
          (c, r) -> r instanceof PhaseResult.WorkerReport);
      List<Map<String, Double>> workers = new ArrayList<>();
      long rows = 0;
      long queries = 0;
      RankingMetrics metrics = options.get(TopkOptions.TRUTH) == null ? null
          : new RankingMetrics(options.getInt(TopkOptions.K));
      for (int w = 0; w < retrieved.size(); w++) {
        Map<String, Double> f = new LinkedHashMap<>(((PhaseResult.WorkerReport) retrieved.get(w)).figures());
        ((PhaseResult.WorkerReport) exits.get(w)).figures().forEach((k, v) -> f.merge(k, v, Math::max));
        rows += Math.round(f.getOrDefault("rows", 0.0));
        queries += Math.round(f.getOrDefault("queries", 0.0));
        if (metrics != null) {
          metrics.addSums(f);
        }
        workers.add(f);
      }
      return new Result(rows, queries, metrics == null ? null : metrics.mean(), workers,
          (System.nanoTime() - t0) / 1e9);
    }
  }
}
