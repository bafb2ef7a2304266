package org.yarngnn.app.graphworker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A few threads running the same reading task (each pulls its own work), and a last step run by whichever thread
 * finishes last when none failed (the construction end markers, which must follow every block any of them sent).
 */
final class ReaderThreads {
  private final List<Background> threads = new ArrayList<>();
  private final AtomicInteger live;
  private volatile boolean failed;

  ReaderThreads(String name, int count, Background.Task each, Background.Task afterAll) {
    live = new AtomicInteger(count);
    for (int t = 0; t < count; t++) {
      threads.add(new Background(name + "-" + t, () -> {
        try {
          each.run();
        } catch (Throwable e) {
          failed = true;
          throw e;
        } finally {
          if (live.decrementAndGet() == 0 && !failed) {
            afterAll.run();
          }
        }
      }));
    }
  }

  int count() {
    return threads.size();
  }

  /** The threads themselves (to stop an abandoned phase's). */
  List<Background> threads() {
    return List.copyOf(threads);
  }

  /** True once every thread has finished (the last step included). */
  boolean done() {
    for (Background b : threads) {
      if (!b.done()) {
        return false;
      }
    }
    return true;
  }

  /** Rethrows the first failure among the threads, if any. */
  void check() throws Exception {
    for (Background b : threads) {
      b.check();
    }
  }

  void join() throws Exception {
    for (Background b : threads) {
      b.join();
    }
  }
}
