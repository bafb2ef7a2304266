package org.yarngnn.compute.model;

import org.yarngnn.compute.kernel.Activation;

/**
 * One entry of model.json's {@code layers}. {@code out} is the per-head width for gat; {@link #outputWidth()}
 * is what the next layer sees. {@code fanout} is -1 for "all neighbours"; {@code heads}, {@code concat} and
 * {@code negativeSlope} matter for gat only.
 */
public record LayerSpec(
    LayerType type,
    int in,
    int out,
    Activation activation,
    boolean bias,
    int fanout,
    int heads,
    boolean concat,
    float negativeSlope) {

  /** Width of this layer's output rows. */
  public int outputWidth() {
    return type == LayerType.GAT && concat ? heads * out : out;
  }

  public static LayerSpec gcn(int in, int out, Activation act, boolean bias) {
    return new LayerSpec(LayerType.GCN, in, out, act, bias, -1, 1, true, 0.2f);
  }

  public static LayerSpec sage(int in, int out, Activation act, boolean bias, int fanout) {
    return new LayerSpec(LayerType.SAGE, in, out, act, bias, fanout, 1, true, 0.2f);
  }

  public static LayerSpec gat(int in, int out, int heads, boolean concat, float negativeSlope, Activation act,
      boolean bias) {
    return new LayerSpec(LayerType.GAT, in, out, act, bias, -1, heads, concat, negativeSlope);
  }
}
