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
        return x > 0f ? x : (float) Math.expm1(x);
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

  /** Applies the activation to {@code v[from..to)} in place. */
  public void apply(float[] v, int from, int to) {
    // One switch per call, not per element, so each loop is a tight one the JIT can vectorise where it may.
    switch (this) {
      case RELU:
        for (int i = from; i < to; i++) {
          float x = v[i];
          v[i] = x > 0f ? x : 0f;
        }
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
}
