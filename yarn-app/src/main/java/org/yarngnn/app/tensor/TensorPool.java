package org.yarngnn.app.tensor;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Failure;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.app.transport.TransportServer;

/**
 * The driver's side of the tensor-worker pool (in the ApplicationMaster on YARN): a service with its own
 * transport server where tensor workers join and fetch weight versions (the parameter server's front) and graph
 * workers subscribe to the member list. It launches workers through a {@link TensorLauncher}, replaces lost ones,
 * and grows and shrinks the pool on the workers' load reports ({@link PoolOptions}). It records the pool size
 * over time and the seconds each worker ran, for metrics.json. Its own thread serves the connections; the
 * lifecycle is {@link #start}, then {@link #close}.
 */
public final class TensorPool implements AutoCloseable {
  private static final long TICK_MS = 50;
  /** The pool shrinks when its workers were less busy than this fraction of a window on average. */
  static final double RETIRE_BELOW = 0.3;

  /** A point of the pool-size timeline. */
  public record SizeAt(double seconds, int size) {}

  private static final class Worker {
    final int id;
    final long launchedNanos = System.nanoTime();
    PeerConnection connection;
    Endpoint endpoint;
    boolean retiring;
    long endedNanos;
    PoolMessages.Load load = new PoolMessages.Load(0, 0, 0, 0, 0);
    /** Busy milliseconds at the start of the current sizing window (-1: joined during it). */
    long busyAtWindow = -1;

    Worker(int id) {
      this.id = id;
    }
  }

  private final PoolOptions options;
  private final TensorLauncher launcher;
  private final LongFunction<Weights> weights;
  private final String host;
  private final PrintStream log;
  private final InboundQueue inbox = new InboundQueue();
  private final TransportServer server;
  private final Map<Integer, Worker> workers = new LinkedHashMap<>();
  private final Set<PeerConnection> subscribers = new HashSet<>();
  /** Workers whose process or thread ended (from the launcher), handled on the pool's thread. */
  private final java.util.Queue<Integer> exited = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final List<SizeAt> timeline = new ArrayList<>();
  private final long startNanos = System.nanoTime();
  private Thread thread;
  private volatile boolean closed;
  private int nextId;
  private int lost;
  private int launches;
  private int retired;
  private String failure;
  private long windowStart = System.nanoTime();
  private long windowMaxWait;

  /** {@code weights}: the parameter server's live version, or null when it holds no such version. */
  /**
   * {@code transport}: the job's authenticated transport as the pool ({@code Participants.TENSOR_POOL});
   * {@code host}: where it listens, as workers reach it.
   */
  public TensorPool(PoolOptions options, TensorLauncher launcher, LongFunction<Weights> weights,
      TransportOptions transport, String host, PrintStream log) throws Exception {
    this.options = options;
    this.launcher = launcher;
    this.weights = weights;
    this.host = host;
    this.log = log;
    this.server = new TransportServer(transport, inbox);
  }

  /** Binds, launches the initial workers and starts serving. */
  public synchronized void start() throws Exception {
    server.start();
    for (int i = 0; i < options.initial(); i++) {
      launch();
    }
    thread = new Thread(this::serve, "tensor-pool");
    thread.setDaemon(true);
    thread.start();
  }

  /** Where graph workers subscribe and tensor workers join. */
  public Endpoint address() {
    return new Endpoint(0, host, server.port());
  }

  private void launch() throws Exception {
    Worker w = new Worker(nextId++);
    workers.put(w.id, w);
    launches++;
    launcher.launch(w.id, host, server.port()).whenComplete((v, t) -> exited.add(w.id));
  }

  private void serve() {
    try {
      while (!closed) {
        InboundQueue.Event ev = inbox.poll(TICK_MS, TimeUnit.MILLISECONDS);
        synchronized (this) {
          if (ev != null) {
            handle(ev);
          }
          for (Integer id; (id = exited.poll()) != null; ) {
            ended(workers.get(id), "its process ended");
          }
          resize();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      synchronized (this) {
        failure = "tensor-worker pool: " + org.yarngnn.app.runtime.Failures.describe(e);
      }
    }
  }

  private Worker workerOf(PeerConnection c) {
    for (Worker w : workers.values()) {
      if (w.connection == c) {
        return w;
      }
    }
    return null;
  }

  private void handle(InboundQueue.Event ev) throws Exception {
    PeerConnection c = ev.connection();
    if (ev.isClose()) {
      subscribers.remove(c);
      Worker w = workerOf(c);
      if (w != null) {
        ended(w, ev.cause() == null ? "its connection closed" : ev.cause().getMessage());
      }
      return;
    }
    if (ev.message() instanceof PoolMessages.Join j) {
      Worker w = workers.get(j.endpoint().workerIndex());
      if (w == null || w.connection != null || w.endedNanos != 0
          || !Participants.tensorWorker(w.id).equals(c.peerIdentity())) {
        log.println("yarn-gnn: closed connection " + c.remoteAddress() + ": unexpected tensor worker " + j);
        c.close();
        return;
      }
      w.connection = c;
      w.endpoint = j.endpoint();
      changed();
    } else if (ev.message() instanceof PoolMessages.Subscribe sub
        && Participants.worker(sub.graphWorker()).equals(c.peerIdentity())) {
      subscribers.add(c);
      c.send(members());
    } else if (ev.message() instanceof PoolMessages.WeightRequest r && workerOf(c) != null) {
      Weights w = weights.apply(r.version());
      c.send(w != null ? w : new Failure("the parameter server holds no weights of version " + r.version()));
    } else if (ev.message() instanceof PoolMessages.Load l && workerOf(c) != null) {
      workerOf(c).load = l;
    } else {
      log.println("yarn-gnn: closed connection " + c.remoteAddress() + ": unexpected " + ev.message());
      c.close();
    }
  }

  /** Worker {@code w} is gone (connection closed or process ended): unless it was retired, it is replaced. */
  private void ended(Worker w, String why) throws Exception {
    if (w == null || w.endedNanos != 0) {
      return;
    }
    w.endedNanos = System.nanoTime();
    if (!w.retiring && !closed) {
      lost++;
      log.println("yarn-gnn train: lost tensor worker " + w.id + " (" + why + "); launching a replacement");
      launch();
    }
    changed();
  }

  /** Workers that take tasks: joined, not retiring, not ended. */
  private List<Worker> active() {
    List<Worker> l = new ArrayList<>();
    for (Worker w : workers.values()) {
      if (w.connection != null && !w.retiring && w.endedNanos == 0) {
        l.add(w);
      }
    }
    return l;
  }

  private PoolMessages.Members members() {
    List<Endpoint> l = new ArrayList<>();
    for (Worker w : active()) {
      l.add(w.endpoint);
    }
    return new PoolMessages.Members(List.copyOf(l));
  }

  private void changed() {
    PoolMessages.Members m = members();
    for (PeerConnection s : subscribers) {
      s.send(m);
    }
    timeline.add(new SizeAt((System.nanoTime() - startNanos) / 1e9, m.workers().size()));
  }

  /**
   * Grows by one while a worker's oldest queued task has waited longer than the grow threshold (one launch at a
   * time); every {@code idleMillis} window, retires the least busy worker when the pool was less than
   * {@value #RETIRE_BELOW} busy over the window and no task waited too long in it (so it never grows and shrinks
   * in the same window).
   */
  private void resize() throws Exception {
    if (closed) {
      return;
    }
    List<Worker> active = active();
    boolean starting = false;
    for (Worker w : workers.values()) {
      starting |= w.connection == null && w.endedNanos == 0;
    }
    long waited = 0;
    for (Worker w : active) {
      waited = Math.max(waited, w.load.oldestWaitMillis());
    }
    windowMaxWait = Math.max(windowMaxWait, waited);
    if (!starting && waited > options.growAfterMillis() && active.size() < options.max()) {
      log.println("yarn-gnn train: tensor tasks waited " + waited + " ms: adding tensor worker " + nextId);
      launch();
      return;
    }
    long now = System.nanoTime();
    double windowMs = (now - windowStart) / 1e6;
    if (windowMs < Math.max(options.idleMillis(), 1)) {
      return;
    }
    Worker idlest = null;
    double idlestBusy = 0;
    double busy = 0;
    int measured = 0;
    for (Worker w : active) {
      if (w.busyAtWindow >= 0) {
        double u = (w.load.busyMillis() - w.busyAtWindow) / windowMs;
        busy += u;
        measured++;
        if (idlest == null || u < idlestBusy) {
          idlest = w;
          idlestBusy = u;
        }
      }
    }
    if (idlest != null && active.size() > options.min() && windowMaxWait <= options.growAfterMillis()
        && busy / measured < RETIRE_BELOW) {
      log.printf(java.util.Locale.ROOT, "yarn-gnn train: tensor workers %.0f%% busy over %.0f ms: retiring tensor "
          + "worker %d%n", 100 * busy / measured, windowMs, idlest.id);
      idlest.retiring = true;
      retired++;
      changed();
      idlest.connection.send(new PoolMessages.Retire());
    }
    for (Worker w : active) {
      w.busyAtWindow = w.load.busyMillis();
    }
    windowStart = now;
    windowMaxWait = 0;
  }

  /** The first failure of the pool's own thread, or null. */
  public synchronized String failure() {
    return failure;
  }

  /** Members taking tasks now. */
  public synchronized int size() {
    return active().size();
  }

  public synchronized List<SizeAt> timeline() {
    return List.copyOf(timeline);
  }

  /** Tensor workers lost (not retired) and replaced. */
  public synchronized int lost() {
    return lost;
  }

  public synchronized int launches() {
    return launches;
  }

  /** Tensor workers retired because the pool was mostly idle. */
  public synchronized int retired() {
    return retired;
  }

  /** Seconds every tensor worker ran so far, from its launch to its end (or now). */
  public synchronized double workerSeconds() {
    long now = System.nanoTime();
    double s = 0;
    for (Worker w : workers.values()) {
      s += ((w.endedNanos != 0 ? w.endedNanos : now) - w.launchedNanos) / 1e9;
    }
    return s;
  }

  /** Stops serving, ends every worker's clock, stops the server (workers see it and exit); once. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      long now = System.nanoTime();
      for (Worker w : workers.values()) {
        if (w.endedNanos == 0) {
          w.endedNanos = now;
        }
      }
    }
    server.stop(); // tensor workers see the pool's connection close and exit
    launcher.close();
  }
}
