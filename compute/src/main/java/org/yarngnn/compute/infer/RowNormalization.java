package org.yarngnn.compute.infer;

import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.tensor.DenseMatrix;

/** The model format's input and output row normalisations, in place. */
public final class RowNormalization {
  private RowNormalization() {}

  /** {@code input.normalize: row}: each row divided by its sum; a row summing to zero is left as it is. */
  public static void divideBySum(float[] data, int offset, int width) {
    double sum = 0;
    for (int c = 0; c < width; c++) {
      sum += data[offset + c];
    }
    if (sum != 0) {
      float inv = (float) (1.0 / sum);
      for (int c = 0; c < width; c++) {
        data[offset + c] *= inv;
      }
    }
  }

  /** {@code output.normalize: l2}: each row scaled to unit L2 norm; a zero row stays zero. */
  public static void scaleToUnitL2(float[] data, int offset, int width) {
    double sq = 0;
    for (int c = 0; c < width; c++) {
      sq += (double) data[offset + c] * data[offset + c];
    }
    if (sq > 0) {
      float inv = (float) (1.0 / Math.sqrt(sq));
      for (int c = 0; c < width; c++) {
        data[offset + c] *= inv;
      }
    }
  }

  /** Applies the named input normalisation ("none" or "row") to every row of {@code m}. */
  public static void applyInput(String mode, DenseMatrix m) {
    if ("row".equals(mode)) {
      RowRanges.parallel(m.rows(), 1024, (from, to) -> {
        for (int r = from; r < to; r++) {
          divideBySum(m.data(), m.offset(r), m.cols());
        }
      });
    }
  }

  /** Applies the named output normalisation ("none" or "l2") to every row of {@code m}. */
  public static void applyOutput(String mode, DenseMatrix m) {
    if ("l2".equals(mode)) {
      RowRanges.parallel(m.rows(), 1024, (from, to) -> {
        for (int r = from; r < to; r++) {
          scaleToUnitL2(m.data(), m.offset(r), m.cols());
        }
      });
    }
  }

  /** Index of the largest value of a row (the first on ties): the predicted class. */
  public static int argmax(float[] data, int offset, int width) {
    int best = 0;
    for (int c = 1; c < width; c++) {
      if (data[offset + c] > data[offset + best]) {
        best = c;
      }
    }
    return best;
  }
}
