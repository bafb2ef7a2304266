package org.yarngnn.app.infer;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What the graph workers of one JVM share when they wait for each other ({@link CoLocatedEdgeScan},
 * {@link CoLocatedHalo}): a failure that breaks the whole rendezvous, and a bounded wait under this object's monitor
 * that fails every worker at once when one is broken, abandoned, interrupted or late, instead of leaving the others
 * waiting for their own timeouts. Broken is final: the job is failing.
 */
abstract class CoLocatedRendezvous {
  /** How often a waiting worker checks that it has not been abandoned. */
  private static final long POLL_MS = 100;
  final int workers;
  private final long timeoutMs;
  /** What the workers do together, for messages: "edge reading", "layer". */
  private final String work;
  /** What a worker abandons when its session closes while it waits: "construction", "layer". */
  private final String abandonedWork;
  private Throwable broken;

  CoLocatedRendezvous(int workers, long timeoutMs, String work, String abandonedWork) {
    if (workers < 2) {
      throw new IllegalArgumentException("a co-located " + work + " needs 2 or more workers, not " + workers);
    }
    this.workers = workers;
    this.timeoutMs = timeoutMs;
    this.work = work;
    this.abandonedWork = abandonedWork;
  }

  /** Breaks the rendezvous: every worker waiting on it, or coming to it later, fails. */
  synchronized void fail(Throwable t) {
    if (broken == null) {
      broken = t;
    }
    notifyAll();
  }

  final synchronized boolean broken() {
    return broken != null;
  }

  final synchronized void checkNotBroken() {
    if (broken != null) {
      throw failure();
    }
  }

  /** Breaks the rendezvous with {@code message} and returns what every worker then throws. */
  final synchronized IllegalStateException breakWith(String message) {
    fail(new IllegalStateException(message));
    return failure();
  }

  private IllegalStateException failure() {
    return new IllegalStateException("a co-located worker's " + work + " failed: " + broken.getMessage(), broken);
  }

  /**
   * Waits, holding this object's monitor, until {@code done}; throws (breaking the rendezvous) when it is broken,
   * when {@code abandoned} turns true, when interrupted, or after the timeout waiting for {@code what}.
   */
  final void await(BooleanSupplier done, int index, BooleanSupplier abandoned, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (!done.getAsBoolean()) {
      checkNotBroken();
      if (abandoned.getAsBoolean()) {
        throw breakWith("worker " + index + " abandoned its " + abandonedWork);
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw breakWith("worker " + index + " waited " + timeoutMs + " ms for " + what);
      }
      try {
        wait(Math.min(POLL_MS, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left))));
      } catch (InterruptedException e) {
        fail(e);
        throw e;
      }
    }
  }
}
