package org.yarngnn.compute.train;

import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;

/**
 * The contract's layer formulas in float64 over one block with halo slots, for finite differences: inputs are
 * the layer's parameters (WeightLayout order), the own input rows H and the halo message rows (as a peer sends
 * them), all as one flat vector {@code [params | H | haloMsg]}; dropout factors taken from {@link Dropout}'s
 * keys (the same masks the float code must use).
 */
final class DoubleReference {
  final LayerSpec spec;
  final GraphBlock g;
  final GraphBlock edges;
  final int k;
  final long seed;
  final long epoch;
  final double p;
  final double pAttn;
  final int paramCount;
  final int n;
  final int halo;
  final int msgW;

  DoubleReference(LayerSpec spec, GraphBlock g, GraphBlock edges, int k, long seed, long epoch, double p,
      double pAttn, int paramCount, int msgW) {
    this.spec = spec;
    this.g = g;
    this.edges = edges;
    this.k = k;
    this.seed = seed;
    this.epoch = epoch;
    this.p = p;
    this.pAttn = pAttn;
    this.paramCount = paramCount;
    this.n = g.numNodes();
    this.halo = g.numSlots() - n;
    this.msgW = msgW;
  }

  int size() {
    return paramCount + n * spec.in() + halo * msgW;
  }

  static double act(Activation a, double x) {
    switch (a) {
      case RELU:
        return x > 0 ? x : 0;
      case ELU:
        return x > 0 ? x : Math.expm1(x);
      case LEAKY_RELU:
        return x > 0 ? x : 0.01 * x;
      case TANH:
        return Math.tanh(x);
      case SIGMOID:
        return 1 / (1 + Math.exp(-x));
      default:
        return x;
    }
  }

  /** Dropped-out input rows. */
  private double[][] inputs(double[] v) {
    int in = spec.in();
    double[][] h = new double[n][in];
    double scale = 1 / (1 - p);
    for (int i = 0; i < n; i++) {
      long row = Dropout.rowState(Dropout.FEATURE, seed, epoch, k, g.nodeIds()[i]);
      for (int c = 0; c < in; c++) {
        double x = v[paramCount + i * in + c];
        h[i][c] = p <= 0 ? x : Dropout.featureKept(row, c, p) ? x * scale : 0;
      }
    }
    return h;
  }

  private double[][] times(double[][] h, double[] v, int off, int cols) {
    double[][] z = new double[h.length][cols];
    for (int i = 0; i < h.length; i++) {
      for (int c = 0; c < cols; c++) {
        double s = 0;
        for (int q = 0; q < h[i].length; q++) {
          s += h[i][q] * v[off + q * cols + c];
        }
        z[i][c] = s;
      }
    }
    return z;
  }

  /** Message rows of every slot: own ones from H, halo ones from the vector. */
  private double[][] messages(double[] v, double[][] own) {
    double[][] m = new double[n + halo][];
    for (int i = 0; i < n; i++) {
      m[i] = own[i];
    }
    int base = paramCount + n * spec.in();
    for (int s = 0; s < halo; s++) {
      m[n + s] = new double[msgW];
      System.arraycopy(v, base + s * msgW, m[n + s], 0, msgW);
    }
    return m;
  }

  double[][] forward(double[] v) {
    switch (spec.type()) {
      case GCN:
        return gcn(v);
      case SAGE:
        return sage(v);
      default:
        return gat(v);
    }
  }

  private double[][] finish(double[][] out, double[] v, int biasOff) {
    for (double[] row : out) {
      for (int c = 0; c < row.length; c++) {
        row[c] = act(spec.activation(), row[c] + (spec.bias() ? v[biasOff + c] : 0));
      }
    }
    return out;
  }

  private double[][] gcn(double[] v) {
    int in = spec.in();
    int out = spec.out();
    Csr a = g.inEdges();
    double[] inv = new double[n];
    for (int i = 0; i < n; i++) {
      double d = 1;
      for (int e = a.rowPtr()[i]; e < a.rowPtr()[i + 1]; e++) {
        if (a.colIdx()[e] != i) {
          d += a.weight(e);
        }
      }
      inv[i] = 1 / Math.sqrt(d);
    }
    double[][] z = times(inputs(v), v, 0, out);
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < out; c++) {
        z[i][c] *= inv[i];
      }
    }
    double[][] m = messages(v, z);
    double[][] res = new double[n][out];
    Csr b = edges.inEdges();
    for (int i = 0; i < n; i++) {
      for (int e = b.rowPtr()[i]; e < b.rowPtr()[i + 1]; e++) {
        int j = b.colIdx()[e];
        if (j != i) {
          for (int c = 0; c < out; c++) {
            res[i][c] += b.weight(e) * m[j][c];
          }
        }
      }
      for (int c = 0; c < out; c++) {
        res[i][c] = inv[i] * (res[i][c] + m[i][c]);
      }
    }
    return finish(res, v, in * out);
  }

  private double[][] sage(double[] v) {
    int in = spec.in();
    int out = spec.out();
    double[][] h = inputs(v);
    double[][] self = times(h, v, 0, out);
    double[][] m = messages(v, times(h, v, in * out, out));
    Csr b = edges.inEdges();
    double[][] res = new double[n][out];
    for (int i = 0; i < n; i++) {
      int deg = b.degree(i);
      for (int e = b.rowPtr()[i]; e < b.rowPtr()[i + 1]; e++) {
        for (int c = 0; c < out; c++) {
          res[i][c] += m[b.colIdx()[e]][c] / deg;
        }
      }
      for (int c = 0; c < out; c++) {
        res[i][c] += self[i][c];
      }
    }
    return finish(res, v, 2 * in * out);
  }

  private double[][] gat(double[] v) {
    int in = spec.in();
    int heads = spec.heads();
    int w = spec.out();
    int hw = heads * w;
    int srcOff = in * hw;
    int dstOff = srcOff + hw;
    double[][] z = times(inputs(v), v, 0, hw);
    double[][] own = new double[n][hw + heads];
    for (int i = 0; i < n; i++) {
      System.arraycopy(z[i], 0, own[i], 0, hw);
      for (int h = 0; h < heads; h++) {
        double s = 0;
        for (int c = 0; c < w; c++) {
          s += v[srcOff + h * w + c] * z[i][h * w + c];
        }
        own[i][hw + h] = s;
      }
    }
    double[][] m = messages(v, own);
    Csr b = edges.inEdges();
    double[][] res = new double[n][spec.outputWidth()];
    double scale = 1 / (1 - pAttn);
    for (int i = 0; i < n; i++) {
      int start = b.rowPtr()[i];
      int deg = b.degree(i);
      long row = Dropout.rowState(Dropout.ATTENTION, seed, epoch, k, g.nodeIds()[i]);
      for (int h = 0; h < heads; h++) {
        double t = 0;
        for (int c = 0; c < w; c++) {
          t += v[dstOff + h * w + c] * m[i][h * w + c];
        }
        // entries: in-edges that are not self-loops (with their positions), then the added self-loop (-1)
        int[] src = new int[deg + 1];
        int[] pos = new int[deg + 1];
        int cnt = 0;
        for (int q = 0; q < deg; q++) {
          if (b.colIdx()[start + q] != i) {
            src[cnt] = b.colIdx()[start + q];
            pos[cnt++] = q;
          }
        }
        src[cnt] = i;
        pos[cnt++] = -1;
        double[] e = new double[cnt];
        double max = Double.NEGATIVE_INFINITY;
        for (int q = 0; q < cnt; q++) {
          double x = m[src[q]][hw + h] + t;
          e[q] = x > 0 ? x : spec.negativeSlope() * x;
          max = Math.max(max, e[q]);
        }
        double sum = 0;
        for (int q = 0; q < cnt; q++) {
          e[q] = Math.exp(e[q] - max);
          sum += e[q];
        }
        for (int q = 0; q < cnt; q++) {
          double c = e[q] / sum * (spec.concat() ? 1 : 1.0 / heads);
          if (pAttn > 0) {
            c *= Dropout.attentionKept(row, g.slotId(src[q]), pos[q], h, pAttn) ? scale : 0;
          }
          for (int x = 0; x < w; x++) {
            res[i][(spec.concat() ? h * w : 0) + x] += c * m[src[q]][h * w + x];
          }
        }
      }
    }
    return finish(res, v, dstOff + hw);
  }
}
