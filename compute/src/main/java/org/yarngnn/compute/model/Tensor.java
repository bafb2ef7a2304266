package org.yarngnn.compute.model;

import java.util.Arrays;
import org.yarngnn.compute.tensor.DenseMatrix;

/** A named float32 tensor of the weights file: its shape and row-major values. */
public record Tensor(String name, int[] shape, float[] data) {
  /** The most values one tensor holds: its float[]'s, a Java array's practical limit. */
  public static final int MAX_VALUES = Integer.MAX_VALUE - 8;

  /** The number of values of a tensor of {@code shape}, as a long: a product of ints may pass int's range. */
  public static long values(int[] shape) {
    long n = 1;
    for (int d : shape) {
      n = Math.multiplyHigh(n, d) != 0 ? Long.MAX_VALUE : n * d;
    }
    return n;
  }

  public Tensor {
    long n = values(shape);
    if (n != data.length) {
      throw new IllegalArgumentException(name + ": shape " + Arrays.toString(shape) + " needs " + n
          + " values, has " + data.length);
    }
  }

  /** The tensor as a matrix: [r, c] as r x c, a vector [n] as 1 x n (the data array is shared). */
  public DenseMatrix asMatrix() {
    if (shape.length == 1) {
      return new DenseMatrix(1, shape[0], data);
    }
    if (shape.length == 2) {
      return new DenseMatrix(shape[0], shape[1], data);
    }
    throw new IllegalArgumentException(name + ": rank " + shape.length + " is not a matrix");
  }

  public static Tensor of(String name, DenseMatrix m) {
    return new Tensor(name, new int[] {m.rows(), m.cols()}, Arrays.copyOf(m.data(), m.rows() * m.cols()));
  }

  public static Tensor vector(String name, float[] v) {
    return new Tensor(name, new int[] {v.length}, v.clone());
  }

  /** Equal when name, shape and values are equal (a record would compare the arrays by identity). */
  @Override
  public boolean equals(Object o) {
    return o instanceof Tensor t && name.equals(t.name) && Arrays.equals(shape, t.shape)
        && Arrays.equals(data, t.data);
  }

  @Override
  public int hashCode() {
    return (name.hashCode() * 31 + Arrays.hashCode(shape)) * 31 + Arrays.hashCode(data);
  }

  @Override
  public String toString() {
    return "Tensor[" + name + " " + Arrays.toString(shape) + "]";
  }
}
