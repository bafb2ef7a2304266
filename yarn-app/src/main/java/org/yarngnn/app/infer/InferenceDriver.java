package org.yarngnn.app.infer;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.yarngnn.app.transport.Command;
import org.yarngnn.app.transport.Done;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Failure;
import org.yarngnn.app.transport.Hello;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.PeerTable;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.app.transport.TransportServer;
import org.yarngnn.io.InputException;
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
      broadcast(new PeerTable(endpoints));
      // Each worker has the job's options already (job.xml, or handed over with --local): it reads the model
      // and connects to its peers.
      round("job", 0, new byte[0], 0.02f);
      List<String> sizes;
      String ownershipText;
      if (spec.graph() != null) {
        // A partitioned graph: each worker loads its own partition's files; nothing is routed.
        sizes = round("load", 0, new byte[0], 0.35f);
        ownershipText = "from " + spec.graph();
      } else {
        Ownership own = route(p);
        ownershipText = own.toString();
        sizes = round("edges", 0, new byte[0], 0.35f);
      }
      long totalNodes = 0;
      long edges = 0;
      long halo = 0;
      long maxEdges = 0;
      StringBuilder perPartition = new StringBuilder();
      for (int w = 0; w < sizes.size(); w++) {
        String[] f = sizes.get(w).trim().split(" ");
        long n = Long.parseLong(f[0]);
        long m = Long.parseLong(f[1]);
        long h = Long.parseLong(f[2]);
        totalNodes += n;
        edges += m;
        halo += h;
        maxEdges = Math.max(maxEdges, m);
        perPartition.append(String.format(Locale.ROOT,
            "yarn-gnn infer:   partition %d: %,d nodes, %,d edges, halo %,d nodes per layer%n", w, n, m, h));
      }
      double mean = (double) edges / Math.max(1, sizes.size());
      log.printf(Locale.ROOT, "yarn-gnn infer: %d workers, ownership %s: %,d nodes, %,d edges, %,d halo rows, "
          + "edge balance max/mean %.3f%n%s", p, ownershipText, totalNodes, edges, halo,
          mean == 0 ? 1.0 : maxEdges / mean, perPartition);
      round("plan", 0, new byte[0], 0.40f);
      for (int k = 0; k < layers; k++) {
        round("layer", k, new byte[0], 0.40f + 0.5f * (k + 1) / layers);
      }
      round("write", 0, new byte[0], 0.95f);
      List<String> reports = round("exit", 0, new byte[0], 1f);
      List<Map<String, Double>> stats = new ArrayList<>();
      for (String r : reports) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (String line : r.split("\n")) {
          int eq = line.indexOf('=');
          if (eq > 0) {
            m.put(line.substring(0, eq), Double.parseDouble(line.substring(eq + 1)));
          }
        }
        stats.add(m);
      }
      return new Result(totalNodes, edges, halo, stats, (System.nanoTime() - t0) / 1e9);
    }
  }

  /** Reads the node files, chooses the ownership from the ids, and routes node rows to their owners. */
  private Ownership route(int p) throws Exception {
    List<String> counts = round("read-nodes", 0, new byte[0], 0.10f);
    long nodes = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (String c : counts) {
      String[] f = c.trim().split(" ");
      long n = Long.parseLong(f[0]);
      nodes += n;
      if (n > 0) {
        min = Math.min(min, Long.parseLong(f[1]));
        max = Math.max(max, Long.parseLong(f[2]));
      }
    }
    Ownership own = Ownership.choose(Ownership.Kind.byName(spec.ownership()), p, nodes, min, max);
    round("route-nodes", 0, own.toString().getBytes(StandardCharsets.UTF_8), 0.20f);
    return own;
  }

  private List<Endpoint> endpoints;

  private void register(int p) throws Exception {
    workers = new PeerConnection[p];
    Endpoint[] eps = new Endpoint[p];
    long deadline = System.currentTimeMillis() + REGISTER_TIMEOUT_MS;
    for (int registered = 0; registered < p; ) {
      Message m = next(deadline, "registration");
      if (m instanceof Hello h) {
        if (h.workerIndex() < 0 || h.workerIndex() >= p || workers[h.workerIndex()] != null) {
          throw new IllegalStateException("unexpected registration of worker " + h.workerIndex());
        }
        workers[h.workerIndex()] = lastConnection;
        eps[h.workerIndex()] = h.endpoint();
        registered++;
      } else {
        throw new IllegalStateException("unexpected message during registration: " + m);
      }
    }
    endpoints = List.of(eps);
  }

  private void broadcast(Message m) throws Exception {
    for (PeerConnection c : workers) {
      c.sendBlocking(m);
    }
  }

  /** Sends a command to every worker and waits until each answered Done; returns their payloads by index. */
  private List<String> round(String name, long arg, byte[] payload, float after) throws Exception {
    report(after - 0.01f, name + (name.equals("layer") ? " " + (arg + 1) + "/" + layers : ""));
    broadcast(new Command(name, arg, payload));
    Map<PeerConnection, Integer> indexOf = new HashMap<>();
    for (int w = 0; w < workers.length; w++) {
      indexOf.put(workers[w], w);
    }
    String[] answers = new String[workers.length];
    for (int done = 0; done < workers.length; ) {
      Message m = next(Long.MAX_VALUE, name);
      if (m instanceof Done d) {
        Integer w = indexOf.get(lastConnection);
        if (w != null && answers[w] == null) {
          answers[w] = new String(d.payload(), StandardCharsets.UTF_8);
          done++;
        }
      } else {
        throw new IllegalStateException("unexpected message in round " + name + ": " + m);
      }
    }
    report(after, name + (name.equals("layer") ? " " + (arg + 1) + "/" + layers : "") + " done");
    return List.of(answers);
  }

  private PeerConnection lastConnection;

  /** The next worker message; a worker's failure or lost connection becomes an exception. */
  private Message next(long deadline, String phase) throws Exception {
    while (true) {
      InboundQueue.Event ev = inbox.poll(200, TimeUnit.MILLISECONDS);
      if (launcher.failure().isDone() && (ev == null || ev.isClose())) {
        // Give a worker's own Failure report (more precise) a moment to arrive first.
        InboundQueue.Event late = inbox.poll(2, TimeUnit.SECONDS);
        if (late != null && late.message() instanceof Failure f) {
          throw failure(f.reason());
        }
        throw new IllegalStateException("a worker failed during " + phase + ": " + launcher.failure().get());
      }
      if (ev == null) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException("workers did not register within " + REGISTER_TIMEOUT_MS / 1000 + " s");
        }
        continue;
      }
      if (ev.isClose()) {
        if (!phase.equals("exit")) {
          InboundQueue.Event late = inbox.poll(2, TimeUnit.SECONDS);
          if (late != null && late.message() instanceof Failure f) {
            throw failure(f.reason());
          }
          throw new IllegalStateException("lost a worker during " + phase
              + (ev.cause() == null ? "" : ": " + ev.cause().getMessage()));
        }
        continue;
      }
      if (ev.message() instanceof Failure f) {
        throw failure(f.reason());
      }
      lastConnection = ev.connection();
      return ev.message();
    }
  }

  private static RuntimeException failure(String reason) {
    if (reason.startsWith("input: ")) {
      String msg = reason.substring("input: ".length());
      // Drop the "worker N: " prefix: the message already names the file and row.
      msg = msg.replaceFirst("^worker \\d+: ", "");
      return new InputException(msg);
    }
    return new IllegalStateException(reason.startsWith("error: ") ? reason.substring(7) : reason);
  }

  private void report(float fraction, String status) {
    if (progress != null) {
      progress.report(fraction, status);
    }
  }
}
