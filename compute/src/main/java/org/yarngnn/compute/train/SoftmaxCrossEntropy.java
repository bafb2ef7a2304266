package org.yarngnn.compute.train;

import org.yarngnn.compute.infer.RowNormalization;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Softmax cross-entropy over the rows a mask selects, and accuracy. The loss is returned as a sum and the
 * gradient scaled by a caller-given factor, so workers that each hold some training rows return partial sums
 * and use {@code scale = 1 / (global number of training rows)}: their gradients then add up to the gradient of
 * the mean loss, and the loss is the sum of their sums divided by that count.
 */
public final class SoftmaxCrossEntropy {
  private SoftmaxCrossEntropy() {}

  /**
   * Rows {@code [from, to)}: returns the sum over rows r with {@code mask[r]} of
   * {@code -log softmax(logits_r)[labels[r]]} (in double, max-subtracted), and writes {@code dLogits} row r =
   * {@code scale * (softmax(logits_r) - onehot(labels[r]))} for those rows and zero for the others.
   */
  public static double lossAndGradient(DenseMatrix logits, int[] labels, boolean[] mask, int from, int to,
      float scale, DenseMatrix dLogits) {
    int w = logits.cols();
    float[] x = logits.data();
    float[] d = dLogits.data();
    double total = 0;
    for (int r = from; r < to; r++) {
      int xo = logits.offset(r);
      int o = dLogits.offset(r);
      if (!mask[r]) {
        java.util.Arrays.fill(d, o, o + w, 0f);
        continue;
      }
      int y = labels[r];
      if (y < 0 || y >= w) {
        throw new IllegalArgumentException("row " + r + " is a training row with label " + y + " outside 0.."
            + (w - 1));
      }
      double max = Double.NEGATIVE_INFINITY;
      for (int c = 0; c < w; c++) {
        max = Math.max(max, x[xo + c]);
      }
      double sum = 0;
      for (int c = 0; c < w; c++) {
        sum += Math.exp(x[xo + c] - max);
      }
      double logSum = Math.log(sum) + max;
      total += logSum - x[xo + y];
      for (int c = 0; c < w; c++) {
        double p = Math.exp(x[xo + c] - logSum);
        d[o + c] = (float) (scale * (p - (c == y ? 1 : 0)));
      }
    }
    return total;
  }

  /** Number of rows r in {@code [from, to)} with {@code mask[r]} whose argmax equals {@code labels[r]}. */
  public static int correct(DenseMatrix logits, int[] labels, boolean[] mask, int from, int to) {
    int n = 0;
    for (int r = from; r < to; r++) {
      if (mask[r] && RowNormalization.argmax(logits.data(), logits.offset(r), logits.cols()) == labels[r]) {
        n++;
      }
    }
    return n;
  }

  /** Number of rows with {@code mask[r]}. */
  public static int count(boolean[] mask) {
    int n = 0;
    for (boolean b : mask) {
      if (b) {
        n++;
      }
    }
    return n;
  }

  /** Accuracy over the masked rows (0 when there are none). */
  public static double accuracy(DenseMatrix logits, int[] labels, boolean[] mask) {
    int n = count(mask);
    return n == 0 ? 0 : (double) correct(logits, labels, mask, 0, logits.rows()) / n;
  }
}
