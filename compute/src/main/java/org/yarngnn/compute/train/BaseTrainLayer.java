package org.yarngnn.compute.train;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Gemm;
import org.yarngnn.compute.kernel.PackedMatrix;
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

  /** Subclasses name their linear tensors: {@code linearOffsets[t]} and {@code linearCols[t]} of W_t. */
  BaseTrainLayer(LayerSpec spec, int k, double dropout, int[] linearOffsets, int[] linearCols) {
    this.linearOffsets = linearOffsets.clone();
    this.linearCols = linearCols.clone();
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

  /**
   * The linear weights {@code [W_1 | W_2 | ...]} (each [in, cols_t], row-major in the layer's parameters at
   * {@code offsets[t]} from its first one) transposed and stacked for {@code dH = dLin W^T}: set by {@link #load}.
   */
  PackedMatrix linearT;
  /** Offsets from the layer's first parameter of the linear tensors W_t, and their column counts. */
  private final int[] linearOffsets;
  private final int[] linearCols;


  @Override
  public final int linearWidth() {
    int w = 0;
    for (int c : linearCols) {
      w += c;
    }
    return w;
  }

  /** Packs the transpose of {@code [W_1 | W_2 | ...]} ([linearWidth, in]) from the layer's parameters. */
  final void loadLinearTransposed(float[] params, int base) {
    int lw = linearWidth();
    float[] t = new float[lw * in];
    int col = 0;
    for (int b = 0; b < linearOffsets.length; b++) {
      int off = base + linearOffsets[b];
      int cols = linearCols[b];
      for (int p = 0; p < in; p++) {
        for (int c = 0; c < cols; c++) {
          t[(col + c) * in + p] = params[off + p * cols + c];
        }
      }
      col += cols;
    }
    linearT = PackedMatrix.pack(new DenseMatrix(lw, in, t));
  }

  @Override
  public final void linearBackward(float[] h, int hOff, float[] dLin, int dOff, int m, float[] dH, int dhOff,
      int ldH, float[] grads, int gBase) {
    int lw = linearWidth();
    for (int r = 0; r < m; r++) {
      int col = 0;
      for (int b = 0; b < linearOffsets.length; b++) {
        GradOps.outer(h, hOff + r * in, in, dLin, dOff + r * lw + col, linearCols[b], grads, gBase + linearOffsets[b]);
        col += linearCols[b];
      }
    }
    if (dH != null && m > 0) {
      Gemm.multiply(dLin, dOff, lw, m, linearT, dH, dhOff, ldH);
    }
  }

  /** {@link #linearGradient} then {@link #linearBackward}, in blocks of rows. */
  @Override
  public final void transformBackward(GraphBlock g, LayerCache c, DenseMatrix dMsg, DenseMatrix dSelf, int from,
      int to, DenseMatrix dH, float[] grads, int gBase) {
    int lw = linearWidth();
    float[] dz = GradOps.scratch(0, GradOps.BLOCK * lw);
    float[] h = GradOps.scratch(1, GradOps.BLOCK * in);
    for (int b = from; b < to; b += GradOps.BLOCK) {
      int m = Math.min(GradOps.BLOCK, to - b);
      c.input.rows(b, m, h); // the dropped-out rows, regenerated
      linearGradient(g, c, dMsg, dSelf, b, b + m, dz, 0, grads, gBase);
      linearBackward(h, 0, dz, 0, m, dH == null ? null : dH.data(), dH == null ? 0 : dH.offset(b),
          dH == null ? 0 : dH.cols(), grads, gBase);
    }
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
