package org.yarngnn.compute.tensor;

import java.util.Arrays;

/**
 * A dense float32 matrix in row-major order. The backing array is exposed on purpose: the hot kernels work on
 * it directly with caller-supplied outputs (as EJML's CommonOps do), so no kernel allocates per call.
 */
public final class DenseMatrix {
  private final int rows;
  private final int cols;
  private final float[] data;

  public DenseMatrix(int rows, int cols) {
    this(rows, cols, new float[checkedSize(rows, cols)]);
  }

  /** Wraps {@code data} (not copied); it must hold at least rows*cols values. */
  public DenseMatrix(int rows, int cols, float[] data) {
    if (data.length < checkedSize(rows, cols)) {
      throw new IllegalArgumentException("data holds " + data.length + " values, need " + (long) rows * cols);
    }
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }

  private static int checkedSize(int rows, int cols) {
    if (rows < 0 || cols < 0) {
      throw new IllegalArgumentException("negative shape " + rows + "x" + cols);
    }
    long n = (long) rows * cols;
    if (n > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("matrix " + rows + "x" + cols + " is too large for one block; partition it");
    }
    return (int) n;
  }

  public int rows() {
    return rows;
  }

  public int cols() {
    return cols;
  }

  /** The row-major backing array; element (r, c) is at {@code r * cols() + c}. */
  public float[] data() {
    return data;
  }

  public float get(int r, int c) {
    return data[r * cols + c];
  }

  public void set(int r, int c, float v) {
    data[r * cols + c] = v;
  }

  /** Offset of row {@code r} in {@link #data()}. */
  public int offset(int r) {
    return r * cols;
  }

  /** A copy of row {@code r}. */
  public float[] row(int r) {
    return Arrays.copyOfRange(data, r * cols, r * cols + cols);
  }

  public void zero() {
    Arrays.fill(data, 0, rows * cols, 0f);
  }

  public DenseMatrix copy() {
    return new DenseMatrix(rows, cols, Arrays.copyOf(data, rows * cols));
  }

  public static DenseMatrix of(float[][] values) {
    int r = values.length;
    int c = r == 0 ? 0 : values[0].length;
    DenseMatrix m = new DenseMatrix(r, c);
    for (int i = 0; i < r; i++) {
      if (values[i].length != c) {
        throw new IllegalArgumentException("ragged row " + i);
      }
      System.arraycopy(values[i], 0, m.data, i * c, c);
    }
    return m;
  }

  @Override
  public String toString() {
    return "DenseMatrix[" + rows + "x" + cols + "]";
  }
}
