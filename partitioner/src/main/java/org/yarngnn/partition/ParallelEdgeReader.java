package org.yarngnn.partition;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.yarngnn.io.table.EdgeTable;

/**
 * Reads an edges table on a few threads, split by file and, within Parquet files, by row groups (so a single
 * large file is read in parallel too), one collector per split.
 */
final class ParallelEdgeReader {
  /** Splits smaller than this cost more in per-split setup than they gain in balance. */
  private static final long MIN_SPLIT_ROWS = 1 << 20;
  /** Splits per thread: enough for uneven splits to even out. */
  private static final int SPLITS_PER_THREAD = 4;

  private ParallelEdgeReader() {}

  /**
   * Reads every split into the collector {@code perSplit} makes for it and returns the collectors in table
   * order. When several splits fail, the error of the first such split is thrown (the first offending row in
   * table order).
   */
  static <T extends EdgeCollector> List<T> read(EdgeTable edges, int threads, IntFunction<T> perSplit) {
    long target = Math.max(MIN_SPLIT_ROWS, edges.countHint() / ((long) SPLITS_PER_THREAD * Math.max(1, threads)));
    List<EdgeTable.Split> splits = edges.splits(target);
    int n = splits.size();
    List<T> collectors = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      collectors.add(perSplit.apply(i));
    }
    int t = Math.max(1, Math.min(threads, n));
    if (t == 1) {
      for (int i = 0; i < n; i++) {
        edges.readSplit(splits.get(i), collectors.get(i));
      }
      return collectors;
    }
    ExecutorService pool = Executors.newFixedThreadPool(t, r -> {
      Thread th = new Thread(r, "edge-reader");
      th.setDaemon(true);
      return th;
    });
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int split = i;
        done.add(pool.submit(() -> edges.readSplit(splits.get(split), collectors.get(split))));
      }
      for (Future<?> d : done) {
        d.get();
      }
      return collectors;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      if (e.getCause() instanceof Error) {
        throw (Error) e.getCause();
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading edges", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
