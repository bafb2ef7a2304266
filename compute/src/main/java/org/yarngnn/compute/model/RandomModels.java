package org.yarngnn.compute.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random models for demos and tests: Glorot-uniform weights (limit sqrt(6 / (fan_in + fan_out)), as
 * torch.nn.init.xavier_uniform_), attention vectors likewise with fan_in = out and fan_out = 1, and biases
 * uniform in [-0.1, 0.1) rather than PyTorch's zeros so that tests exercise the bias path. The same spec and
 * seed give the same weights.
 */
public final class RandomModels {
  private static final float BIAS_RANGE = 0.1f;

  private RandomModels() {}

  public static Model random(ModelSpec spec, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    Map<String, Tensor> weights = new LinkedHashMap<>();
    for (Map.Entry<String, int[]> e : WeightLayout.shapes(spec).entrySet()) {
      String name = e.getKey();
      int[] shape = e.getValue();
      float limit;
      if (name.endsWith("." + WeightLayout.BIAS)) {
        limit = BIAS_RANGE;
      } else if (name.endsWith("." + WeightLayout.ATTN_SRC) || name.endsWith("." + WeightLayout.ATTN_DST)) {
        limit = (float) Math.sqrt(6.0 / (shape[1] + 1));
      } else {
        limit = (float) Math.sqrt(6.0 / (shape[0] + shape[1]));
      }
      int n = 1;
      for (int d : shape) {
        n *= d;
      }
      float[] v = new float[n];
      for (int i = 0; i < n; i++) {
        v[i] = (float) ((rng.nextDouble() * 2 - 1) * limit);
      }
      weights.put(name, new Tensor(name, shape.clone(), v));
    }
    return new Model(spec, weights);
  }
}
