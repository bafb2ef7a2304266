package org.yarngnn.compute.train;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.EdgeSoftmax;
import org.yarngnn.compute.kernel.Sddmm;
import org.yarngnn.compute.kernel.SparseRows;
import org.yarngnn.compute.layer.GatLayer;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * gat for training: the real per-destination edge softmax, multi-head, concat or mean, with attention dropout.
 * Message row of j: {@code [Z_j (heads*out) | s_j,h = a_src_h . Z_j,h (heads)]}, as {@link GatLayer}. For
 * destination i and its entries k (in-edges, input self-loops masked, then the added self-loop):
 * {@code e_k = LeakyReLU(s_j,h + t_i,h)} with {@code t_i,h = a_dst_h . Z_i,h}; {@code alpha = softmax_k e};
 * {@code c_k = alpha_k * m_k * f} (m_k the attention-dropout factor, 0 or 1/(1-p); f = 1, or 1/heads when
 * averaging); {@code out_i = act(concat/sum over h of sum_k c_k Z_j,h + b)}.
 * <p>Backward per destination: {@code g = dPre_i} (the head's slice when concatenating);
 * {@code dalpha_k = m_k f (g . Z_j,h)}; {@code dE_k = alpha_k (dalpha_k - sum alpha dalpha)} times the LeakyReLU
 * slope; {@code dSelf_i,h = dt_i,h = sum_k dE_k}. Per source slot j over its out-edges: {@code dMsg_j[Z_h] =
 * sum c_k g_i}, {@code dMsg_j[s_h] = sum dE_k}. Row-local: {@code dZ_total = dZ + ds a_src + dt a_dst},
 * {@code da_src += ds Z}, {@code da_dst += dt Z}, {@code dW = H^T dZ_total}, {@code dH = dZ_total W^T}.
 * Attention-dropout masks are recomputed from their keys ({@link Dropout}) in each pass, not stored.
 */
final class GatTrain extends BaseTrainLayer<GatLayer> {
  private final double attnDropout;
  private final int heads;
  private final int hw;
  private float[] attnSrc;
  private float[] attnDst;
  private float[] bias;

  GatTrain(LayerSpec spec, int k, double dropout, double attnDropout) {
    super(spec, k, dropout, new int[] {0}, new int[] {spec.heads() * spec.out()});
    this.attnDropout = attnDropout;
    this.heads = spec.heads();
    this.hw = heads * out;
  }

  @Override
  public int messageWidth() {
    return hw + heads;
  }

  @Override
  public int selfWidth() {
    return 0;
  }

  @Override
  public int selfGradWidth() {
    return heads;
  }

  @Override
  public int paramCount() {
    return in * hw + 2 * hw + biasCount();
  }

  @Override
  public void load(float[] params, int base) {
    attnSrc = GradOps.vector(params, base + in * hw, hw);
    attnDst = GradOps.vector(params, base + in * hw + hw, hw);
    bias = spec.bias() ? GradOps.vector(params, base + in * hw + 2 * hw, spec.outputWidth()) : null;
    layer = new GatLayer(spec, GradOps.matrix(params, base, in, hw), attnSrc, attnDst, bias);
    loadLinearTransposed(params, base);
  }

  @Override
  public LayerCache newCache(GraphBlock g) {
    return new LayerCache(in);
  }

  /** The attention-dropout factor of entry k (position; -1 the added self-loop) of destination i, head h. */
  private float keep(long row, long srcId, int position, int h, float scale) {
    return Dropout.attentionKept(row, srcId, position, h, attnDropout) ? scale : 0f;
  }

  private boolean attentionDropoutOn(LayerCache c) {
    return c.training && attnDropout > 0;
  }

  @Override
  public void aggregate(GraphBlock edges, LayerCache c, int from, int to) {
    Csr a = edges.inEdges();
    c.ensureAttention(((long) a.numEdges() + edges.numNodes()) * heads);
    int[] rowPtr = a.rowPtr();
    int[] col = a.colIdx();
    float[] md = c.msg.data();
    int ldm = c.msg.cols();
    float[] alpha = c.alpha;
    float[] od = c.out.data();
    int outW = spec.outputWidth();
    float slope = spec.negativeSlope();
    boolean concat = spec.concat();
    float f = concat ? 1f : 1f / heads;
    boolean drop = attentionDropoutOn(c);
    float scale = Dropout.scale(attnDropout);
    long[] ids = edges.nodeIds();
    for (int i = from; i < to; i++) {
      int start = rowPtr[i];
      int deg = rowPtr[i + 1] - start;
      int ext = start + i;
      int mi = c.msg.offset(i);
      long row = drop ? Dropout.rowState(Dropout.ATTENTION, c.seed, c.epoch, k, ids[i]) : 0L;
      int o = c.out.offset(i);
      Arrays.fill(od, o, o + outW, 0f);
      for (int h = 0; h < heads; h++) {
        float t = SparseRows.dot(attnDst, h * out, md, mi + h * out, out);
        for (int q = 0; q < deg; q++) {
          int j = col[start + q];
          alpha[(ext + q) * heads + h] = j == i ? Float.NEGATIVE_INFINITY
              : Sddmm.leakyRelu(md[j * ldm + hw + h] + t, slope);
        }
        alpha[(ext + deg) * heads + h] = Sddmm.leakyRelu(md[mi + hw + h] + t, slope);
        EdgeSoftmax.softmax(alpha, ext * heads + h, deg + 1, heads);
        int oh = concat ? o + h * out : o;
        for (int q = 0; q < deg; q++) {
          int j = col[start + q];
          float cq = alpha[(ext + q) * heads + h] * f;
          if (drop && cq != 0f) {
            cq *= keep(row, edges.slotId(j), q, h, scale);
          }
          if (cq != 0f) {
            SparseRows.axpy(cq, md, j * ldm + h * out, od, oh, out);
          }
        }
        float cs = alpha[(ext + deg) * heads + h] * f;
        if (drop) {
          cs *= keep(row, ids[i], -1, h, scale);
        }
        SparseRows.axpy(cs, md, mi + h * out, od, oh, out);
      }
      if (spec.bias()) {
        SparseRows.axpy(1f, bias, 0, od, o, outW);
      }
      spec.activation().apply(od, o, o + outW);
    }
  }

  @Override
  public void aggregateBackward(GraphBlock edges, LayerCache c, DenseMatrix dOut, int from, int to,
      DenseMatrix dSelf, float[] grads, int gBase) {
    Csr a = edges.inEdges();
    int[] rowPtr = a.rowPtr();
    int[] col = a.colIdx();
    float[] md = c.msg.data();
    int ldm = c.msg.cols();
    float[] alpha = c.alpha;
    float[] dE = c.dScore;
    float[] aux = c.dAux.data();
    int outW = spec.outputWidth();
    float slope = spec.negativeSlope();
    boolean concat = spec.concat();
    float f = concat ? 1f : 1f / heads;
    boolean drop = attentionDropoutOn(c);
    float scale = Dropout.scale(attnDropout);
    long[] ids = edges.nodeIds();
    int bOff = gBase + in * hw + 2 * hw;
    for (int i = from; i < to; i++) {
      int start = rowPtr[i];
      int deg = rowPtr[i + 1] - start;
      int ext = start + i;
      int mi = c.msg.offset(i);
      int o = c.dAux.offset(i);
      preActivationGrad(c, dOut, i, aux, o, outW, grads, bOff);
      long row = drop ? Dropout.rowState(Dropout.ATTENTION, c.seed, c.epoch, k, ids[i]) : 0L;
      int ds = dSelf.offset(i);
      for (int h = 0; h < heads; h++) {
        int go = concat ? o + h * out : o;
        float t = SparseRows.dot(attnDst, h * out, md, mi + h * out, out);
        // dalpha into dE first, then the softmax backward in place.
        double dot = 0;
        for (int q = 0; q <= deg; q++) {
          int e = (ext + q) * heads + h;
          float al = alpha[e];
          float da = 0f;
          if (al != 0f) {
            int j = q < deg ? col[start + q] : i;
            float m = f;
            if (drop) {
              m *= q < deg ? keep(row, edges.slotId(j), q, h, scale) : keep(row, ids[i], -1, h, scale);
            }
            if (m != 0f) {
              da = m * SparseRows.dot(aux, go, md, j * ldm + h * out, out);
            }
          }
          dE[e] = da;
          dot += (double) al * da;
        }
        float sum = 0f;
        for (int q = 0; q <= deg; q++) {
          int e = (ext + q) * heads + h;
          float al = alpha[e];
          if (al == 0f) {
            dE[e] = 0f;
            continue;
          }
          int j = q < deg ? col[start + q] : i;
          float g = al * (float) (dE[e] - dot);
          if (md[j * ldm + hw + h] + t <= 0f) {
            g *= slope;
          }
          dE[e] = g;
          sum += g;
        }
        dSelf.data()[ds + h] = sum;
      }
    }
  }

  @Override
  public void messageGradients(GraphBlock edges, OutEdges oe, LayerCache c, int from, int to, DenseMatrix dMsg) {
    Csr a = edges.inEdges();
    int[] rowPtr = a.rowPtr();
    int[] ptr = oe.ptr();
    int[] dst = oe.dst();
    int[] pos = oe.pos();
    float[] alpha = c.alpha;
    float[] dE = c.dScore;
    float[] aux = c.dAux.data();
    float[] d = dMsg.data();
    boolean concat = spec.concat();
    float f = concat ? 1f : 1f / heads;
    boolean drop = attentionDropoutOn(c);
    float scale = Dropout.scale(attnDropout);
    long[] ids = edges.nodeIds();
    int n = edges.numNodes();
    for (int s = from; s < to; s++) {
      int o = dMsg.offset(s);
      Arrays.fill(d, o, o + hw + heads, 0f);
      long srcId = edges.slotId(s);
      for (int p = ptr[s]; p <= ptr[s + 1]; p++) {
        int i;
        int e;
        int position;
        if (p < ptr[s + 1]) {
          i = dst[p];
          if (i == s) {
            continue; // a masked input self-loop
          }
          e = (pos[p] + i) * heads;
          position = pos[p] - rowPtr[i];
        } else if (s < n) {
          i = s; // the added self-loop
          e = (rowPtr[s + 1] + s) * heads;
          position = -1;
        } else {
          break;
        }
        long row = drop ? Dropout.rowState(Dropout.ATTENTION, c.seed, c.epoch, k, ids[i]) : 0L;
        int ao = c.dAux.offset(i);
        for (int h = 0; h < heads; h++) {
          float cq = alpha[e + h] * f;
          if (drop && cq != 0f) {
            cq *= keep(row, srcId, position, h, scale);
          }
          if (cq != 0f) {
            SparseRows.axpy(cq, aux, concat ? ao + h * out : ao, d, o + h * out, out);
          }
          d[o + hw + h] += dE[e + h];
        }
      }
    }
  }

  @Override
  public void linearGradient(GraphBlock g, LayerCache c, DenseMatrix dMsg, DenseMatrix dSelf, int from, int to,
      float[] dLin, int dOff, float[] grads, int gBase) {
    float[] md = c.msg.data();
    int srcOff = gBase + in * hw;
    int dstOff = srcOff + hw;
    for (int row = from; row < to; row++) {
      int dm = dMsg.offset(row);
      int mo = c.msg.offset(row);
      int zo = dOff + (row - from) * hw;
      System.arraycopy(dMsg.data(), dm, dLin, zo, hw);
      for (int hd = 0; hd < heads; hd++) {
        float dsrc = dMsg.data()[dm + hw + hd];
        float ddst = dSelf.data()[dSelf.offset(row) + hd];
        SparseRows.axpy(dsrc, attnSrc, hd * out, dLin, zo + hd * out, out);
        SparseRows.axpy(ddst, attnDst, hd * out, dLin, zo + hd * out, out);
        SparseRows.axpy(dsrc, md, mo + hd * out, grads, srcOff + hd * out, out);
        SparseRows.axpy(ddst, md, mo + hd * out, grads, dstOff + hd * out, out);
      }
    }
  }
}
