package org.yarngnn.compute.train;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * One layer's forward and backward for training, split exactly like {@link Layer}'s Deal split so the same code
 * runs in one JVM and on partitions with halo slots:
 * <ol>
 *   <li>{@link #transform} (row-local): dropped-out input row of a node -> its message row and self row
 *   (delegates to the inference layer, so training and {@code infer} compute the same thing);</li>
 *   <li>{@link #aggregate} (per destination, over in-edges whose sources are local slots, then halo slots):
 *   writes the output row and keeps in the {@link LayerCache} what the backward needs;</li>
 *   <li>{@link #aggregateBackward} (per destination): {@code dOut} -> the per-destination intermediates, the
 *   gradient of the node's self row ({@code dSelf}) and the bias gradient;</li>
 *   <li>{@link #messageGradients} (per source slot, over its out-edges, {@link OutEdges}): the gradient of every
 *   message row, own slots and halo slots alike; the halo rows are what goes back to the owners, who add them to
 *   their own rows before the next step;</li>
 *   <li>{@link #transformBackward} (row-local): own rows of {@code dMsg} and {@code dSelf} -> the gradient of
 *   the (dropped-out) input rows and the weight gradients.</li>
 * </ol>
 * Gradients are accumulated ({@code +=}) into a caller-supplied buffer laid out as this layer's tensors in
 * {@link org.yarngnn.compute.model.WeightLayout} order ({@link #paramCount()} floats from {@code gBase}); a
 * method call writes only that buffer, so callers run disjoint row ranges on many threads, each with its own
 * buffer, and add them up ({@link LayerStep} does). Nothing in the row loops allocates.
 * <p>Instances hold the current weights: call {@link #load} after every optimiser step.
 */
public interface TrainLayer {
  LayerSpec spec();

  /** Layer index k of {@code layers.{k}.*}. */
  int index();

  int inWidth();

  int outWidth();

  int messageWidth();

  int selfWidth();

  /** Width of the rows of {@code dSelf}: gcn 0, sage 0 (the self rows' gradient is {@code dPre}, kept in
   * {@code c.dAux}), gat heads (the
   * gradient of the node's destination scores {@code a_dst_h . Z_i,h}, which it computes from its own row). */
  int selfGradWidth();

  /** Dropout rate of the layer's input. */
  double inputDropout();

  /** Number of parameters of the layer (its tensors in WeightLayout order). */
  int paramCount();

  /** Takes the current weights from {@code params[base .. base + paramCount())}. */
  void load(float[] params, int base);

  /** The inference layer with the current weights. */
  Layer layer();

  /** A cache for blocks like {@code g} (own rows, slots), holding the buffers forward and backward share. */
  LayerCache newCache(GraphBlock g);

  void transform(GraphBlock g, DenseMatrix hDrop, int from, int to, DenseMatrix msg, DenseMatrix self);

  /** As {@link #transform} for the nodes {@code nodes[r]} whose (dropped-out) input rows are rows r of {@code h},
   * {@code r < count}. */
  void transformRows(GraphBlock g, DenseMatrix h, int[] nodes, int count, DenseMatrix msg, DenseMatrix self);

  /**
   * Output rows {@code [from, to)} into {@code c.out} from {@code c.msg} (all slots filled) and {@code c.self},
   * over {@code edges}; records what {@link #aggregateBackward} needs (gat: attention coefficients).
   * {@code c.training} and {@code c.epoch} select the attention dropout.
   */
  void aggregate(GraphBlock edges, LayerCache c, int from, int to);

  /** Destinations {@code [from, to)}: consumes {@code dOut} rows, writes {@code dSelf} rows and bias grads. */
  void aggregateBackward(GraphBlock edges, LayerCache c, DenseMatrix dOut, int from, int to, DenseMatrix dSelf,
      float[] grads, int gBase);

  /**
   * Rows {@code [from, to)} of {@code dMsg} (source slots, {@code 0 <= from <= to <= numSlots}), each gathered
   * over the slot's out-edges; needs {@link #aggregateBackward} done for every destination. Overwrites the rows.
   */
  void messageGradients(GraphBlock edges, OutEdges out, LayerCache c, int from, int to, DenseMatrix dMsg);

  /**
   * Own rows {@code [from, to)}: from {@code dMsg} (own rows, after the halo gradients of peers were added) and
   * {@code dSelf}, accumulates the weight gradients and writes rows of {@code dH}, the gradient of the layer's
   * dropped-out input ({@code c.input}; {@code dH} null: not needed, e.g. the first layer).
   */
  void transformBackward(GraphBlock g, LayerCache c, DenseMatrix dMsg, DenseMatrix dSelf, int from, int to,
      DenseMatrix dH, float[] grads, int gBase);

  /**
   * Width of the layer's linear rows: the graph-independent {@code H W} part of the transform
   * ({@link Layer#linear}, {@code lin = H [W_1 | W_2 | ...]}), the apply-vertex work a tensor worker does with
   * nothing but the rows and the weights.
   */
  int linearWidth();

  /**
   * The graph side of the row-local backward for own rows {@code [from, to)}: from {@code dMsg} and
   * {@code dSelf}, the gradient of each row's linear row into {@code dLin[dOff + (i - from) * linearWidth() ..]},
   * plus the gradients of the weights the graph side applies (gat's attention vectors) into {@code grads}.
   * {@link #transformBackward} is this followed by {@link #linearBackward}.
   */
  void linearGradient(GraphBlock g, LayerCache c, DenseMatrix dMsg, DenseMatrix dSelf, int from, int to,
      float[] dLin, int dOff, float[] grads, int gBase);

  /**
   * The tensor side of the row-local backward for {@code m} rows, needing no graph: the linear weights'
   * gradients {@code += H^T dLin} into {@code grads} (from {@code gBase}, this layer's layout) and, unless
   * {@code dH} is null, {@code dH = dLin W^T}. Row r of H is at {@code h[hOff + r * inWidth()]}, of dLin at
   * {@code dLin[dOff + r * linearWidth()]}, of dH at {@code dH[dhOff + r * ldH]}.
   */
  void linearBackward(float[] h, int hOff, float[] dLin, int dOff, int m, float[] dH, int dhOff, int ldH,
      float[] grads, int gBase);

  /** The training layer of {@code spec} at index {@code k}, with its input and (gat) attention dropout. */
  static TrainLayer create(LayerSpec spec, int k, double inputDropout, double attentionDropout) {
    switch (spec.type()) {
      case GCN:
        return new GcnTrain(spec, k, inputDropout);
      case SAGE:
        return new SageTrain(spec, k, inputDropout);
      case GAT:
        return new GatTrain(spec, k, inputDropout, attentionDropout);
      default:
        throw new IllegalArgumentException("layer type " + spec.type());
    }
  }
}
