package org.yarngnn.partition;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.yarngnn.io.EdgeTable;

/** Reads the files of an edges table on a few threads, one collector per file. */
final class ParallelEdgeReader {
  private ParallelEdgeReader() {}

  /**
   * Reads every file into the collector {@code perFile} makes for it and returns the collectors in file order.
   * When several files fail, the error of the first such file is thrown (the first offending row in table order).
   */
  static <T extends EdgeCollector> List<T> read(EdgeTable edges, int threads, IntFunction<T> perFile) {
    int files = edges.files().size();
    List<T> collectors = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      collectors.add(perFile.apply(f));
    }
    int t = Math.max(1, Math.min(threads, files));
    if (t == 1) {
      for (int f = 0; f < files; f++) {
        edges.readFile(f, collectors.get(f));
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
      for (int f = 0; f < files; f++) {
        int file = f;
        done.add(pool.submit(() -> edges.readFile(file, collectors.get(file))));
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
