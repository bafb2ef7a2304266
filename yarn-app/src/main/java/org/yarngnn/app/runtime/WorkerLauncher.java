package org.yarngnn.app.runtime;

import java.util.concurrent.CompletableFuture;

/** Where graph workers come from: threads of this JVM ({@code --local}) or YARN containers. */
public interface WorkerLauncher extends AutoCloseable {
  /** Starts {@code workers} graph workers that register with the driver at {@code host:port}. */
  void launch(String host, int port, int workers) throws Exception;

  /**
   * Starts only the graph workers {@code indices} of {@code workers} (the others were taken over from an earlier
   * ApplicationMaster attempt); by default launchers cannot.
   */
  default void launch(String host, int port, int workers, int[] indices) throws Exception {
    throw new UnsupportedOperationException("this launcher starts all workers or none");
  }

  /** Completes with a reason when a worker dies outside the protocol (crash, kill, lost container). */
  CompletableFuture<String> failure();

  /** Stops whatever still runs. */
  @Override
  void close();
}
