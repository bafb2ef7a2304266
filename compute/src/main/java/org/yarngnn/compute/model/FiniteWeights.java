package org.yarngnn.compute.model;

import java.util.Arrays;
import java.util.Map;

/**
 * Model weights are finite numbers: a NaN or infinite weight would turn every embedding it touches into NaN
 * while the job reports success. Checked when a model is read.
 */
public final class FiniteWeights {
  private FiniteWeights() {}

  /**
   * @throws ModelFormatException naming {@code file}, the first tensor (in name order) holding a NaN or infinite
   *     value, its first such index (flat, and per dimension) and the value
   */
  public static void check(Map<String, Tensor> weights, String file) {
    for (Tensor t : new java.util.TreeMap<>(weights).values()) {
      float[] d = t.data();
      for (int i = 0; i < d.length; i++) {
        if (!Float.isFinite(d[i])) {
          throw new ModelFormatException(file + ": tensor " + t.name() + " holds " + d[i] + " at index " + i
              + position(t.shape(), i) + "; weights must be finite");
        }
      }
    }
  }

  /** " [r, c]" for a tensor of two or more dimensions, else "". */
  private static String position(int[] shape, int flat) {
    if (shape.length < 2) {
      return "";
    }
    int[] at = new int[shape.length];
    long rest = flat;
    for (int k = shape.length - 1; k >= 0; k--) {
      at[k] = (int) (rest % shape[k]);
      rest /= shape[k];
    }
    return " " + Arrays.toString(at);
  }
}
