package org.yarngnn.compute.cost;

import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.LayerType;

/**
 * What the cost model needs of a layer: its type, input and per-head output width, heads and fanout (-1: all
 * in-neighbours).
 */
public record CostLayer(LayerType type, int in, int out, int heads, int fanout) {
  public CostLayer {
    if (in < 1 || out < 1 || heads < 1) {
      throw new IllegalArgumentException("layer widths and heads must be positive");
    }
  }

  public static CostLayer of(LayerSpec s) {
    return new CostLayer(s.type(), s.in(), s.out(), s.type() == LayerType.GAT ? s.heads() : 1,
        s.type() == LayerType.SAGE ? s.fanout() : -1);
  }

  /** Width of the rows the dense part produces: gcn {@code out}, sage {@code [self | neigh]}, gat heads x out. */
  public int linearWidth() {
    return type == LayerType.SAGE ? 2 * out : heads * out;
  }

  /**
   * Width of the rows aggregated over edges and exchanged for halo sources: the transformed rows ({@code A(HW)});
   * gat also its per-head source score.
   */
  public int messageWidth() {
    return type == LayerType.GAT ? heads * out + heads : out;
  }

  /** Width of the output rows (gat heads concatenated: the widest case). */
  public int outputWidth() {
    return type == LayerType.GAT ? heads * out : out;
  }

  /**
   * Expected sampled in-edges of a node of mean in-degree {@code degree}: all of them, or for a sage fanout f
   * {@code f (1 - exp(-degree / f))} (the mean of min(D, f) for a Poisson D, a fair guess on skewed graphs too).
   */
  public double sampledDegree(double degree) {
    if (fanout < 0 || degree <= 0) {
      return degree;
    }
    return Math.min(degree, fanout * (1 - Math.exp(-degree / fanout)));
  }
}
