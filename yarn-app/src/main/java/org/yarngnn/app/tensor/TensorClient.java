package org.yarngnn.app.tensor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.TransportClient;
import org.yarngnn.app.transport.TransportOptions;

/**
 * A graph worker's handle on the tensor-worker pool: it follows the pool's {@link PoolMessages.Members},
 * keeps a connection to each member, and sends each submitted task to the member with the fewest tasks in flight
 * (a free worker is used at once; nothing waits for a container start while one is free). It makes tasks
 * survive their workers:
 * <ul>
 *   <li>a member whose connection drops (killed, lost) has its tasks sent again to others;</li>
 *   <li>a task without an answer after {@code timeoutFactor} times the running mean of its kind (at least
 *   {@code minTimeoutMs}) is sent again to another member, once per timeout; the first answer wins, later ones
 *   are dropped;</li>
 *   <li>a refused task (a retiring or failing worker) goes to another member, up to {@link #MAX_ATTEMPTS}.</li>
 * </ul>
 * Each resend counts in {@link #resent()} (metrics.json's {@code relaunched_tasks}). Thread-safe; answers arrive
 * on its own dispatcher thread.
 */
public final class TensorClient implements AutoCloseable {
  /** Sends of one task before it fails the job. */
  static final int MAX_ATTEMPTS = 6;

  private static final class Member {
    final Endpoint endpoint;
    PeerConnection connection;
    boolean active = true;
    int inFlight;

    Member(Endpoint endpoint) {
      this.endpoint = endpoint;
    }
  }

  private static final class Pending {
    final TensorTask task;
    final CompletableFuture<TensorResult> future = new CompletableFuture<>();
    /** Attempt ids still out, and on which member. */
    final Map<Long, Integer> attempts = new HashMap<>();
    int sends;
    long lastSent;

    Pending(TensorTask task) {
      this.task = task;
    }
  }

  private final int graphWorker;
  private final Endpoint pool;
  private final long minTimeoutMs;
  private final double timeoutFactor;
  private final TransportOptions options;
  private final InboundQueue inbox = new InboundQueue();
  private final ExecutorService connector = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "tensor-connect");
    t.setDaemon(true);
    return t;
  });
  private final Map<Integer, Member> members = new LinkedHashMap<>();
  private final Map<Long, Pending> pending = new HashMap<>();
  private final Map<Long, Long> attemptToTask = new HashMap<>();
  private final List<Pending> waiting = new ArrayList<>();
  private final double[] meanSeconds = new double[TensorTask.Kind.values().length];
  private final long[] completed = new long[TensorTask.Kind.values().length];
  private TransportClient client;
  private PeerConnection poolConnection;
  private Thread dispatcher;
  private volatile boolean closed;
  private long nextTask = 1;
  private long nextAttempt = 1;
  private long resent;
  private long duplicates;
  private String failure;

  /** {@code transport}: the job's authenticated transport as graph worker {@code graphWorker}. */
  public TensorClient(int graphWorker, Endpoint pool, TransportOptions transport, long minTimeoutMs,
      double timeoutFactor) {
    this.graphWorker = graphWorker;
    this.pool = pool;
    this.minTimeoutMs = minTimeoutMs;
    this.timeoutFactor = timeoutFactor;
    this.options = transport;
  }

  /** Connects to the pool and subscribes to its members. */
  public void start() throws Exception {
    client = new TransportClient(options, inbox);
    client.start();
    poolConnection = client.connect(pool.host(), pool.port(), Participants.TENSOR_POOL);
    poolConnection.sendBlocking(new PoolMessages.Subscribe(graphWorker));
    dispatcher = new Thread(this::dispatch, "tensor-client-" + graphWorker);
    dispatcher.setDaemon(true);
    dispatcher.start();
  }

  /** Sends {@code t} (its id is the client's own) to a member; completes with the first answer. */
  public CompletableFuture<TensorResult> submit(TensorTask t) {
    synchronized (this) {
      if (failure != null) {
        return CompletableFuture.failedFuture(new IllegalStateException(failure));
      }
      Pending p = new Pending(t.withId(nextTask++));
      pending.put(p.task.id(), p);
      if (!send(p, -1)) {
        waiting.add(p);
      }
      return p.future;
    }
  }

  /** Tasks sent again (lost worker, timeout or refusal). */
  public synchronized long resent() {
    return resent;
  }

  /** Answers dropped because another attempt of the same task answered first. */
  public synchronized long duplicates() {
    return duplicates;
  }

  /** Sends an attempt of {@code p} to the least busy active member other than {@code avoid}; false if none. */
  private boolean send(Pending p, int avoid) {
    Member best = null;
    for (Member m : members.values()) {
      if (m.active && m.connection != null && m.connection.isOpen() && m.endpoint.workerIndex() != avoid
          && (best == null || m.inFlight < best.inFlight)) {
        best = m;
      }
    }
    if (best == null) {
      return false;
    }
    long attempt = nextAttempt++;
    attemptToTask.put(attempt, p.task.id());
    p.attempts.put(attempt, best.endpoint.workerIndex());
    p.sends++;
    p.lastSent = System.nanoTime();
    best.inFlight++;
    best.connection.send(p.task.withId(attempt));
    return true;
  }

  private void dispatch() {
    try {
      while (!closed) {
        InboundQueue.Event ev = inbox.poll(20, TimeUnit.MILLISECONDS);
        synchronized (this) {
          if (ev != null) {
            if (ev.connection() == poolConnection) {
              if (ev.isClose()) {
                fail("lost the tensor-worker pool" + (ev.cause() == null ? "" : ": " + ev.cause().getMessage()));
              } else if (ev.message() instanceof PoolMessages.Members ms) {
                members(ms.workers());
              }
            } else if (ev.isClose()) {
              lost(ev.connection());
            } else {
              answer(ev.connection(), ev.message());
            }
          }
          timeouts();
          retry();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void members(List<Endpoint> now) {
    Map<Integer, Endpoint> listed = new HashMap<>();
    for (Endpoint e : now) {
      listed.put(e.workerIndex(), e);
    }
    for (Member m : members.values()) {
      if (!listed.containsKey(m.endpoint.workerIndex())) {
        m.active = false; // retiring: no new tasks; its connection closes once it answered what it holds
        closeIfDrained(m);
      }
    }
    for (Endpoint e : now) {
      if (!members.containsKey(e.workerIndex())) {
        Member m = new Member(e);
        members.put(e.workerIndex(), m);
        connector.execute(() -> connect(m));
      }
    }
  }

  private void connect(Member m) {
    try {
      PeerConnection c = client.connect(m.endpoint.host(), m.endpoint.port(),
          Participants.tensorWorker(m.endpoint.workerIndex()));
      synchronized (this) {
        m.connection = c;
        if (!m.active) {
          closeIfDrained(m);
        }
      }
    } catch (Exception e) {
      synchronized (this) {
        members.remove(m.endpoint.workerIndex()); // unreachable: the pool replaces it if it is gone
      }
    }
  }

  private static void closeIfDrained(Member m) {
    if (!m.active && m.inFlight == 0 && m.connection != null) {
      m.connection.close();
    }
  }

  private Member memberOf(PeerConnection c) {
    for (Member m : members.values()) {
      if (m.connection == c) {
        return m;
      }
    }
    return null;
  }

  private void answer(PeerConnection c, Message msg) {
    if (!(msg instanceof TensorResult r)) {
      c.close(); // a tensor worker sends nothing else
      return;
    }
    Member m = memberOf(c);
    Long taskId = attemptToTask.remove(r.id());
    if (m != null) {
      m.inFlight = Math.max(0, m.inFlight - 1);
    }
    Pending p = taskId == null ? null : pending.get(taskId);
    if (p == null) {
      duplicates += taskId == null ? 0 : 1;
      r.release();
      if (m != null) {
        closeIfDrained(m);
      }
      return;
    }
    p.attempts.remove(r.id());
    if (r.refusal() != null) {
      r.release();
      if (p.sends >= MAX_ATTEMPTS) {
        pending.remove(taskId);
        forget(p);
        p.future.completeExceptionally(new IllegalStateException("tensor task " + p.task + " failed " + p.sends
            + " times; last: " + r.refusal()));
      } else if (p.attempts.isEmpty()) {
        resent++;
        if (!send(p, m == null ? -1 : m.endpoint.workerIndex())) {
          waiting.add(p);
        }
      }
    } else {
      pending.remove(taskId);
      forget(p);
      int k = p.task.kind().ordinal();
      double s = (System.nanoTime() - p.lastSent) / 1e9;
      completed[k]++;
      meanSeconds[k] += (s - meanSeconds[k]) / Math.min(completed[k], 20);
      p.future.complete(r);
    }
    if (m != null) {
      closeIfDrained(m);
    }
  }

  /** Drops the bookkeeping of a finished task's other attempts (their answers become duplicates). */
  private void forget(Pending p) {
    for (Long a : p.attempts.keySet()) {
      attemptToTask.put(a, -1L); // known attempt, finished task: its answer (still counted in flight) is a duplicate
    }
    p.attempts.clear();
  }

  private void lost(PeerConnection c) {
    Member m = memberOf(c);
    if (m == null) {
      return;
    }
    members.remove(m.endpoint.workerIndex());
    int id = m.endpoint.workerIndex();
    for (Pending p : List.copyOf(pending.values())) {
      if (p.attempts.values().removeIf(w -> w == id) && p.attempts.isEmpty()) {
        resent++;
        if (!send(p, id)) {
          waiting.add(p);
        }
      }
    }
  }

  /** Sends again, to another member, every task whose newest attempt is older than its kind's timeout. */
  private void timeouts() {
    long now = System.nanoTime();
    for (Pending p : pending.values()) {
      if (p.attempts.isEmpty()) { // not out anywhere (waiting for a member): nothing to time out
        continue;
      }
      int k = p.task.kind().ordinal();
      double limit = Math.max(minTimeoutMs / 1e3, timeoutFactor * meanSeconds[k]);
      if (completed[k] > 0 && (now - p.lastSent) / 1e9 > limit && p.sends < MAX_ATTEMPTS) {
        int last = p.attempts.values().iterator().next();
        if (send(p, last)) {
          resent++;
        }
      }
    }
  }

  private void retry() {
    for (Iterator<Pending> it = waiting.iterator(); it.hasNext(); ) {
      Pending p = it.next();
      if (!pending.containsKey(p.task.id()) || send(p, -1)) {
        it.remove();
      }
    }
  }

  private void fail(String why) {
    failure = why;
    for (Pending p : pending.values()) {
      p.future.completeExceptionally(new IllegalStateException(why));
    }
    pending.clear();
  }

  @Override
  public void close() {
    closed = true;
    if (dispatcher != null) {
      dispatcher.interrupt();
    }
    connector.shutdownNow();
    if (client != null) {
      client.stop();
    }
  }
}
