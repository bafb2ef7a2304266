package org.yarngnn.app.tensor;

import java.util.ArrayList;
import java.util.List;
import org.yarngnn.app.runtime.FaultHooks;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.compute.model.ModelSpec;

/** {@code --local}: tensor workers as threads of this JVM, reached over loopback like containers. */
public final class ThreadTensorWorkers implements TensorLauncher {
  private final ModelSpec spec;
  private final int threads;
  private final JobTransport transport;
  private final org.apache.hadoop.conf.Configuration conf;
  private final List<Thread> started = new ArrayList<>();

  /** {@code conf}: the job's configuration, for the workers' {@link FaultHooks}. */
  public ThreadTensorWorkers(ModelSpec spec, int threads, JobTransport transport,
      org.apache.hadoop.conf.Configuration conf) {
    this.spec = spec;
    this.threads = threads;
    this.transport = transport;
    this.conf = conf;
  }

  @Override
  public synchronized java.util.concurrent.CompletableFuture<?> launch(int id, String host, int port) {
    java.util.concurrent.CompletableFuture<Integer> ended = new java.util.concurrent.CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        ended.complete(new TensorWorker(spec, id, host, port, transport, threads,
            FaultHooks.of(conf)).run());
      } catch (RuntimeException | Error e) {
        ended.completeExceptionally(e);
      }
    }, "tensor-worker-" + id);
    t.setDaemon(true);
    started.add(t);
    t.start();
    return ended;
  }

  @Override
  public synchronized void close() {
    for (Thread t : started) {
      try {
        t.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
