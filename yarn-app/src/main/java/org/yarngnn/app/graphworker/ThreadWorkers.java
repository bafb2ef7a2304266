package org.yarngnn.app.graphworker;

import org.yarngnn.app.runtime.WorkerLauncher;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code --local}: graph workers of any role as threads of this JVM. They share only what is read-only (the model,
 * the driver's transport): each reads the tables and builds its partition as a container does, and they exchange rows and
 * findings over loopback sockets, so that a local run with several workers runs the exchange a cluster runs.
 */
public final class ThreadWorkers implements WorkerLauncher {
  /** Runs worker {@code index}'s session with the driver at {@code host:port}; returns its exit status. */
  @FunctionalInterface
  public interface Serve {
    int serve(int index, String host, int port);
  }

  private final Serve serve;
  private final List<Thread> threads = new ArrayList<>();
  private final CompletableFuture<String> failure = new CompletableFuture<>();

  /** Workers that each run {@code serve} (a graph worker of any role) on a thread of this JVM. */
  public ThreadWorkers(Serve serve) {
    this.serve = serve;
  }

  @Override
  public void launch(String host, int port, int workers) {
    launch(host, port, workers, java.util.stream.IntStream.range(0, workers).toArray());
  }

  /** Starts only workers {@code indices} (the others were taken over from an earlier driver's). */
  @Override
  public void launch(String host, int port, int workers, int[] indices) {
    for (int i : indices) {
      int index = i;
      Thread t = new Thread(() -> {
        int status = serve.serve(index, host, port);
        if (status != 0) {
          failure.complete("worker " + index + " exited with status " + status);
        }
      }, "graph-worker-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  @Override
  public CompletableFuture<String> failure() {
    return failure;
  }

  @Override
  public void close() {
    for (Thread t : threads) {
      try {
        t.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (t.isAlive()) {
        t.interrupt();
      }
    }
  }
}
