package org.yarngnn.app.infer;

/** Collects edges bound for one owner into {@link EdgeBlock}s of a bounded size, handing each full block on. */
final class EdgeBlockBuilder {
  /** Receives finished blocks with the owner they are bound for. */
  @FunctionalInterface
  interface Sink {
    void accept(int owner, EdgeBlock b) throws Exception;
  }

  private final int owner;
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

  EdgeBlockBuilder(int owner, boolean weighted, boolean touch, int capacity, Sink sink) {
    this.owner = owner;
    this.weighted = weighted;
    this.touch = touch;
    this.capacity = capacity;
    this.sink = sink;
    reset();
  }

  private void reset() {
    // Fresh arrays: the finished block is handed on as is (kept by the local owner, or encoded for a peer).
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
    int i = size;
    src[i] = s;
    dst[i] = d;
    rows[i] = row;
    if (weighted) {
      weights[i] = w;
    }
    size = i + 1;
    if (size == capacity) {
      flush();
    }
  }

  void flush() throws Exception {
    if (size == 0) {
      return;
    }
    EdgeBlock b = new EdgeBlock(file, size, src, dst, rows, weights, touch);
    reset();
    sink.accept(owner, b);
  }
}
