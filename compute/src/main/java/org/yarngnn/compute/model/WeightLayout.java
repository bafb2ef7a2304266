package org.yarngnn.compute.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tensors a model needs, by name and shape, as the model format defines them: {@code layers.{k}.weight}
 * [in, out] and {@code bias} [out] for gcn; {@code weight_self}, {@code weight_neigh} [in, out] and {@code bias}
 * [out] for sage; {@code weight} [in, heads*out], {@code attn_src}, {@code attn_dst} [heads, out] and
 * {@code bias} [heads*out] (or [out] without concat) for gat. No bias tensor when the layer has bias false.
 */
public final class WeightLayout {
  public static final String WEIGHT = "weight";
  public static final String WEIGHT_SELF = "weight_self";
  public static final String WEIGHT_NEIGH = "weight_neigh";
  public static final String ATTN_SRC = "attn_src";
  public static final String ATTN_DST = "attn_dst";
  public static final String BIAS = "bias";

  private WeightLayout() {}

  /** "layers.{layer}.{suffix}". */
  public static String name(int layer, String suffix) {
    return "layers." + layer + "." + suffix;
  }

  /** Name to shape of every tensor of {@code spec}, in layer order. */
  public static Map<String, int[]> shapes(ModelSpec spec) {
    Map<String, int[]> shapes = new LinkedHashMap<>();
    for (int k = 0; k < spec.layers().size(); k++) {
      shapes.putAll(shapes(k, spec.layers().get(k)));
    }
    return shapes;
  }

  /** Name to shape of the tensors of layer {@code k}. */
  public static Map<String, int[]> shapes(int k, LayerSpec l) {
    Map<String, int[]> shapes = new LinkedHashMap<>();
    switch (l.type()) {
      case GCN:
        shapes.put(name(k, WEIGHT), new int[] {l.in(), l.out()});
        break;
      case SAGE:
        shapes.put(name(k, WEIGHT_SELF), new int[] {l.in(), l.out()});
        shapes.put(name(k, WEIGHT_NEIGH), new int[] {l.in(), l.out()});
        break;
      case GAT:
        shapes.put(name(k, WEIGHT), new int[] {l.in(), l.heads() * l.out()});
        shapes.put(name(k, ATTN_SRC), new int[] {l.heads(), l.out()});
        shapes.put(name(k, ATTN_DST), new int[] {l.heads(), l.out()});
        break;
      default:
        throw new IllegalStateException("layer type " + l.type());
    }
    if (l.bias()) {
      shapes.put(name(k, BIAS), new int[] {l.outputWidth()});
    }
    return shapes;
  }
}
