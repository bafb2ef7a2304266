package org.yarngnn.compute.train;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.SparseRows;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * What every training layer holds the same way: its spec, index, input dropout and input width, the inference
 * layer of the current weights ({@link #load} sets it), the delegated forward, and the first step of the
 * per-destination backward (activation, bias gradient). As {@code BaseLayer} for the inference layers.
 */
abstract class BaseTrainLayer<L extends Layer> implements TrainLayer {
  final LayerSpec spec;
  /** Layer index k of {@code layers.{k}.*}. */
  final int k;
  final double dropout;
  final int in;
  /** {@code spec.out()}: the output width, per head for gat. */
  final int out;
  /** The inference layer with the current weights; set by {@link #load}. */
  L layer;

  BaseTrainLayer(LayerSpec spec, int k, double dropout) {
    this.spec = spec;
    this.k = k;
    this.dropout = dropout;
    this.in = spec.in();
    this.out = spec.out();
  }

  @Override
  public final LayerSpec spec() {
    return spec;
  }

  @Override
  public final int index() {
    return k;
  }

  @Override
  public final int inWidth() {
    return in;
  }

  @Override
  public final int outWidth() {
    return spec.outputWidth();
  }

  @Override
  public final double inputDropout() {
    return dropout;
  }

  @Override
  public final Layer layer() {
    return layer;
  }

  /** Floats of the bias ({@code spec.outputWidth()} with one, else 0): the last tensor of the layer. */
  final int biasCount() {
    return spec.bias() ? spec.outputWidth() : 0;
  }

  @Override
  public final void transform(GraphBlock g, DenseMatrix hDrop, int from, int to, DenseMatrix msg,
      DenseMatrix self) {
    layer.transform(g, hDrop, from, to, msg, self);
  }

  @Override
  public final void transformRows(GraphBlock g, DenseMatrix h, int[] nodes, int count, DenseMatrix msg,
      DenseMatrix self) {
    layer.transformRows(g, h, nodes, count, msg, self);
  }

  /** The inference layer's aggregate (gat overrides it: it keeps the attention coefficients). */
  @Override
  public void aggregate(GraphBlock edges, LayerCache c, int from, int to) {
    layer.aggregate(edges, c.msg, c.self, from, to, c.out);
  }

  /**
   * Destination i's {@code dPre_i = dOut_i * act'} into {@code aux[o .. o + w)} (the row {@code c.dAux} keeps),
   * and with a bias {@code db += dPre_i} at {@code grads[bOff ..]}.
   */
  final void preActivationGrad(LayerCache c, DenseMatrix dOut, int i, float[] aux, int o, int w, float[] grads,
      int bOff) {
    spec.activation().backward(c.out.data(), c.out.offset(i), dOut.data(), dOut.offset(i), aux, o, w);
    if (spec.bias()) {
      SparseRows.axpy(1f, aux, o, grads, bOff, w);
    }
  }
}
