package org.yarngnn.app.tensor;

/** Where tensor workers come from: threads of this JVM ({@code --local}) or small YARN containers. */
public interface TensorLauncher extends AutoCloseable {
  /**
   * Starts tensor worker {@code id} (ids are never reused), which joins the pool at {@code host:port}; the future
   * completes when it has ended, however (so one that dies before it joined is noticed too).
   */
  java.util.concurrent.CompletableFuture<?> launch(int id, String host, int port) throws Exception;

  /** Stops whatever still runs. */
  @Override
  void close();
}
