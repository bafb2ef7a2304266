package org.yarngnn.io.parquet;

import java.util.ArrayDeque;

/**
 * Byte arrays of finished column chunks (their read windows and page buffers), kept per reading thread for the
 * next chunk it reads. A table is read a file at a time per thread, and each chunk's arrays are a few MiB: without
 * this every chunk of every file allocated its own (on a 1M-node, 20M-edge graph some 100 MB of one-use arrays,
 * each a humongous object for G1 and fresh memory to fault in). Arrays come back only once nothing reads the
 * chunk they served ({@link ParquetFile} returns them when it moves to the next row group or closes).
 */
final class ChunkBuffers {
  /** Arrays kept per thread: a row group's chunks (a node file: ids and features, windows and page buffers). */
  private static final int KEPT = 6;
  /** Larger arrays (a page that needed more than a window) are left to the collector. */
  private static final int LARGEST = 16 << 20;
  private static final ThreadLocal<ArrayDeque<byte[]>> FREE = ThreadLocal.withInitial(ArrayDeque::new);

  private ChunkBuffers() {
  }

  /**
   * An array of at least {@code size} bytes (contents arbitrary): the smallest kept one that fits, else a new one
   * of exactly {@code size}.
   */
  static byte[] take(int size) {
    ArrayDeque<byte[]> free = FREE.get();
    byte[] best = null;
    for (byte[] b : free) {
      if (b.length >= size && (best == null || b.length < best.length)) {
        best = b;
      }
    }
    if (best != null) {
      free.removeFirstOccurrence(best);
      return best;
    }
    return new byte[size];
  }

  /** Returns {@code b} (null is ignored) for a later {@link #take} on this thread. */
  static void give(byte[] b) {
    if (b == null || b.length == 0 || b.length > LARGEST) {
      return;
    }
    ArrayDeque<byte[]> free = FREE.get();
    if (free.size() >= KEPT) {
      free.removeFirst();
    }
    free.addLast(b);
  }

  /** How many arrays this thread keeps (for tests). */
  static int kept() {
    return FREE.get().size();
  }
}
