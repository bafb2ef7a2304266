package org.yarngnn.app.runtime;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Hello;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.PeerTable;
import org.yarngnn.app.transport.TransportServer;
import org.yarngnn.io.table.InputException;

/**
 * A driver's side of the protocol, whatever the job computes: a small registry where every worker reports the
 * port it bound ({@link Hello}), the peer table, then barrier rounds ({@link PhaseCommand} out, one
 * {@link PhaseDone} from every worker back, under the round timeout), with every failure mapped to the exception
 * the job ends with (a worker's bad input to {@link InputException}, a lost worker or anything else to an
 * {@link IllegalStateException} naming the worker and phase). Inference and training drive their workers
 * through it.
 */
public final class DriverSession implements AutoCloseable {
  /**
   * Progress of the job (0..1) with a short status, for the client's progress line or YARN's; the other methods
   * feed the ApplicationMaster's job page and do nothing elsewhere. They run on the driver's thread: keep them
   * quick.
   */
  @FunctionalInterface
  public interface Progress {
    void report(float fraction, String status);

    /**
     * Worker {@code worker} answered {@code command} with {@code result} and its {@code gauges} (see
     * {@link WorkerSession.Role#gauges}), {@code seconds} after it was sent.
     */
    default void answered(PhaseCommand command, int worker, PhaseResult result, java.util.Map<String, Double> gauges,
        double seconds) {}

    /** A training epoch's figures, as metrics.json lists them. */
    default void epoch(java.util.Map<String, Object> figures) {}

    /** The remote tensor backend's pool: its size now and its sizes so far ({@code seconds}, {@code size}). */
    default void tensorPool(int size, List<java.util.Map<String, Object>> timeline) {}
  }

  private static final long REGISTER_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(10);

  private final String host;
  private final WorkerLauncher launcher;
  private final long roundTimeoutSeconds;
  private final Progress progress;
  private final PrintStream log;
  private final InboundQueue inbox = new InboundQueue();
  private final TransportServer server;
  private PeerConnection[] workers;
  private List<Endpoint> endpoints;
  private int survivorGeneration;

  /**
   * A driver listening on {@code transport}'s host, its connections authenticated with the job's secret as
   * {@link Participants#DRIVER}.
   */
  public DriverSession(MessageCodec codec, JobTransport transport, WorkerLauncher launcher, long roundTimeoutSeconds,
      Progress progress, PrintStream log) throws Exception {
    this.host = transport.host();
    this.launcher = launcher;
    this.roundTimeoutSeconds = roundTimeoutSeconds;
    this.progress = progress;
    this.log = log;
    this.server = new TransportServer(transport.options(codec, Participants.DRIVER), inbox);
    server.start();
  }

  /** Launches {@code p} workers, waits until each registered, and sends every one the peer table. */
  public void start(int p) throws Exception {
    launcher.launch(host, server.port(), p);
    report(0.01f, "waiting for " + p + " workers");
    workers = new PeerConnection[p];
    endpoints = register(p, new Endpoint[p], 0);
    sendPeerTable();
  }

  private void sendPeerTable() throws Exception {
    for (PeerConnection c : workers) {
      c.sendBlocking(new PeerTable(endpoints));
    }
  }

  /**
   * How a driver of a later ApplicationMaster attempt takes over the workers an earlier attempt left running:
   * where it announces itself, how many may come back, how long it waits for them, and what becomes of the
   * containers that did not come back.
   */
  public interface Adoption {
    /** Publishes where this driver listens (the survivors poll for it: {@link DriverEndpoint}). */
    void announce(String host, int port) throws Exception;

    /** How many workers of the earlier attempt may come back (their containers still ran at registration). */
    int candidates();

    /** The longest wait for them. */
    long waitMillis();

    /** The containers of the survivors taken over (their ids as they said); the others may be released. */
    void adopted(java.util.Set<String> containers) throws Exception;
  }

  /**
   * As {@link #start}, taking over the surviving workers of an earlier ApplicationMaster attempt first: announces
   * this driver, waits (at most {@link Adoption#waitMillis}, less once every candidate came back) for their Hellos
   * as {@link Hello.Survivor}s, then launches workers only for the missing indices
   * ({@link WorkerLauncher#launch(String, int, int, int[])}). A survivor that comes later is refused. Returns the
   * indices taken over.
   */
  public java.util.SortedSet<Integer> start(int p, Adoption adoption) throws Exception {
    adoption.announce(host, server.port());
    workers = new PeerConnection[p];
    Endpoint[] eps = new Endpoint[p];
    java.util.TreeSet<Integer> adopted = new java.util.TreeSet<>();
    java.util.TreeSet<Integer> from = new java.util.TreeSet<>();
    java.util.Map<Integer, String> containers = new java.util.HashMap<>();
    long t0 = System.nanoTime();
    if (adoption.candidates() > 0) {
      report(0.01f, "waiting for up to " + adoption.candidates() + " workers of the previous attempt");
    }
    long until = System.currentTimeMillis() + adoption.waitMillis();
    while (adopted.size() < Math.min(p, adoption.candidates()) && System.currentTimeMillis() < until) {
      InboundQueue.Event ev = inbox.poll(200, TimeUnit.MILLISECONDS);
      if (ev == null) {
        continue;
      }
      PeerConnection c = ev.connection();
      int w = indexOf(c);
      if (ev.isClose() && w >= 0) {
        // A survivor gone again before the job went on: its index is launched anew.
        log.println("yarn-gnn: survivor worker " + w + " left before it was taken over");
        workers[w] = null;
        eps[w] = null;
        adopted.remove(w);
        containers.remove(w);
      } else if (ev.message() instanceof WorkerFailure f && w >= 0) {
        throw failure(f);
      } else if (ev.message() instanceof Hello h && h.survivor() != null && acceptable(h, c, p)) {
        workers[h.workerIndex()] = c;
        eps[h.workerIndex()] = h.endpoint();
        adopted.add(h.workerIndex());
        from.add(h.survivor().attempt());
        containers.put(h.workerIndex(), h.survivor().container());
        survivorGeneration = Math.max(survivorGeneration, h.survivor().generation());
      } else if (!ev.isClose()) {
        refuse(c, "unexpected registration of a survivor " + ev.message() + " from '" + c.peerIdentity() + "'");
      }
    }
    adoption.adopted(java.util.Set.copyOf(containers.values()));
    int[] missing = new int[p - adopted.size()];
    for (int w = 0, m = 0; w < p; w++) {
      if (!adopted.contains(w)) {
        missing[m++] = w;
      }
    }
    log.printf(java.util.Locale.ROOT, "yarn-gnn: adopted workers %s from attempt %s in %.1f s; launching %s%n",
        adopted, from.isEmpty() ? "-" : from.size() == 1 ? from.first().toString() : from.toString(),
        (System.nanoTime() - t0) / 1e9, missing.length == 0 ? "none" : "workers " + java.util.Arrays.toString(missing));
    if (missing.length > 0) {
      launcher.launch(host, server.port(), p, missing);
      report(0.01f, "waiting for " + missing.length + " workers");
    }
    endpoints = register(p, eps, adopted.size());
    sendPeerTable();
    return java.util.Collections.unmodifiableSortedSet(adopted);
  }

  /** The highest mesh generation an adopted worker had connected at (0 when none was adopted). */
  public int survivorGeneration() {
    return survivorGeneration;
  }

  public int workers() {
    return workers.length;
  }

  /** Sends {@code m} to every worker, in worker order (before the next command, on the same connections). */
  public void broadcast(Message m) throws Exception {
    for (PeerConnection c : workers) {
      c.sendBlocking(m);
    }
  }

  /**
   * Waits until every worker not registered yet ({@code registered} of {@code p} are) said Hello once, each from
   * its own connection and with the index that connection proved in its handshake. Anything else from a
   * connection that has not registered (a survivor of an earlier attempt too) is refused: that connection is
   * closed and the job goes on. Returns the endpoints by index.
   */
  private List<Endpoint> register(int p, Endpoint[] eps, int registered) throws Exception {
    long deadline = System.currentTimeMillis() + REGISTER_TIMEOUT_MS;
    while (registered < p) {
      InboundQueue.Event ev = next(deadline, Phase.JOB);
      if (ev == null) {
        continue;
      }
      PeerConnection c = ev.connection();
      if (ev.message() instanceof Hello h && !Participants.worker(h.workerIndex()).equals(c.peerIdentity())) {
        refuse(c, "Hello as worker " + h.workerIndex() + " from a connection authenticated as '" + c.peerIdentity()
            + "'");
      } else if (ev.message() instanceof Hello h && h.survivor() == null && acceptable(h, c, p)) {
        workers[h.workerIndex()] = c;
        eps[h.workerIndex()] = h.endpoint();
        registered++;
      } else {
        refuse(c, "unexpected registration " + ev.message() + " from '" + c.peerIdentity() + "'");
      }
    }
    return List.of(eps);
  }

  /** Whether {@code h} names a free index in range, the one its connection proved, from no registered one. */
  private boolean acceptable(Hello h, PeerConnection c, int p) {
    return Participants.worker(h.workerIndex()).equals(c.peerIdentity()) && h.workerIndex() >= 0
        && h.workerIndex() < p && workers[h.workerIndex()] == null && indexOf(c) < 0;
  }

  private int indexOf(PeerConnection c) {
    for (int w = 0; workers != null && w < workers.length; w++) {
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
   * An answer to another phase, a second answer, an answer {@code expected} refuses, or a message from an
   * unregistered connection is refused. {@code label} names the round in progress lines.
   */
  public List<PhaseResult> round(PhaseCommand command, float after, String label,
      BiPredicate<PhaseCommand, PhaseResult> expected) throws Exception {
    return round(command, after, label, expected, null);
  }

  /** Takes a worker's message that is not a round's answer (training's per-epoch reports). */
  @FunctionalInterface
  public interface WorkerMessages {
    /** Handles {@code m} from worker {@code worker}; throws to end the job (a message it does not expect). */
    void accept(int worker, Message m) throws Exception;
  }

  /**
   * As {@link #round(PhaseCommand, float, String, BiPredicate)}, with the workers' other messages while the
   * round lasts handed to {@code others} in arrival order (null: none are expected); each one restarts the round
   * timeout, which then bounds the time without any news rather than the whole round.
   */
  public List<PhaseResult> round(PhaseCommand command, float after, String label,
      BiPredicate<PhaseCommand, PhaseResult> expected, WorkerMessages others) throws Exception {
    report(after - 0.01f, label);
    broadcast(command);
    long sent = System.nanoTime();
    PhaseResult[] answers = new PhaseResult[workers.length];
    long deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(roundTimeoutSeconds);
    for (int done = 0; done < workers.length; ) {
      InboundQueue.Event ev = next(Long.MAX_VALUE, command.phase());
      if (ev == null) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException(command.phase().label() + " did not finish within "
              + roundTimeoutSeconds + " s (--round-timeout) on " + unanswered(answers));
        }
        continue;
      }
      int w = indexOf(ev.connection());
      if (w < 0) {
        refuse(ev.connection(), "message before registration: " + ev.message());
        continue;
      }
      if (others != null && !(ev.message() instanceof PhaseDone)) {
        others.accept(w, ev.message());
        deadline = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(roundTimeoutSeconds);
        continue;
      }
      if (!(ev.message() instanceof PhaseDone d) || d.phase() != command.phase() || d.layer() != command.layer()
          || answers[w] != null || !expected.test(command, d.result())) {
        throw new IllegalStateException("worker " + w + " answered " + command.phase() + " with " + ev.message());
      }
      answers[w] = d.result();
      done++;
      if (progress != null) {
        progress.answered(command, w, d.result(), d.gauges(), (System.nanoTime() - sent) / 1e9);
      }
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
      throw new WorkerLostException("a worker failed during " + phase.label() + ": " + launcher.failure().get());
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
      throw new WorkerLostException("lost worker " + indexOf(ev.connection()) + " during " + phase.label()
          + (ev.cause() == null ? "" : ": " + ev.cause().getMessage()));
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
    String text = "worker " + f.worker() + " (" + f.phase().label() + "): " + f.message();
    return f.kind() == FailureKind.WORKER_LOST ? new WorkerLostException(text) : new IllegalStateException(text);
  }

  public void report(float fraction, String status) {
    if (progress != null) {
      progress.report(fraction, status);
    }
  }

  // ---- for WorkerRecovery, which runs the rounds of a job that replaces lost workers ----

  /** Passes worker {@code w}'s answer on to the job page, as {@link #round} does. */
  void answered(PhaseCommand command, int w, PhaseDone d, long sentNanos) {
    if (progress != null) {
      progress.answered(command, w, d.result(), d.gauges(), (System.nanoTime() - sentNanos) / 1e9);
    }
  }

  InboundQueue inbox() {
    return inbox;
  }

  long roundTimeoutSeconds() {
    return roundTimeoutSeconds;
  }

  PrintStream log() {
    return log;
  }

  /** Worker {@code w}'s registered connection; null while it is lost and not yet replaced. */
  PeerConnection worker(int w) {
    return workers[w];
  }

  /** The index of a registered worker's connection, or -1. */
  int workerOf(PeerConnection c) {
    return indexOf(c);
  }

  /** Forgets lost worker {@code w}'s connection (its messages are no longer a registered worker's). */
  void forget(int w) {
    workers[w] = null;
  }

  /** Registers {@code c} as worker {@code w}'s replacement, listening at {@code endpoint}. */
  void replace(int w, PeerConnection c, Endpoint endpoint) {
    workers[w] = c;
    Endpoint[] eps = endpoints.toArray(new Endpoint[0]);
    eps[w] = endpoint;
    endpoints = List.of(eps);
  }

  List<Endpoint> endpoints() {
    return endpoints;
  }

  void refuseConnection(PeerConnection c, String why) {
    refuse(c, why);
  }

  static RuntimeException asFailure(WorkerFailure f) {
    return failure(f);
  }

  @Override
  public void close() {
    server.close();
  }
}
