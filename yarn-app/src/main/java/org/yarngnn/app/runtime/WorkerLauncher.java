package org.yarngnn.app.runtime;

import java.util.concurrent.CompletableFuture;

/** Where graph workers come from: threads of this JVM ({@code --local}) or YARN containers. */
public interface WorkerLauncher extends AutoCloseable {
  /** Starts {@code workers} graph workers that register with the driver at {@code host:port}. */
  void launch(String host, int port, int workers) throws Exception;

  /** Completes with a reason when a worker dies outside the protocol (crash, kill, lost container). */
  CompletableFuture<String> failure();

  /** Stops whatever still runs. */
  @Override
  void close();
}
