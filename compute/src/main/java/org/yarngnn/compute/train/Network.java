package org.yarngnn.compute.train;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.sample.NeighbourSampler;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * A model's layers over one block without halo (the whole graph in one JVM): forward and backward through
 * every {@link LayerStep}. Training forwards aggregate sage layers with a fanout over the epoch's sample
 * ({@code NeighbourSampler.sample(g, fanout, Dropout.sampleSeed(seed, epoch), k)}); evaluation forwards over
 * the sample {@code infer} uses ({@code NeighbourSampler.sample(g, fanout, seed, k)}), without dropout.
 */
public final class Network {
  private final ModelSpec spec;
  private final Parameters params;
  private final GraphBlock g;
  private final long seed;
  private final List<TrainLayer> layers = new ArrayList<>();
  private final List<LayerStep> steps = new ArrayList<>();
  private final GraphBlock[] evalEdges;

  /**
   * {@code inputDropout[k]} and {@code attentionDropout[k]} per layer (gat uses both; others the first).
   */
  public Network(Parameters params, GraphBlock g, long seed, double[] inputDropout, double[] attentionDropout) {
    if (g.haloIds().length != 0) {
      throw new IllegalArgumentException("a Network trains a whole graph (no halo); use LayerStep on partitions");
    }
    this.spec = params.spec();
    this.params = params;
    this.g = g;
    this.seed = seed;
    List<LayerSpec> specs = spec.layers();
    evalEdges = new GraphBlock[specs.size()];
    for (int k = 0; k < specs.size(); k++) {
      layers.add(TrainLayer.create(specs.get(k), k, inputDropout[k], attentionDropout[k]));
      int fanout = specs.get(k).fanout();
      evalEdges[k] = fanout < 0 ? g : NeighbourSampler.sample(g, fanout, seed, k);
    }
    steps.addAll(List.of(LayerStep.chain(layers, g, seed)));
    load();
  }

  /** Reloads the current parameter values into the layers (after every optimiser step). */
  public void load() {
    for (int k = 0; k < layers.size(); k++) {
      layers.get(k).load(params.values(), params.layerOffset(k));
    }
  }

  public List<LayerStep> steps() {
    return steps;
  }

  public Parameters parameters() {
    return params;
  }

  /** The output rows of the last layer for input rows {@code x}. */
  public DenseMatrix forward(DenseMatrix x, long epoch, boolean training) {
    DenseMatrix h = x;
    for (int k = 0; k < steps.size(); k++) {
      LayerStep s = steps.get(k);
      int fanout = spec.layers().get(k).fanout();
      if (!training || fanout < 0) {
        s.setEdges(evalEdges[k]);
      } else {
        s.setEdges(NeighbourSampler.sample(g, fanout, Dropout.sampleSeed(seed, epoch), k));
      }
      s.forwardTransform(h, epoch, training);
      s.forwardAggregate();
      h = s.output();
    }
    return h;
  }

  /** Gradients of every parameter into {@code grads} (overwritten), from the gradient of the last output. */
  public void backward(DenseMatrix dLogits, float[] grads) {
    Arrays.fill(grads, 0f);
    DenseMatrix d = dLogits;
    for (int k = steps.size() - 1; k >= 0; k--) {
      LayerStep s = steps.get(k);
      int base = params.layerOffset(k);
      s.backwardAggregate(d, grads, base);
      s.backwardTransform(grads, base);
      d = s.inputGradient();
    }
  }
}
