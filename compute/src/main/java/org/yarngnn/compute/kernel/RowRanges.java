package org.yarngnn.compute.kernel;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RecursiveAction;

/**
 * Runs a row-range body over {@code [0, n)} split into blocks, on the common fork-join pool, so every core works
 * on its own rows and no output row is written by two threads.
 */
public final class RowRanges {
  /** A body over rows {@code [from, to)}. */
  @FunctionalInterface
  public interface Body {
    void run(int from, int to);
  }

  private RowRanges() {}

  /** Runs {@code body} over {@code [0, n)} in blocks of at least {@code grain} rows, in parallel. */
  public static void parallel(int n, int grain, Body body) {
    parallel(0, n, grain, body);
  }

  public static void parallel(int from, int to, int grain, Body body) {
    int n = to - from;
    if (n <= 0) {
      return;
    }
    // The common pool has cores-1 workers because an outside caller runs tasks too (the root task below runs on
    // it), so count the caller: on 2 cores that is 2 threads, not 1.
    int threads = ForkJoinPool.getCommonPoolParallelism()
        + (Thread.currentThread() instanceof ForkJoinWorkerThread ? 0 : 1);
    // A few blocks per thread balance skewed rows (power-law degrees) without much scheduling overhead.
    int block = Math.max(Math.max(1, grain), (n + threads * 8 - 1) / (threads * 8));
    if (threads <= 1 || n <= block) {
      body.run(from, to);
      return;
    }
    new Task(from, to, block, body).invoke();
  }

  private static final class Task extends RecursiveAction {
    private final int from;
    private final int to;
    private final int block;
    private final Body body;

    Task(int from, int to, int block, Body body) {
      this.from = from;
      this.to = to;
      this.block = block;
      this.body = body;
    }

    @Override
    protected void compute() {
      if (to - from <= block) {
        body.run(from, to);
        return;
      }
      int mid = from + ((to - from) / 2 / block) * block;
      if (mid == from) {
        mid = from + block;
      }
      invokeAll(new Task(from, mid, block, body), new Task(mid, to, block, body));
    }
  }
}
