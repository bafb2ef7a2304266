package org.yarngnn.compute.layer;

import java.util.Arrays;
import java.util.Map;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Tensor;
import org.yarngnn.compute.tensor.DenseMatrix;

/** Builds layers from a {@link LayerSpec} and the weights file's tensors, named as in the contract. */
public final class Layers {
  private Layers() {}

  /**
   * The layer {@code index} (0-based, the {@code k} of {@code layers.{k}.*}) described by {@code spec}, with
   * its tensors taken from {@code weights}: gcn {@code weight} [in, out]; sage {@code weight_self},
   * {@code weight_neigh} [in, out]; gat {@code weight} [in, heads*out], {@code attn_src} and {@code attn_dst}
   * [heads, out]; {@code bias} [outputWidth] when {@code spec.bias()}. Tensors are copied (packed), so the map
   * may be released afterwards.
   *
   * @throws IllegalArgumentException naming the tensor when one is missing or has the wrong shape
   */
  public static Layer create(LayerSpec spec, int index, Map<String, Tensor> weights) {
    String p = "layers." + index + ".";
    float[] bias = spec.bias() ? tensor(weights, p + "bias", spec.outputWidth()).data() : null;
    switch (spec.type()) {
      case GCN:
        return new GcnLayer(spec, tensor(weights, p + "weight", spec.in(), spec.out()).asMatrix(), bias);
      case SAGE:
        return new SageLayer(spec, tensor(weights, p + "weight_self", spec.in(), spec.out()).asMatrix(),
            tensor(weights, p + "weight_neigh", spec.in(), spec.out()).asMatrix(), bias);
      case GAT:
        int hw = spec.heads() * spec.out();
        DenseMatrix w = tensor(weights, p + "weight", spec.in(), hw).asMatrix();
        return new GatLayer(spec, w, tensor(weights, p + "attn_src", spec.heads(), spec.out()).data(),
            tensor(weights, p + "attn_dst", spec.heads(), spec.out()).data(), bias);
      default:
        throw new IllegalArgumentException("unknown layer type " + spec.type());
    }
  }

  private static Tensor tensor(Map<String, Tensor> weights, String name, int... shape) {
    Tensor t = weights.get(name);
    if (t == null) {
      throw new IllegalArgumentException("missing tensor " + name + " " + Arrays.toString(shape));
    }
    if (!Arrays.equals(t.shape(), shape)) {
      throw new IllegalArgumentException("tensor " + name + " has shape " + Arrays.toString(t.shape())
          + ", expected " + Arrays.toString(shape));
    }
    return t;
  }
}
