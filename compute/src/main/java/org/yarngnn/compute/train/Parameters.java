package org.yarngnn.compute.train;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.Tensor;
import org.yarngnn.compute.model.WeightLayout;
import org.yarngnn.compute.synth.SplitMix64;

/**
 * All weights of a model as one flat float array (what Adam and parameter servers work on), laid out tensor
 * after tensor in {@link WeightLayout#shapes} order, i.e. layer after layer; {@link #layerOffset(int)} is where
 * layer k's tensors start, the layout each {@link TrainLayer} uses.
 */
public final class Parameters {
  private static final long INIT_SALT = 0x510E527FADE682D1L;
  /** The most floats of the one parameter array. */
  public static final int MAX_VALUES = Integer.MAX_VALUE - 16;

  private final ModelSpec spec;
  private final Map<String, int[]> shapes;
  private final Map<String, Integer> offsets = new LinkedHashMap<>();
  private final int[] layerOffset;
  private final float[] values;

  public Parameters(ModelSpec spec) {
    this.spec = spec;
    this.shapes = WeightLayout.shapes(spec);
    int n = spec.layers().size();
    layerOffset = new int[n + 1];
    int beyond = firstLayerBeyondLimit(spec);
    if (beyond >= 0) {
      throw new IllegalArgumentException("model too large for one parameter array (from layer " + beyond + ")");
    }
    long off = 0;
    for (int k = 0; k < n; k++) {
      layerOffset[k] = (int) off;
      for (Map.Entry<String, int[]> e : WeightLayout.shapes(k, spec.layers().get(k)).entrySet()) {
        offsets.put(e.getKey(), (int) off);
        off += Tensor.values(e.getValue());
      }
    }
    layerOffset[n] = (int) off;
    values = new float[(int) off];
  }

  /** The first layer whose tensors take the model past {@link #MAX_VALUES} parameters, or -1 when it fits. */
  public static int firstLayerBeyondLimit(ModelSpec spec) {
    long total = 0;
    for (int k = 0; k < spec.layers().size(); k++) {
      for (int[] shape : WeightLayout.shapes(k, spec.layers().get(k)).values()) {
        total += Tensor.values(shape);
        if (total > MAX_VALUES) {
          return k;
        }
      }
    }
    return -1;
  }

  public ModelSpec spec() {
    return spec;
  }

  /** The flat values (live: the optimiser updates them in place). */
  public float[] values() {
    return values;
  }

  public int size() {
    return values.length;
  }

  /** Start of layer k's tensors; {@code layerOffset(layers)} is the total size. */
  public int layerOffset(int k) {
    return layerOffset[k];
  }

  /** Offset of tensor {@code name} ({@code layers.{k}.{suffix}}). */
  public int offset(String name) {
    Integer o = offsets.get(name);
    if (o == null) {
      throw new IllegalArgumentException("no tensor " + name);
    }
    return o;
  }

  public Map<String, int[]> shapes() {
    return shapes;
  }

  /**
   * Glorot (Xavier) uniform as PyG's {@code glorot} and Kipf's GCN: weights [in, out] uniform in
   * {@code +-sqrt(6 / (in + out))} (gat's [in, heads*out] with fan {@code in + heads*out}, as PyG's Linear),
   * attention vectors [heads, out] with {@code +-sqrt(6 / (heads + out))} (PyG's glorot of att [1, heads, out]),
   * biases zero. Tensor t (in layout order) draws from {@code SplitMix64.forItem(seed, INIT_SALT, t)}, so the
   * same spec and seed give the same weights.
   */
  public static Parameters glorot(ModelSpec spec, long seed) {
    Parameters p = new Parameters(spec);
    int t = 0;
    for (Map.Entry<String, int[]> e : p.shapes.entrySet()) {
      String name = e.getKey();
      int[] shape = e.getValue();
      int off = p.offset(name);
      int n = (int) Tensor.values(shape);
      if (!name.endsWith("." + WeightLayout.BIAS)) {
        double limit = Math.sqrt(6.0 / (shape[0] + shape[1]));
        SplitMix64 rng = SplitMix64.forItem(seed, INIT_SALT, t);
        for (int i = 0; i < n; i++) {
          p.values[off + i] = (float) ((rng.nextDouble() * 2 - 1) * limit);
        }
      }
      t++;
    }
    return p;
  }

  /** The parameters of {@code model} (its tensors copied in). */
  public static Parameters of(Model model) {
    Parameters p = new Parameters(model.spec());
    for (String name : p.shapes.keySet()) {
      Tensor t = model.weights().get(name);
      if (t == null) {
        throw new IllegalArgumentException("model has no tensor " + name);
      }
      System.arraycopy(t.data(), 0, p.values, p.offset(name), t.data().length);
    }
    return p;
  }

  /** A model of these values (copied), tensors named as the model directory names them. */
  public Model toModel() {
    return toModel(spec, values);
  }

  /** A model of {@code spec} whose weights are {@code values} (copied), laid out as {@code Parameters(spec)}. */
  public static Model toModel(ModelSpec spec, float[] values) {
    Parameters layout = new Parameters(spec);
    Map<String, Tensor> weights = new LinkedHashMap<>();
    for (Map.Entry<String, int[]> e : layout.shapes.entrySet()) {
      int off = layout.offset(e.getKey());
      float[] v = new float[(int) Tensor.values(e.getValue())];
      System.arraycopy(values, off, v, 0, v.length);
      weights.put(e.getKey(), new Tensor(e.getKey(), e.getValue().clone(), v));
    }
    return new Model(spec, weights);
  }

  /** The layer specs, for convenience. */
  public List<LayerSpec> layers() {
    return new ArrayList<>(spec.layers());
  }
}
