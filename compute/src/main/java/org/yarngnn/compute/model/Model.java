package org.yarngnn.compute.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A model directory in memory: the spec and its weights by tensor name. {@link ModelDirectory#read} returns
 * only validated models; {@link ModelDirectory#validateWeights} checks one built by hand.
 */
public record Model(ModelSpec spec, Map<String, Tensor> weights) {
  public Model {
    weights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
  }

  /** Tensor {@code layers.{layer}.{suffix}}; see {@link WeightLayout} for the suffixes. */
  public Tensor tensor(int layer, String suffix) {
    String name = WeightLayout.name(layer, suffix);
    Tensor t = weights.get(name);
    if (t == null) {
      throw new IllegalArgumentException("model has no tensor " + name);
    }
    return t;
  }

  /** Tensor {@code layers.{layer}.{suffix}}, or null when absent (a layer without bias has no bias tensor). */
  public Tensor tensorOrNull(int layer, String suffix) {
    return weights.get(WeightLayout.name(layer, suffix));
  }
}
