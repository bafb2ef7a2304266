package org.yarngnn.compute.train;

import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.SparseRows;
import org.yarngnn.compute.layer.GcnLayer;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * gcn for training. Forward as {@link GcnLayer}: {@code msg_j = (H_j W) / sqrt(d_j)},
 * {@code out_i = act((sum_{j->i, j != i} w_ji msg_j + msg_i) / sqrt(d_i) + b)}. Backward:
 * {@code dPre_i = dOut_i * act'}; {@code dAux_i = dPre_i / sqrt(d_i)}; {@code dMsg_j = sum_{j->i, j != i} w_ji
 * dAux_i (+ dAux_j for an own slot j)}; {@code dZ_j = dMsg_j / sqrt(d_j)}; {@code dW = H^T dZ},
 * {@code db = sum dPre}, {@code dH = dZ W^T}.
 */
final class GcnTrain extends BaseTrainLayer<GcnLayer> {
  GcnTrain(LayerSpec spec, int k, double dropout) {
    super(spec, k, dropout, new int[] {0}, new int[] {spec.out()});
  }

  @Override
  public int messageWidth() {
    return out;
  }

  @Override
  public int selfWidth() {
    return 0;
  }

  @Override
  public int selfGradWidth() {
    return 0;
  }

  @Override
  public int paramCount() {
    return in * out + biasCount();
  }

  @Override
  public void load(float[] params, int base) {
    layer = new GcnLayer(spec, GradOps.matrix(params, base, in, out),
        spec.bias() ? GradOps.vector(params, base + in * out, out) : null);
    loadLinearTransposed(params, base);
  }

  @Override
  public LayerCache newCache(GraphBlock g) {
    LayerCache c = new LayerCache(in);
    c.invSqrtDegree = new float[g.numNodes()];
    for (int v = 0; v < g.numNodes(); v++) {
      c.invSqrtDegree[v] = GcnLayer.invSqrtDegree(g, v);
    }
    return c;
  }


  @Override
  public void aggregateBackward(GraphBlock edges, LayerCache c, DenseMatrix dOut, int from, int to,
      DenseMatrix dSelf, float[] grads, int gBase) {
    float[] aux = c.dAux.data();
    int bOff = gBase + in * out;
    for (int i = from; i < to; i++) {
      int o = c.dAux.offset(i);
      preActivationGrad(c, dOut, i, aux, o, out, grads, bOff);
      SparseRows.scale(c.invSqrtDegree[i], aux, o, out);
    }
  }

  @Override
  public void messageGradients(GraphBlock edges, OutEdges oe, LayerCache c, int from, int to, DenseMatrix dMsg) {
    Csr a = edges.inEdges();
    int[] ptr = oe.ptr();
    int[] dst = oe.dst();
    int[] pos = oe.pos();
    float[] w = a.weights();
    float[] aux = c.dAux.data();
    float[] d = dMsg.data();
    int n = edges.numNodes();
    for (int s = from; s < to; s++) {
      int o = dMsg.offset(s);
      java.util.Arrays.fill(d, o, o + out, 0f);
      for (int q = ptr[s]; q < ptr[s + 1]; q++) {
        int i = dst[q];
        if (i != s) { // input self-loops are ignored by the forward
          SparseRows.axpy(w == null ? 1f : w[pos[q]], aux, c.dAux.offset(i), d, o, out);
        }
      }
      if (s < n) {
        SparseRows.axpy(1f, aux, c.dAux.offset(s), d, o, out); // the one self-loop, weight 1
      }
    }
  }

  @Override
  public void linearGradient(GraphBlock g, LayerCache c, DenseMatrix dMsg, DenseMatrix dSelf, int from, int to,
      float[] dLin, int dOff, float[] grads, int gBase) {
    for (int row = from; row < to; row++) {
      int o = dOff + (row - from) * out;
      System.arraycopy(dMsg.data(), dMsg.offset(row), dLin, o, out);
      SparseRows.scale(c.invSqrtDegree[row], dLin, o, out);
    }
  }
}
