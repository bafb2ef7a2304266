package org.yarngnn.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.LayerType;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.Tensor;

/**
 * A straightforward, independent implementation of the layer semantics of docs/formats.md ("Model directory") in
 * double precision: plain loops over per-node neighbour lists, written from the contract's formulas, sharing no code with the engine
 * (only the model records). The end-to-end tests compare the product's output with it.
 */
final class ContractReference {
  /** A graph as plain lists: node ids, features, and each node's in-edges ordered by source id. */
  static final class Graph {
    final long[] ids;
    final double[][] features;
    final List<int[]> inSources = new ArrayList<>();
    final List<double[]> inWeights = new ArrayList<>();

    Graph(long[] ids, double[][] features) {
      this.ids = ids;
      this.features = features;
    }
  }

  /** The sample positions (indices into the id-ordered in-neighbour list) of a node: the contract's sampler. */
  interface Sampler {
    int[] positions(long seed, int layer, long nodeId, int degree, int fanout);
  }

  private final ModelSpec spec;
  private final Map<String, Tensor> w;
  private final Sampler sampler;

  ContractReference(ModelSpec spec, Map<String, Tensor> weights, Sampler sampler) {
    this.spec = spec;
    this.w = weights;
    this.sampler = sampler;
  }

  double[][] infer(Graph g, long seed) {
    double[][] h = new double[g.ids.length][];
    for (int i = 0; i < h.length; i++) {
      h[i] = g.features[i].clone();
      if (spec.inputNormalize().equals("row")) {
        double s = Arrays.stream(h[i]).sum();
        if (s != 0) {
          for (int c = 0; c < h[i].length; c++) {
            h[i][c] /= s;
          }
        }
      }
    }
    for (int k = 0; k < spec.layers().size(); k++) {
      LayerSpec l = spec.layers().get(k);
      h = l.type() == LayerType.GCN ? gcn(k, l, g, h) : l.type() == LayerType.SAGE ? sage(k, l, g, h, seed)
          : gat(k, l, g, h);
    }
    if (spec.outputNormalize().equals("l2")) {
      for (double[] row : h) {
        double n = Math.sqrt(Arrays.stream(row).map(v -> v * v).sum());
        if (n > 0) {
          for (int c = 0; c < row.length; c++) {
            row[c] /= n;
          }
        }
      }
    }
    return h;
  }

  private double[][] gcn(int k, LayerSpec l, Graph g, double[][] h) {
    int n = h.length;
    double[] deg = new double[n];
    for (int i = 0; i < n; i++) {
      deg[i] = 1;
      int[] src = g.inSources.get(i);
      for (int e = 0; e < src.length; e++) {
        if (src[e] != i) {
          deg[i] += g.inWeights.get(i)[e];
        }
      }
    }
    double[][] z = matmul(h, mat("layers." + k + ".weight"));
    double[][] out = new double[n][l.out()];
    for (int i = 0; i < n; i++) {
      addScaled(out[i], z[i], 1.0 / deg[i]);
      int[] src = g.inSources.get(i);
      for (int e = 0; e < src.length; e++) {
        int j = src[e];
        if (j != i) {
          addScaled(out[i], z[j], g.inWeights.get(i)[e] / Math.sqrt(deg[i] * deg[j]));
        }
      }
      finish(k, l, out[i]);
    }
    return out;
  }

  private double[][] sage(int k, LayerSpec l, Graph g, double[][] h, long seed) {
    int n = h.length;
    double[][] self = matmul(h, mat("layers." + k + ".weight_self"));
    double[][] neigh = matmul(h, mat("layers." + k + ".weight_neigh"));
    double[][] out = new double[n][];
    for (int i = 0; i < n; i++) {
      out[i] = self[i].clone();
      int[] src = g.inSources.get(i);
      int[] chosen;
      if (l.fanout() >= 0 && src.length > l.fanout()) {
        int[] pos = sampler.positions(seed, k, g.ids[i], src.length, l.fanout());
        chosen = new int[pos.length];
        for (int p = 0; p < pos.length; p++) {
          chosen[p] = src[pos[p]];
        }
      } else {
        chosen = src;
      }
      for (int j : chosen) {
        addScaled(out[i], neigh[j], 1.0 / chosen.length);
      }
      finish(k, l, out[i]);
    }
    return out;
  }

  private double[][] gat(int k, LayerSpec l, Graph g, double[][] h) {
    int n = h.length;
    int heads = l.heads();
    int f = l.out();
    double[][] z = matmul(h, mat("layers." + k + ".weight"));
    double[][] aSrc = mat("layers." + k + ".attn_src");
    double[][] aDst = mat("layers." + k + ".attn_dst");
    double[][] out = new double[n][];
    for (int i = 0; i < n; i++) {
      List<Integer> nb = new ArrayList<>();
      for (int j : g.inSources.get(i)) {
        if (j != i) {
          nb.add(j);
        }
      }
      nb.add(i);
      double[] concat = new double[heads * f];
      for (int hd = 0; hd < heads; hd++) {
        double dst = dot(aDst[hd], z[i], hd * f, f);
        double[] e = new double[nb.size()];
        double max = Double.NEGATIVE_INFINITY;
        for (int p = 0; p < e.length; p++) {
          double v = dot(aSrc[hd], z[nb.get(p)], hd * f, f) + dst;
          e[p] = v > 0 ? v : l.negativeSlope() * v;
          max = Math.max(max, e[p]);
        }
        double sum = 0;
        for (int p = 0; p < e.length; p++) {
          e[p] = Math.exp(e[p] - max);
          sum += e[p];
        }
        for (int p = 0; p < e.length; p++) {
          double alpha = e[p] / sum;
          double[] zj = z[nb.get(p)];
          for (int c = 0; c < f; c++) {
            concat[hd * f + c] += alpha * zj[hd * f + c];
          }
        }
      }
      if (l.concat()) {
        out[i] = concat;
      } else {
        out[i] = new double[f];
        for (int hd = 0; hd < heads; hd++) {
          for (int c = 0; c < f; c++) {
            out[i][c] += concat[hd * f + c] / heads;
          }
        }
      }
      finish(k, l, out[i]);
    }
    return out;
  }

  private void finish(int k, LayerSpec l, double[] row) {
    if (l.bias()) {
      double[][] b = mat("layers." + k + ".bias");
      for (int c = 0; c < row.length; c++) {
        row[c] += b[0][c];
      }
    }
    for (int c = 0; c < row.length; c++) {
      row[c] = activate(l.activation().jsonName(), row[c]);
    }
  }

  static double activate(String name, double x) {
    switch (name) {
      case "relu":
        return Math.max(0, x);
      case "elu":
        return x > 0 ? x : Math.exp(x) - 1;
      case "leaky_relu":
        return x > 0 ? x : 0.01 * x;
      case "tanh":
        return Math.tanh(x);
      case "sigmoid":
        return 1 / (1 + Math.exp(-x));
      default:
        return x;
    }
  }

  private double[][] mat(String name) {
    Tensor t = w.get(name);
    int rows = t.shape().length == 1 ? 1 : t.shape()[0];
    int cols = t.shape()[t.shape().length - 1];
    double[][] m = new double[rows][cols];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        m[r][c] = t.data()[r * cols + c];
      }
    }
    return m;
  }

  private static double[][] matmul(double[][] a, double[][] b) {
    int m = b[0].length;
    double[][] c = new double[a.length][m];
    for (int i = 0; i < a.length; i++) {
      for (int p = 0; p < b.length; p++) {
        double v = a[i][p];
        if (v != 0) {
          for (int j = 0; j < m; j++) {
            c[i][j] += v * b[p][j];
          }
        }
      }
    }
    return c;
  }

  private static double dot(double[] a, double[] z, int off, int f) {
    double s = 0;
    for (int c = 0; c < f; c++) {
      s += a[c] * z[off + c];
    }
    return s;
  }

  private static void addScaled(double[] acc, double[] v, double s) {
    for (int c = 0; c < acc.length; c++) {
      acc[c] += s * v[c];
    }
  }
}
