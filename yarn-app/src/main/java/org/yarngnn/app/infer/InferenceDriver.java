package org.yarngnn.app.infer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.yarngnn.app.runtime.FailureKind;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseDone;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WorkerFailure;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Hello;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.PeerTable;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.app.transport.TransportServer;
import org.yarngnn.io.table.InputException;
import org.yarngnn.partition.Ownership;

/**
 * Drives a distributed inference: a small registry where every worker reports the port it bound, the peer table,
 * then rounds with barriers (read nodes, route nodes, route edges and build, plan the exchange, one round per
 * layer, write). The same code runs inside the ApplicationMaster and, with {@code --local}, in the client JVM.
 */
public final class InferenceDriver {
  /** Progress of the job (0..1) with a short status, for the client's progress line or YARN's. */
  @FunctionalInterface
  public interface Progress {
    void report(float fraction, String status);
  }

  /** What the job did: per-worker figures (from their exit reports) and totals. */
  public record Result(long nodes, long edges, long halo, List<Map<String, Double>> workers, double seconds) {}

  private static final long REGISTER_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(10);

  private final InferOptions spec;
  private final String host;
  private final WorkerLauncher launcher;
  private final Progress progress;
  private final PrintStream log;
  private final InboundQueue inbox = new InboundQueue();
  private PeerConnection[] workers;
  private int layers;

  public InferenceDriver(InferOptions spec, String host, WorkerLauncher launcher, Progress progress,
      PrintStream log) {
    this.spec = spec;
    this.host = host;
    this.launcher = launcher;
    this.progress = progress;
    this.log = log;
  }

  /**
   * Runs the job to the point where every worker wrote its part file. Bad input found by a worker throws
   * {@link InputException}; any other failure an exception with the worker's reason.
   */
  public Result run(int layerCount) throws Exception {
    long t0 = System.nanoTime();
    this.layers = layerCount;
    TransportOptions options = TransportOptions.builder().codec(InferenceCodec.CODEC).build();
    try (TransportServer server = new TransportServer(options, inbox)) {
      server.start();
      int p = spec.workers();
      launcher.launch(host, server.port(), p);
      report(0.01f, "waiting for " + p + " workers");
      register(p);
      for (PeerConnection c : workers) {
        c.sendBlocking(new PeerTable(endpoints));
      }
      round(new PhaseCommand(Phase.JOB), 0.02f);
      List<PhaseResult> sizes;
      String ownershipText;
      if (spec.graph() != null) {
        // A partitioned graph: each worker loads its own partition's files; nothing is routed.
        sizes = round(new PhaseCommand(Phase.LOAD_PARTITION), 0.35f);
        ownershipText = "from " + spec.graph();
      } else {
        Ownership own = route(p);
        ownershipText = own.toString();
        sizes = round(new PhaseCommand(Phase.BUILD_EDGES), 0.35f);
      }
      long totalNodes = 0;
      long edges = 0;
      long halo = 0;
      long maxEdges = 0;
      StringBuilder perPartition = new StringBuilder();
      for (int w = 0; w < sizes.size(); w++) {
        PhaseResult.PartitionSizes s = (PhaseResult.PartitionSizes) sizes.get(w);
        totalNodes += s.nodes();
        edges += s.edges();
        halo += s.halo();
        maxEdges = Math.max(maxEdges, s.edges());
        perPartition.append(String.format(Locale.ROOT,
            "yarn-gnn infer:   partition %d: %,d nodes, %,d edges, halo %,d nodes per layer%n", w, s.nodes(),
            s.edges(), s.halo()));
      }
      double mean = (double) edges / Math.max(1, sizes.size());
      log.printf(Locale.ROOT, "yarn-gnn infer: %d workers, ownership %s: %,d nodes, %,d edges, %,d halo rows, "
          + "edge balance max/mean %.3f%n%s", p, ownershipText, totalNodes, edges, halo,
          mean == 0 ? 1.0 : maxEdges / mean, perPartition);
      round(new PhaseCommand(Phase.PLAN), 0.40f);
      for (int k = 0; k < layers; k++) {
        round(new PhaseCommand(Phase.LAYER, k, null), 0.40f + 0.5f * (k + 1) / layers);
      }
      round(new PhaseCommand(Phase.WRITE), 0.95f);
      List<Map<String, Double>> stats = new ArrayList<>();
      for (PhaseResult r : round(new PhaseCommand(Phase.EXIT), 1f)) {
        stats.add(((PhaseResult.WorkerReport) r).figures());
      }
      return new Result(totalNodes, edges, halo, stats, (System.nanoTime() - t0) / 1e9);
    }
  }

  /** Reads the node files, chooses the ownership from the ids, and routes node rows to their owners. */
  private Ownership route(int p) throws Exception {
    long nodes = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (PhaseResult r : round(new PhaseCommand(Phase.READ_NODES), 0.10f)) {
      PhaseResult.NodeCounts c = (PhaseResult.NodeCounts) r;
      nodes += c.count();
      if (c.count() > 0) {
        min = Math.min(min, c.minId());
        max = Math.max(max, c.maxId());
      }
    }
    Ownership own = Ownership.choose(Ownership.Kind.byName(spec.ownership()), p, nodes, min, max);
    round(new PhaseCommand(Phase.ROUTE_NODES, 0, own), 0.20f);
    return own;
  }

  private List<Endpoint> endpoints;

  /**
   * Waits until every worker said Hello once, each from its own connection. Anything else from a connection that
   * has not registered is refused: that connection is closed and the job goes on.
   */
  private void register(int p) throws Exception {
    workers = new PeerConnection[p];
    Endpoint[] eps = new Endpoint[p];
    long deadline = System.currentTimeMillis() + REGISTER_TIMEOUT_MS;
    for (int registered = 0; registered < p; ) {
      InboundQueue.Event ev = next(deadline, Phase.JOB);
      if (ev == null) {
        continue;
      }
      PeerConnection c = ev.connection();
      if (ev.message() instanceof Hello h && h.workerIndex() >= 0 && h.workerIndex() < p
          && workers[h.workerIndex()] == null && indexOf(c) < 0) {
        workers[h.workerIndex()] = c;
        eps[h.workerIndex()] = h.endpoint();
        registered++;
      } else {
        refuse(c, "unexpected registration " + ev.message());
      }
    }
    endpoints = List.of(eps);
  }

  private int indexOf(PeerConnection c) {
    for (int w = 0; w < workers.length; w++) {
      if (workers[w] == c) {
        return w;
      }
    }
    return -1;
  }

  private void refuse(PeerConnection c, String why) {
    log.println("yarn-gnn: closed connection " + c.remoteAddress() + ": " + why);
    c.close();
  }

  /**
   * Sends a command to every worker and waits until each answered it; returns their results by worker index.
   * An answer to another phase, a second answer, or a message from an unregistered connection is refused.
   */
  private List<PhaseResult> round(PhaseCommand command, float after) throws Exception {
    String label = GraphWorker.label(command.phase())
        + (command.phase() == Phase.LAYER ? " " + (command.layer() + 1) + "/" + layers : "");
    report(after - 0.01f, label);
    for (PeerConnection c : workers) {
      c.sendBlocking(command);
    }
    PhaseResult[] answers = new PhaseResult[workers.length];
    long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(spec.roundTimeoutSeconds());
    for (int done = 0; done < workers.length; ) {
      InboundQueue.Event ev = next(Long.MAX_VALUE, command.phase());
      if (ev == null) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException(GraphWorker.label(command.phase()) + " did not finish within "
              + spec.roundTimeoutSeconds() + " s (--round-timeout) on " + unanswered(answers));
        }
        continue;
      }
      int w = indexOf(ev.connection());
      if (w < 0) {
        refuse(ev.connection(), "message before registration: " + ev.message());
        continue;
      }
      if (!(ev.message() instanceof PhaseDone d) || d.phase() != command.phase() || d.layer() != command.layer()
          || answers[w] != null || !expected(command.phase(), d.result())) {
        throw new IllegalStateException("worker " + w + " answered " + command.phase() + " with " + ev.message());
      }
      answers[w] = d.result();
      done++;
    }
    report(after, label + " done");
    return List.of(answers);
  }

  /** "worker 1, worker 3": the workers that have not answered the current round. */
  private static String unanswered(PhaseResult[] answers) {
    StringBuilder sb = new StringBuilder();
    for (int w = 0; w < answers.length; w++) {
      if (answers[w] == null) {
        sb.append(sb.length() == 0 ? "worker " : ", worker ").append(w);
      }
    }
    return sb.toString();
  }

  /** Whether {@code r} is the kind of result {@code phase} answers with. */
  private static boolean expected(Phase phase, PhaseResult r) {
    switch (phase) {
      case READ_NODES: return r instanceof PhaseResult.NodeCounts;
      case BUILD_EDGES:
      case LOAD_PARTITION: return r instanceof PhaseResult.PartitionSizes;
      case EXIT: return r instanceof PhaseResult.WorkerReport;
      default: return r instanceof PhaseResult.Empty;
    }
  }

  /**
   * The next message from a connection (null after a short wait); a registered worker's failure or lost
   * connection becomes an exception. A closed unregistered connection is ignored.
   */
  private InboundQueue.Event next(long deadline, Phase phase) throws Exception {
    InboundQueue.Event ev = inbox.poll(200, TimeUnit.MILLISECONDS);
    if (launcher.failure().isDone() && (ev == null || ev.isClose())) {
      // Give a worker's own Failure report (more precise) a moment to arrive first.
      InboundQueue.Event late = inbox.poll(2, TimeUnit.SECONDS);
      if (late != null && late.message() instanceof WorkerFailure f && registered(late.connection())) {
        throw failure(f);
      }
      throw new IllegalStateException("a worker failed during " + GraphWorker.label(phase) + ": "
          + launcher.failure().get());
    }
    if (ev == null) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("workers did not register within " + REGISTER_TIMEOUT_MS / 1000 + " s");
      }
      return null;
    }
    if (!registered(ev.connection())) {
      return ev.isClose() ? null : ev;
    }
    if (ev.isClose()) {
      if (phase == Phase.EXIT) {
        return null;
      }
      InboundQueue.Event late = inbox.poll(2, TimeUnit.SECONDS);
      if (late != null && late.message() instanceof WorkerFailure f && registered(late.connection())) {
        throw failure(f);
      }
      throw new IllegalStateException("lost worker " + indexOf(ev.connection()) + " during "
          + GraphWorker.label(phase) + (ev.cause() == null ? "" : ": " + ev.cause().getMessage()));
    }
    if (ev.message() instanceof WorkerFailure f) {
      throw failure(f);
    }
    return ev;
  }

  private boolean registered(PeerConnection c) {
    return workers != null && indexOf(c) >= 0;
  }

  /** A worker's failure as the exception the job ends with: bad input, or a failure while running. */
  private static RuntimeException failure(WorkerFailure f) {
    if (f.kind() == FailureKind.BAD_INPUT) {
      // The message already names the file and row (or the option).
      return new InputException(f.message());
    }
    return new IllegalStateException("worker " + f.worker() + " (" + GraphWorker.label(f.phase()) + "): "
        + f.message());
  }

  private void report(float fraction, String status) {
    if (progress != null) {
      progress.report(fraction, status);
    }
  }
}
