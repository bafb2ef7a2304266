package org.yarngnn.partition;

import java.util.ArrayList;
import java.util.List;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Feature rows appended in table order into fixed-size blocks, so an unknown row count never forces a copy of
 * everything read so far; {@link #toMatrix} assembles them once the count is known.
 */
final class FeatureRows {
  private static final int BLOCK_ROWS = 1 << 14;

  private final int width;
  private final List<float[]> blocks = new ArrayList<>();
  private int rows;

  FeatureRows(int width) {
    this.width = width;
  }

  void add(float[] features) {
    add(features, 0);
  }

  /** Appends the row {@code features[offset, offset + width)}. */
  void add(float[] features, int offset) {
    int inBlock = rows % BLOCK_ROWS;
    if (inBlock == 0) {
      blocks.add(new float[BLOCK_ROWS * width]);
    }
    System.arraycopy(features, offset, blocks.get(blocks.size() - 1), inBlock * width, width);
    rows++;
  }

  /** Appends a zero row (a node known only from the edges, under --missing-features zero). */
  void addZero() {
    if (rows % BLOCK_ROWS == 0) {
      blocks.add(new float[BLOCK_ROWS * width]);
    }
    rows++;
  }

  int rows() {
    return rows;
  }

  int width() {
    return width;
  }

  /** Copies row {@code row} into {@code out} at {@code offset}. */
  void copyRow(int row, float[] out, int offset) {
    System.arraycopy(blocks.get(row / BLOCK_ROWS), (row % BLOCK_ROWS) * width, out, offset, width);
  }

  DenseMatrix toMatrix() {
    DenseMatrix m = new DenseMatrix(rows, width);
    int copied = 0;
    for (float[] block : blocks) {
      int n = Math.min(BLOCK_ROWS, rows - copied);
      System.arraycopy(block, 0, m.data(), copied * width, n * width);
      copied += n;
    }
    blocks.clear();
    return m;
  }
}
