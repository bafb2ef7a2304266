package org.yarngnn.partition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Feature rows appended in table order into chunks, so an unknown row count never forces a copy of everything
 * read so far; {@link #toMatrix} assembles them once the count is known. A chunk is either filled row by row
 * (fixed size) or a caller's array taken over as it is ({@link #adopt}: a block of rows read by the worker
 * that owns them, which would otherwise be copied once more here). Adopted slices that lie back to back in one
 * array and fill it (a reader that read all its rows into one array) become the matrix without a copy.
 */
final class FeatureRows {
  private static final int BLOCK_ROWS = 1 << 14;

  private final int width;
  private final List<float[]> chunks = new ArrayList<>();
  /** Where each chunk's first row starts in its array. */
  private int[] offsets = new int[16];
  /** First row of each chunk; {@code starts[chunks.size()]} is {@link #rows}. */
  private int[] starts = new int[16];
  /** Rows the last chunk can still take by {@link #add}: 0 for an adopted chunk. */
  private int room;
  /**
   * The array added rows go into, and how many of its rows are taken. A chunk that follows an adopted one goes on
   * in it: rows routed from peers arrive between the owner's own blocks, and a fresh array for each run of them
   * left most of every 16,384-row array empty.
   */
  private float[] fill;
  private int fillRows;
  private int rows;
  /** The chunk the last {@link #copyRow} read (rows are mostly read in order). */
  private int lastChunk;

  FeatureRows(int width) {
    this.width = width;
  }

  void add(float[] features) {
    add(features, 0);
  }

  /** Appends the row {@code features[offset, offset + width)}. */
  void add(float[] features, int offset) {
    int at = nextFillRow(); // first: it may start a new fill array
    System.arraycopy(features, offset, fill, at, width);
  }

  /** Appends a zero row (a node known only from the edges, under --missing-features zero). */
  void addZero() {
    nextFillRow(); // a fill array's rows start zeroed and are taken once
  }

  /**
   * Takes the next row of the fill array for an added row and returns where it starts: in the last chunk while it
   * has room, else in a new chunk from the fill array's first free row (a new fill array only when that one is full).
   */
  private int nextFillRow() {
    if (room == 0) {
      if (fill == null || fillRows == BLOCK_ROWS) {
        fill = new float[BLOCK_ROWS * width];
        fillRows = 0;
      }
      newChunk(fill, BLOCK_ROWS - fillRows);
      offsets[chunks.size() - 1] = fillRows * width;
    }
    rows++;
    room--;
    starts[chunks.size()] = rows;
    return fillRows++ * width;
  }

  /** Appends the first {@code count} rows of {@code features}, taking the array over (the caller gives it up). */
  void adopt(float[] features, int count) {
    adopt(features, 0, count);
  }

  /**
   * Appends {@code count} rows of {@code features} from {@code offset} on, taking that slice over (the caller gives
   * it up).
   */
  void adopt(float[] features, int offset, int count) {
    if (offset < 0 || features.length - (long) offset < (long) count * width) {
      throw new IllegalArgumentException(count + " rows of width " + width + " at " + offset + " in "
          + features.length + " floats");
    }
    if (count == 0) {
      return;
    }
    newChunk(features, 0);
    offsets[chunks.size() - 1] = offset;
    rows += count;
    starts[chunks.size()] = rows;
  }

  private void newChunk(float[] chunk, int capacity) {
    chunks.add(chunk);
    if (starts.length < chunks.size() + 1) {
      starts = Arrays.copyOf(starts, starts.length * 2);
      offsets = Arrays.copyOf(offsets, starts.length);
    }
    offsets[chunks.size() - 1] = 0;
    starts[chunks.size() - 1] = rows;
    starts[chunks.size()] = rows;
    room = capacity;
  }

  /** The one array every row already lies in, in order and filling it, or null. */
  private float[] wholeArray() {
    if (chunks.isEmpty() || chunks.get(0).length != (long) rows * width) {
      return null;
    }
    float[] a = chunks.get(0);
    for (int c = 0; c < chunks.size(); c++) {
      if (chunks.get(c) != a || offsets[c] != starts[c] * width) {
        return null;
      }
    }
    return a;
  }

  int rows() {
    return rows;
  }

  /** Floats held by the chunks' arrays, each array counted once (what these rows cost in memory). */
  long heldFloats() {
    java.util.Set<float[]> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    long n = 0;
    for (float[] c : chunks) {
      if (seen.add(c)) {
        n += c.length;
      }
    }
    return n;
  }

  int width() {
    return width;
  }

  /** Copies row {@code row} into {@code out} at {@code offset}. */
  void copyRow(int row, float[] out, int offset) {
    int c = lastChunk;
    if (c >= chunks.size() || row < starts[c] || row >= starts[c + 1]) {
      c = Arrays.binarySearch(starts, 0, chunks.size() + 1, row);
      c = c >= 0 ? c : -c - 2;
      while (starts[c + 1] == starts[c]) {
        c++; // an empty chunk at this start: the row is in the next one
      }
      lastChunk = c;
    }
    System.arraycopy(chunks.get(c), offsets[c] + (row - starts[c]) * width, out, offset, width);
  }

  DenseMatrix toMatrix() {
    float[] whole = wholeArray();
    DenseMatrix m = whole != null ? new DenseMatrix(rows, width, whole) : new DenseMatrix(rows, width);
    for (int c = 0; whole == null && c < chunks.size(); c++) {
      int n = starts[c + 1] - starts[c];
      System.arraycopy(chunks.get(c), offsets[c], m.data(), starts[c] * width, n * width);
    }
    chunks.clear();
    room = 0;
    fill = null;
    return m;
  }
}
