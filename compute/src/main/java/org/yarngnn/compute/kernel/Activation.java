package org.yarngnn.compute.kernel;

import java.util.Locale;

/** Element-wise activations of the model format, applied in place. */
public enum Activation {
  NONE("none"),
  RELU("relu"),
  ELU("elu"),
  /** Slope 0.01, as torch.nn.functional.leaky_relu's default. */
  LEAKY_RELU("leaky_relu"),
  TANH("tanh"),
  SIGMOID("sigmoid");

  private final String jsonName;

  Activation(String jsonName) {
    this.jsonName = jsonName;
  }

  public String jsonName() {
    return jsonName;
  }

  /** The activation named {@code name} in model.json, or null when there is none of that name. */
  public static Activation byName(String name) {
    for (Activation a : values()) {
      if (a.jsonName.equals(name.toLowerCase(Locale.ROOT))) {
        return a;
      }
    }
    return null;
  }

  public float apply(float x) {
    switch (this) {
      case RELU:
        return x > 0f ? x : 0f;
      case ELU:
        return elu(x);
      case LEAKY_RELU:
        return x > 0f ? x : 0.01f * x;
      case TANH:
        return (float) Math.tanh(x);
      case SIGMOID:
        return (float) (1.0 / (1.0 + Math.exp(-x)));
      default:
        return x;
    }
  }

  /** Below this, expm1(x) is x to float precision (x^2/2 is under half an ulp of x). */
  private static final float ELU_LINEAR = -1e-8f;

  /**
   * elu(x) = x for x > 0, else exp(x) - 1, to float precision: Math.exp is a compiler intrinsic where Math.expm1 is
   * a call into the class library's fdlibm (jexpm1: 1.6 of a gat job's 21 CPU-seconds, layer 0's 128M outputs).
   * In double, exp(x) - 1 loses at most 2^-52 absolute to cancellation, under half a float ulp of the result for
   * every x below {@link #ELU_LINEAR}; above it the result is x itself. Within one float ulp of Math.expm1
   * (ActivationTest sweeps it).
   */
  public static float elu(float x) {
    if (x > 0f) {
      return x;
    }
    return x > ELU_LINEAR ? x : (float) (Math.exp(x) - 1.0);
  }

  /** Applies the activation to {@code v[from..to)} in place. */
  public void apply(float[] v, int from, int to) {
    // One switch per call, not per element, so each loop is a tight one the JIT can vectorise where it may.
    switch (this) {
      case RELU:
        SparseRows.relu(v, from, to - from);
        return;
      case LEAKY_RELU:
        for (int i = from; i < to; i++) {
          float x = v[i];
          v[i] = x > 0f ? x : 0.01f * x;
        }
        return;
      case NONE:
        return;
      default:
        for (int i = from; i < to; i++) {
          v[i] = apply(v[i]);
        }
    }
  }
  /**
   * The derivative at the point whose output is {@code y = apply(x)}, written in terms of the output so that
   * training needs to keep only the layer's output rows (which are the next layer's input anyway): relu
   * {@code y > 0}; leaky_relu {@code y > 0 ? 1 : 0.01}; elu {@code y > 0 ? 1 : y + 1} (= exp(x)); tanh
   * {@code 1 - y^2}; sigmoid {@code y (1 - y)}; none 1. At {@code x = 0} these are PyTorch's choices (relu 0,
   * leaky_relu 0.01, elu 1).
   */
  public float derivativeFromOutput(float y) {
    switch (this) {
      case RELU:
        return y > 0f ? 1f : 0f;
      case LEAKY_RELU:
        return y > 0f ? 1f : 0.01f;
      case ELU:
        return y > 0f ? 1f : y + 1f;
      case TANH:
        return 1f - y * y;
      case SIGMOID:
        return y * (1f - y);
      default:
        return 1f;
    }
  }

  /**
   * Backward through the activation: {@code dx[xOff+c] = dy[dyOff+c] * f'(x)} for {@code c < n}, f' taken from
   * the outputs {@code y[yOff+c]} ({@link #derivativeFromOutput}). {@code dx} may be {@code dy} (in place).
   */
  public void backward(float[] y, int yOff, float[] dy, int dyOff, float[] dx, int xOff, int n) {
    switch (this) {
      case NONE:
        if (dx != dy || xOff != dyOff) {
          System.arraycopy(dy, dyOff, dx, xOff, n);
        }
        return;
      case RELU:
        for (int c = 0; c < n; c++) {
          dx[xOff + c] = y[yOff + c] > 0f ? dy[dyOff + c] : 0f;
        }
        return;
      default:
        for (int c = 0; c < n; c++) {
          dx[xOff + c] = dy[dyOff + c] * derivativeFromOutput(y[yOff + c]);
        }
    }
  }
}
