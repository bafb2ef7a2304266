package org.yarngnn.app.infer;

import java.util.Arrays;

/** Collects node rows of one file into {@link NodeBlock}s of a bounded size, handing each full block on. */
final class NodeBlockBuilder {
  /** Receives finished blocks. */
  @FunctionalInterface
  interface Sink {
    void accept(NodeBlock b) throws Exception;
  }

  private static final int DEFAULT_ROWS = 2048;

  private final int file;
  private final int width;
  private final boolean labelled;
  private final Sink sink;
  private final int capacity;
  private long[] ids;
  private long[] rows;
  private int[] labels;
  private byte[] splits;
  private float[] values;
  private int size;

  NodeBlockBuilder(int file, int width, boolean labelled, Sink sink) {
    this(file, width, labelled, sink, DEFAULT_ROWS);
  }

  NodeBlockBuilder(int file, int width, boolean labelled, Sink sink, int capacity) {
    this.file = file;
    this.width = width;
    this.labelled = labelled;
    this.sink = sink;
    this.capacity = Math.max(1, capacity);
    reset();
  }

  private void reset() {
    ids = new long[capacity];
    rows = new long[capacity];
    labels = labelled ? new int[capacity] : null;
    splits = labelled ? new byte[capacity] : null;
    values = new float[capacity * width];
    size = 0;
  }

  void add(long id, long row, int label, byte split, float[] features) {
    add(id, row, label, split, features, 0);
  }

  void add(long id, long row, int label, byte split, float[] src, int offset) {
    ids[size] = id;
    rows[size] = row;
    if (labelled) {
      labels[size] = label;
      splits[size] = split;
    }
    System.arraycopy(src, offset, values, size * width, width);
    if (++size == capacity) {
      flushUnchecked();
    }
  }

  private void flushUnchecked() {
    try {
      flush();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  void flush() throws Exception {
    if (size == 0) {
      return;
    }
    NodeBlock b = new NodeBlock(file, Arrays.copyOf(ids, size), Arrays.copyOf(rows, size),
        labelled ? Arrays.copyOf(labels, size) : null, labelled ? Arrays.copyOf(splits, size) : null, width,
        Arrays.copyOf(values, size * width));
    reset();
    sink.accept(b);
  }
}
