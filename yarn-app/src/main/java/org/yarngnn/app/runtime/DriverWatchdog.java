package org.yarngnn.app.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Ends a worker container that outlives its driver: once the driver's connection closed, a session that has not
 * ended within the grace (a phase still waiting on a peer, say) is of no use to anyone, and a container a dead
 * ApplicationMaster attempt leaves must not linger (the job keeps containers across attempts, so YARN does not
 * stop them when the attempt dies).
 */
final class DriverWatchdog {
  private DriverWatchdog() {}

  /**
   * Once {@code closed} completes, waits {@code graceMillis} on a daemon thread and then runs {@code halt} unless
   * {@code ended} says the session ended meanwhile. The result completes with whether it halted.
   */
  static CompletableFuture<Boolean> arm(CompletableFuture<?> closed, long graceMillis, BooleanSupplier ended,
      Runnable halt) {
    CompletableFuture<Boolean> decided = new CompletableFuture<>();
    closed.whenComplete((v, e) -> {
      Thread t = new Thread(() -> {
        try {
          TimeUnit.MILLISECONDS.sleep(graceMillis);
        } catch (InterruptedException x) {
          decided.complete(false);
          return;
        }
        boolean halting = !ended.getAsBoolean();
        if (halting) {
          halt.run(); // in a container it does not return
        }
        decided.complete(halting);
      }, "driver-watchdog");
      t.setDaemon(true);
      t.start();
    });
    return decided;
  }
}
