package org.yarngnn.app.infer;

import java.util.concurrent.CompletableFuture;
import org.yarngnn.app.runtime.WorkerLauncher;

/** Test launcher: runs an intrusion against the driver's port, then launches the real workers. */
final class StrangerFirstLauncher implements WorkerLauncher {
  /** What a stranger does at the driver's {@code host:port} before any worker exists. */
  @FunctionalInterface
  interface Intrusion {
    void at(String host, int port) throws Exception;
  }

  private final Intrusion intrusion;
  private final WorkerLauncher real;

  StrangerFirstLauncher(Intrusion intrusion, WorkerLauncher real) {
    this.intrusion = intrusion;
    this.real = real;
  }

  @Override
  public void launch(String host, int port, int workers) throws Exception {
    intrusion.at(host, port);
    real.launch(host, port, workers);
  }

  @Override
  public CompletableFuture<String> failure() {
    return real.failure();
  }

  @Override
  public void close() {
    real.close();
  }
}
