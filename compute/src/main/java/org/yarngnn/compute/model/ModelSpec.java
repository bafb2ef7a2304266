package org.yarngnn.compute.model;

import java.util.List;

/**
 * model.json without the weights. {@code inputNormalize} is "none" or "row"; {@code outputNormalize} is "none"
 * or "l2"; {@code predict} asks for the argmax column in the output table.
 */
public record ModelSpec(String inputNormalize, List<LayerSpec> layers, String outputNormalize, boolean predict) {
  public ModelSpec {
    layers = List.copyOf(layers);
  }

  public int inputWidth() {
    return layers.get(0).in();
  }

  public int outputWidth() {
    return layers.get(layers.size() - 1).outputWidth();
  }
}
