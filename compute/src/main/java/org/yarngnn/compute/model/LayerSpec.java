package org.yarngnn.compute.model;

import org.yarngnn.compute.kernel.Activation;

/**
 * One entry of model.json's {@code layers}. {@code out} is the per-head width for gat; {@link #outputWidth()}
 * is what the next layer sees. {@code fanout} is -1 for "all neighbours"; {@code heads}, {@code concat} and
 * {@code negativeSlope} matter for gat only. {@code dropout} is the layer's own training dropout rate (model.json's
 * optional {@code "dropout"}, in [0, 1)), or -1 when the spec does not give one; inference ignores it.
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
    float negativeSlope,
    double dropout) {
  /** The spec's "dropout" when absent. */
  public static final double NO_DROPOUT = -1;

  /** As the canonical constructor, without a dropout of its own. */
  public LayerSpec(LayerType type, int in, int out, Activation activation, boolean bias, int fanout, int heads,
      boolean concat, float negativeSlope) {
    this(type, in, out, activation, bias, fanout, heads, concat, negativeSlope, NO_DROPOUT);
  }

  /** Whether the spec gives this layer its own dropout rate. */
  public boolean hasDropout() {
    return dropout >= 0;
  }

  /** This layer with its own dropout rate {@code p} ({@link #NO_DROPOUT}: none). */
  public LayerSpec withDropout(double p) {
    return new LayerSpec(type, in, out, activation, bias, fanout, heads, concat, negativeSlope, p);
  }

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
