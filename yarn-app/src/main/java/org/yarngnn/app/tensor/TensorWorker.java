package org.yarngnn.app.tensor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.yarngnn.app.runtime.Failures;
import org.yarngnn.app.runtime.FaultHooks;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Failure;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.TransportClient;
import org.yarngnn.app.transport.TransportListener;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.app.transport.TransportServer;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.compute.train.Parameters;
import org.yarngnn.compute.train.SoftmaxCrossEntropy;
import org.yarngnn.compute.train.TrainLayer;

/**
 * A stateless tensor worker (Dorylus's Lambda, here a thread of {@code --local} or a small YARN container): it
 * holds no graph data, only the model's shape and a cache of the weight versions its tasks name (fetched from
 * the parameter server through the {@link TensorPool} and kept while they are the newest). It joins the pool,
 * takes {@link TensorTask}s from graph workers on its own server, runs them on {@code threads} threads in
 * arrival order, answers each with a {@link TensorResult} on the task's connection, and reports its load a few
 * times a second. On {@link PoolMessages.Retire} it finishes what it holds and exits; when the pool's connection
 * drops (the job ended) it exits at once.
 */
public final class TensorWorker implements AutoCloseable {
  private static final long LOAD_EVERY_MS = 200;
  /** How long a retiring worker waits for graph workers to stop sending before it exits anyway. */
  private static final long RETIRE_GRACE_MS = 10_000;
  /** Weight versions kept (the newest ones): staleness 0 needs the current one and the next. */
  private static final int VERSIONS_KEPT = 3;

  private record Queued(PeerConnection from, TensorTask task, long arrivedNanos) {}

  private final ModelSpec spec;
  private final Parameters layout;
  private final int id;
  private final String poolHost;
  private final int poolPort;
  private final String advertisedHost;
  private final int threads;
  private final TransportOptions options;
  private final FaultHooks faults;
  private final LinkedBlockingDeque<Queued> queue = new LinkedBlockingDeque<>();
  private final InboundQueue poolInbox = new InboundQueue();
  private final Map<Long, CompletableFuture<TrainLayer[]>> versions = new HashMap<>();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong taken = new AtomicLong();
  private final AtomicLong busyNanos = new AtomicLong();
  /** The longest a task waited in the queue since the last load report (bursts shorter than a report too). */
  private final AtomicLong maxWaitNanos = new AtomicLong();
  private final List<Thread> executors = new ArrayList<>();
  private volatile boolean retiring;
  private volatile boolean stopped;
  private TransportServer server;
  private TransportClient client;
  private PeerConnection pool;

  /** {@code faults}: what the tests inject ({@link FaultHooks#NONE} in a real run). */
  public TensorWorker(ModelSpec spec, int id, String poolHost, int poolPort, JobTransport transport, int threads,
      FaultHooks faults) {
    this.spec = spec;
    this.layout = new Parameters(spec);
    this.id = id;
    this.poolHost = poolHost;
    this.poolPort = poolPort;
    this.advertisedHost = transport.host();
    this.threads = Math.max(1, threads);
    this.options = transport.options(PoolMessages.CODEC, Participants.tensorWorker(id));
    this.faults = faults;
  }

  /** Serves until retired or the pool is gone; returns the exit status (0, or 1 when it could not start). */
  public int run() {
    try {
      server = new TransportServer(options, new TaskListener());
      server.start();
      client = new TransportClient(options, poolInbox);
      client.start();
      pool = client.connect(poolHost, poolPort, Participants.TENSOR_POOL);
      pool.sendBlocking(new PoolMessages.Join(new Endpoint(id, advertisedHost, server.port())));
    } catch (Exception e) {
      System.err.println("yarn-gnn tensor worker " + id + ": cannot join the pool at " + poolHost + ":" + poolPort
          + ": " + Failures.describe(e));
      close();
      return 1;
    }
    for (int t = 0; t < threads; t++) {
      Thread th = new Thread(this::execute, "tensor-worker-" + id + "-" + t);
      th.setDaemon(true);
      executors.add(th);
      th.start();
    }
    try {
      long nextLoad = 0;
      long retiredAt = 0;
      while (!stopped) {
        InboundQueue.Event ev = poolInbox.poll(50, TimeUnit.MILLISECONDS);
        if (ev != null) {
          if (ev.isClose()) {
            break; // the driver is gone: nothing left to serve
          }
          onPoolMessage(ev.message());
        }
        long now = System.currentTimeMillis();
        if (now >= nextLoad) {
          sendLoad();
          nextLoad = now + LOAD_EVERY_MS;
        }
        if (retiring) {
          retiredAt = retiredAt == 0 ? now : retiredAt;
          boolean idle = queue.isEmpty() && running.get() == 0;
          boolean noClients = server.connections().isEmpty();
          if (idle && (noClients || now - retiredAt > RETIRE_GRACE_MS)) {
            break;
          }
        }
      }
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    } finally {
      close();
    }
  }

  private void onPoolMessage(Message m) {
    if (m instanceof Weights w) {
      CompletableFuture<TrainLayer[]> f;
      synchronized (versions) {
        f = versions.computeIfAbsent(w.version(), v -> new CompletableFuture<>());
      }
      try {
        f.complete(load(w));
      } catch (RuntimeException e) {
        f.completeExceptionally(e);
      }
    } else if (m instanceof Failure f) {
      // The parameter server cannot give a version: fail every task waiting for one it has not answered.
      synchronized (versions) {
        for (CompletableFuture<TrainLayer[]> v : versions.values()) {
          v.completeExceptionally(new IllegalStateException(f.reason()));
        }
      }
    } else if (m instanceof PoolMessages.Retire) {
      retiring = true;
    }
  }

  private TrainLayer[] load(Weights w) {
    if (w.values().length != layout.size()) {
      throw new IllegalStateException("weights of " + w.values().length + " values for a model of " + layout.size());
    }
    TrainLayer[] layers = new TrainLayer[spec.layers().size()];
    for (int k = 0; k < layers.length; k++) {
      layers[k] = TrainLayer.create(spec.layers().get(k), k, 0, 0);
      layers[k].load(w.values(), layout.layerOffset(k));
    }
    return layers;
  }

  /** The layers at {@code version}, fetched once from the parameter server; older versions are dropped. */
  private TrainLayer[] layers(long version) throws Exception {
    CompletableFuture<TrainLayer[]> f;
    boolean ask = false;
    synchronized (versions) {
      f = versions.get(version);
      if (f == null || f.isCompletedExceptionally()) {
        f = new CompletableFuture<>();
        versions.put(version, f);
        ask = true;
        while (versions.size() > VERSIONS_KEPT) {
          long oldest = versions.keySet().stream().mapToLong(Long::longValue).min().getAsLong();
          versions.remove(oldest);
        }
      }
    }
    if (ask) {
      pool.sendBlocking(new PoolMessages.WeightRequest(version));
    }
    return f.get(60, TimeUnit.SECONDS);
  }

  private void sendLoad() {
    Queued head = queue.peekFirst();
    long waiting = head == null ? 0 : System.nanoTime() - head.arrivedNanos();
    long wait = Math.max(waiting, maxWaitNanos.getAndSet(0)) / 1_000_000;
    pool.send(new PoolMessages.Load(queue.size(), running.get(), wait, done.get(), busyNanos.get() / 1_000_000));
  }

  private void execute() {
    while (!stopped) {
      Queued q;
      try {
        q = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (q == null) {
        continue;
      }
      long nth = taken.incrementAndGet();
      try {
        if (faults.tensorWorkerDiesAt(id, nth)) {
          halt(); // with this task (and any queued) unanswered, as a kill would leave them
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
      long t0 = System.nanoTime();
      maxWaitNanos.accumulateAndGet(t0 - q.arrivedNanos(), Math::max);
      running.incrementAndGet();
      TensorResult r;
      try {
        r = compute(q.task());
      } catch (Exception | OutOfMemoryError e) {
        r = TensorResult.refused(q.task().id(), "tensor worker " + id + ": " + Failures.describe(e));
      } finally {
        q.task().release();
      }
      try {
        if (q.from().isOpen()) {
          q.from().sendBlocking(r);
        }
      } catch (Exception e) {
        // The graph worker is gone; its job (or its resend elsewhere) goes on without this answer.
      } finally {
        running.decrementAndGet();
        busyNanos.addAndGet(System.nanoTime() - t0);
      }
      done.incrementAndGet();
    }
  }

  /** The test hook: dies without a word, as a killed container does. */
  private void halt() {
    FaultHooks.haltContainer();
    stopped = true;
    server.stop();
    client.stop();
  }

  /** Runs one task; refuses one that does not fit the model (a bug or a stranger, never the job's input). */
  TensorResult compute(TensorTask t) throws Exception {
    if (t.layer() >= spec.layers().size()) {
      return TensorResult.refused(t.id(), "layer " + t.layer() + " of a " + spec.layers().size() + "-layer model");
    }
    TrainLayer[] layers = layers(t.version());
    TrainLayer l = layers[t.layer()];
    DenseMatrix in = t.input();
    int m = in.rows();
    switch (t.kind()) {
      case FORWARD: {
        if (m > 0 && in.cols() != l.inWidth()) {
          return TensorResult.refused(t.id(), "forward rows of width " + in.cols() + " for layer input " + l.inWidth());
        }
        DenseMatrix lin = new DenseMatrix(m, l.linearWidth());
        RowRanges.parallel(m, 256, (a, b) -> l.layer().linear(in, a, b, lin));
        return new TensorResult(t.id(), null, 0, lin, null);
      }
      case BACKWARD: {
        DenseMatrix dLin = t.second();
        if (m > 0 && (in.cols() != l.inWidth() || dLin.cols() != l.linearWidth())) {
          return TensorResult.refused(t.id(), "backward rows of widths " + in.cols() + " and " + dLin.cols());
        }
        int w = l.inWidth();
        int lw = l.linearWidth();
        DenseMatrix dH = t.inputGradient() ? new DenseMatrix(m, w) : MatrixWire.EMPTY;
        // A fixed number of parts (not the thread count), summed in order: the same task gives the same sum
        // on any worker.
        int parts = Math.max(1, Math.min(8, m / 256));
        float[][] partial = new float[parts][l.paramCount()];
        RowRanges.parallel(parts, 1, (pa, pb) -> {
          for (int p = pa; p < pb; p++) {
            int a = (int) ((long) m * p / parts);
            int b = (int) ((long) m * (p + 1) / parts);
            l.linearBackward(in.data(), a * w, dLin.data(), a * lw, b - a, t.inputGradient() ? dH.data() : null,
                a * w, w, partial[p], 0);
          }
        });
        float[] grads = partial[0];
        for (int p = 1; p < parts; p++) {
          for (int i = 0; i < grads.length; i++) {
            grads[i] += partial[p][i];
          }
        }
        return new TensorResult(t.id(), null, 0, dH, grads);
      }
      case LOSS: {
        int c = spec.outputWidth();
        if (m > 0 && in.cols() != c) {
          return TensorResult.refused(t.id(), "loss rows of width " + in.cols() + " for " + c + " classes");
        }
        for (int y : t.labels()) {
          if (y < 0 || y >= c) {
            return TensorResult.refused(t.id(), "label " + y + " outside 0.." + (c - 1));
          }
        }
        boolean[] all = new boolean[m];
        java.util.Arrays.fill(all, true);
        DenseMatrix grad = new DenseMatrix(m, c);
        double loss = m == 0 ? 0 : SoftmaxCrossEntropy.lossAndGradient(in, t.labels(), all, 0, m, t.scale(), grad);
        return new TensorResult(t.id(), null, loss, grad, null);
      }
      default:
        throw new IllegalStateException("task kind " + t.kind());
    }
  }

  /** Tasks from proven graph workers go to the queue; anything else on a task connection closes it. */
  private final class TaskListener implements TransportListener {
    @Override
    public void onMessage(PeerConnection connection, Message message) {
      if (message instanceof TensorTask t && Participants.isWorker(connection.peerIdentity())) {
        queue.add(new Queued(connection, t, System.nanoTime()));
      } else {
        connection.close();
      }
    }

    @Override
    public void onClosed(PeerConnection connection, Throwable cause) {}
  }

  @Override
  public void close() {
    stopped = true;
    for (Thread t : executors) {
      t.interrupt();
    }
    if (server != null) {
      server.stop();
    }
    if (client != null) {
      client.stop();
    }
    Queued q;
    while ((q = queue.poll()) != null) {
      q.task().release();
    }
  }
}
