package org.yarngnn.partition;

/**
 * Collects resolved edges (global node indices) into its own buffer, or, for readers on several threads, through
 * a small chunk appended to one shared presized buffer (no per-file buffers to grow and merge afterwards).
 */
final class BufferCollector extends EdgeCollector {
  private static final int CHUNK = 4096;

  final EdgeBuffer buffer;
  /** Where full chunks go, or null when {@link #buffer} keeps every edge. */
  private final EdgeBuffer shared;

  BufferCollector(NodeIndex index, boolean undirected, NodeRows addMissing, boolean weighted) {
    this(index, undirected, addMissing, new EdgeBuffer(1 << 16, weighted), null);
  }

  private BufferCollector(NodeIndex index, boolean undirected, NodeRows addMissing, EdgeBuffer buffer,
      EdgeBuffer shared) {
    super(index, undirected, addMissing);
    this.buffer = buffer;
    this.shared = shared;
  }

  /** A collector whose edges end up in {@code shared}, once {@link #flush} has run after the last row. */
  static BufferCollector into(EdgeBuffer shared, NodeIndex index, boolean undirected) {
    return new BufferCollector(index, undirected, null, new EdgeBuffer(CHUNK, shared.weight != null), shared);
  }

  @Override
  void accept(int d, int s, float weight) {
    buffer.add(d, s, weight);
    if (shared != null && buffer.full()) {
      flush();
    }
  }

  @Override
  void acceptAll(int[] d, int[] s, float[] w, int n) {
    if (shared == null) {
      buffer.append(d, s, w, n);
    } else {
      // A batch is already a chunk: straight to the shared buffer, after any edges pending from single rows.
      flush();
      shared.append(d, s, w, n);
    }
  }

  /** Appends the pending chunk to the shared buffer (no-op for a collector that keeps its edges). */
  void flush() {
    if (shared != null) {
      shared.append(buffer.dst, buffer.src, buffer.weight, buffer.size);
      buffer.clear();
    }
  }
}
