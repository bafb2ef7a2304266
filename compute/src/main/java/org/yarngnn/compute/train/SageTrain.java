package org.yarngnn.compute.train;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.SparseRows;
import org.yarngnn.compute.layer.SageLayer;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * sage (mean) for training, always transform-before-aggregate ({@code msg_j = H_j W_neigh}, {@code self_i =
 * H_i W_self}) so that the aggregate holds no weights and every weight gradient comes from the row-local
 * backward. Over the layer's edges {@code S(i)} (its per-epoch sample when a fanout is set):
 * {@code out_i = act(self_i + mean_{S(i)} msg_j + b)}. Backward: {@code dPre_i = dOut_i * act'};
 * {@code dSelf_i = dPre_i} (kept as {@code dAux}, no copy); {@code dMsg_j = sum_{j->i in S} dPre_i / |S(i)|}, the
 * scale taken per edge (self-loops are ordinary edges);
 * {@code dW_self = H^T dSelf}, {@code dW_neigh = H^T dMsg}, {@code dH = dSelf W_self^T + dMsg W_neigh^T} (one
 * Gemm of {@code [dSelf | dMsg]} by the stacked transposes).
 */
final class SageTrain extends BaseTrainLayer<SageLayer> {
  SageTrain(LayerSpec spec, int k, double dropout) {
    // The linear rows are [H W_self | H W_neigh] (SageLayer.linear, transform first).
    super(spec, k, dropout, new int[] {0, spec.in() * spec.out()}, new int[] {spec.out(), spec.out()});
  }

  @Override
  public int messageWidth() {
    return out;
  }

  @Override
  public int selfWidth() {
    return out;
  }

  @Override
  public int selfGradWidth() {
    return 0; // the self rows' gradient is dPre itself, which dAux keeps
  }

  @Override
  public int paramCount() {
    return 2 * in * out + biasCount();
  }

  @Override
  public void load(float[] params, int base) {
    layer = new SageLayer(spec, GradOps.matrix(params, base, in, out), GradOps.matrix(params, base + in * out, in,
        out), spec.bias() ? GradOps.vector(params, base + 2 * in * out, out) : null, true);
    loadLinearTransposed(params, base);
  }

  @Override
  public LayerCache newCache(GraphBlock g) {
    return new LayerCache(in);
  }


  @Override
  public void aggregateBackward(GraphBlock edges, LayerCache c, DenseMatrix dOut, int from, int to,
      DenseMatrix dSelf, float[] grads, int gBase) {
    float[] aux = c.dAux.data();
    int bOff = gBase + 2 * in * out;
    for (int i = from; i < to; i++) {
      int o = c.dAux.offset(i);
      preActivationGrad(c, dOut, i, aux, o, out, grads, bOff);
    }
  }

  @Override
  public void messageGradients(GraphBlock edges, OutEdges oe, LayerCache c, int from, int to, DenseMatrix dMsg) {
    int[] rowPtr = edges.inEdges().rowPtr();
    int[] ptr = oe.ptr();
    int[] dst = oe.dst();
    float[] aux = c.dAux.data();
    float[] d = dMsg.data();
    for (int s = from; s < to; s++) {
      int o = dMsg.offset(s);
      Arrays.fill(d, o, o + out, 0f);
      for (int q = ptr[s]; q < ptr[s + 1]; q++) {
        int i = dst[q];
        int deg = rowPtr[i + 1] - rowPtr[i]; // >= 1: the edge is one of them
        SparseRows.axpy(deg > 1 ? 1f / deg : 1f, aux, c.dAux.offset(i), d, o, out);
      }
    }
  }

  /** {@code [dSelf | dMsg]}: the self rows' gradient is the work row {@code dAux} itself. */
  @Override
  public void linearGradient(GraphBlock g, LayerCache c, DenseMatrix dMsg, DenseMatrix dSelf, int from, int to,
      float[] dLin, int dOff, float[] grads, int gBase) {
    int w2 = 2 * out;
    float[] aux = c.dAux.data();
    for (int row = from; row < to; row++) {
      int o = dOff + (row - from) * w2;
      System.arraycopy(aux, c.dAux.offset(row), dLin, o, out);
      System.arraycopy(dMsg.data(), dMsg.offset(row), dLin, o + out, out);
    }
  }
}
