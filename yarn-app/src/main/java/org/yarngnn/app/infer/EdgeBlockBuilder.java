package org.yarngnn.app.infer;

/** Collects edges bound for one owner into {@link EdgeBlock}s of a bounded size, handing each full block on. */
final class EdgeBlockBuilder {
  /** Receives finished blocks. */
  @FunctionalInterface
  interface Sink {
    void accept(EdgeBlock b) throws Exception;
  }

  private final boolean weighted;
  private final boolean touch;
  private final int capacity;
  private final Sink sink;
  private int file;
  private long[] src;
  private long[] dst;
  private long[] rows;
  private float[] weights;
  private int size;

  EdgeBlockBuilder(boolean weighted, boolean touch, int capacity, Sink sink) {
    this.weighted = weighted;
    this.touch = touch;
    this.capacity = capacity;
    this.sink = sink;
    reset();
  }

  private void reset() {
    src = new long[capacity];
    dst = new long[capacity];
    rows = new long[capacity];
    weights = weighted ? new float[capacity] : null;
    size = 0;
  }

  /** Later edges come from file {@code f} (the builder must be flushed first). */
  void file(int f) {
    this.file = f;
  }

  void add(long s, long d, float w, long row) throws Exception {
    src[size] = s;
    dst[size] = d;
    rows[size] = row;
    if (weighted) {
      weights[size] = w;
    }
    if (++size == capacity) {
      flush();
    }
  }

  void flush() throws Exception {
    if (size == 0) {
      return;
    }
    EdgeBlock b = new EdgeBlock(file, size, src, dst, rows, weights, touch);
    reset();
    sink.accept(b);
  }
}
