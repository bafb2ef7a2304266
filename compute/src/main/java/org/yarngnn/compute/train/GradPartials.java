package org.yarngnn.compute.train;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import org.yarngnn.compute.kernel.RowRanges;

/**
 * Thread-safe gradient accumulation by reduction: rows {@code [0, n)} are cut into a fixed number of contiguous
 * parts (the thread count, at most {@link #parts()}), each part accumulates into its own buffer, and the buffers
 * are added to the target in part order. Buffers are allocated once.
 */
final class GradPartials {
  private final float[][] buffers;

  GradPartials(int size) {
    int threads = ForkJoinPool.getCommonPoolParallelism()
        + (Thread.currentThread() instanceof ForkJoinWorkerThread ? 0 : 1);
    buffers = new float[Math.max(1, threads)][size];
  }

  int parts() {
    return buffers.length;
  }

  /** A body over rows {@code [from, to)} accumulating into {@code buf} from offset 0. */
  @FunctionalInterface
  interface Body {
    void run(int from, int to, float[] buf);
  }

  /** Runs {@code body} over {@code [0, n)} in parallel parts and adds the parts to {@code target[base..]}. */
  void run(int n, float[] target, int base, Body body) {
    int parts = Math.max(1, Math.min(buffers.length, n / 64));
    RowRanges.parallel(parts, 1, (a, b) -> {
      for (int t = a; t < b; t++) {
        float[] buf = buffers[t];
        Arrays.fill(buf, 0f);
        body.run((int) ((long) n * t / parts), (int) ((long) n * (t + 1) / parts), buf);
      }
    });
    for (int t = 0; t < parts; t++) {
      float[] buf = buffers[t];
      for (int i = 0; i < buf.length; i++) {
        target[base + i] += buf[i];
      }
    }
  }
}
