package org.yarngnn.app.tensor;

import java.util.ArrayList;
import java.util.List;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.compute.model.ModelSpec;

/** {@code --local}: tensor workers as threads of this JVM, reached over loopback like containers. */
public final class ThreadTensorWorkers implements TensorLauncher {
  private final ModelSpec spec;
  private final int threads;
  private final JobTransport transport;
  private final String haltAfter;
  private final List<Thread> started = new ArrayList<>();

  /** {@code haltAfter}: the test hook of {@link TensorWorker} for the first worker only, or null. */
  public ThreadTensorWorkers(ModelSpec spec, int threads, JobTransport transport, String haltAfter) {
    this.spec = spec;
    this.threads = threads;
    this.transport = transport;
    this.haltAfter = haltAfter;
  }

  @Override
  public synchronized void launch(int id, String host, int port) {
    Thread t = new Thread(() -> new TensorWorker(spec, id, host, port, transport, threads,
        id == 0 ? haltAfter : null).run(), "tensor-worker-" + id);
    t.setDaemon(true);
    started.add(t);
    t.start();
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
