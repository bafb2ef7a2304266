package org.yarngnn.compute.kernel;

import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The right-hand operand B (k x n) of {@link Gemm}, packed once into the panel layout the kernel streams
 * (weights are packed once per layer and reused for every row block). PLACEHOLDER layout: a row-major copy.
 */
public final class PackedMatrix {
  private final int rows;
  private final int cols;
  private final float[] data;

  private PackedMatrix(int rows, int cols, float[] data) {
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }

  public static PackedMatrix pack(DenseMatrix b) {
    return new PackedMatrix(b.rows(), b.cols(), b.data().clone());
  }

  public int rows() {
    return rows;
  }

  public int cols() {
    return cols;
  }

  float[] data() {
    return data;
  }
}
