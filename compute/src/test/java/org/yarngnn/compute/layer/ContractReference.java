package org.yarngnn.compute.layer;

import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.tensor.DenseMatrix;

/** The contract's layer formulas written out plainly in double precision, over a block without halo. */
final class ContractReference {
  private ContractReference() {}

  static double[][] matmul(DenseMatrix h, DenseMatrix w) {
    double[][] z = new double[h.rows()][w.cols()];
    for (int i = 0; i < h.rows(); i++) {
      for (int c = 0; c < w.cols(); c++) {
        double s = 0;
        for (int p = 0; p < h.cols(); p++) {
          s += (double) h.get(i, p) * w.get(p, c);
        }
        z[i][c] = s;
      }
    }
    return z;
  }

  private static double[][] finish(double[][] out, float[] bias, Activation act) {
    for (double[] row : out) {
      for (int c = 0; c < row.length; c++) {
        row[c] = act.apply((float) (row[c] + (bias == null ? 0 : bias[c])));
      }
    }
    return out;
  }

  static double[][] gcn(GraphBlock g, DenseMatrix h, DenseMatrix w, float[] bias, Activation act) {
    Csr a = g.inEdges();
    int n = g.numNodes();
    double[][] z = matmul(h, w);
    double[] d = new double[n];
    for (int v = 0; v < n; v++) {
      d[v] = 1;
      for (int e = a.rowPtr()[v]; e < a.rowPtr()[v + 1]; e++) {
        if (a.colIdx()[e] != v) {
          d[v] += a.weight(e);
        }
      }
    }
    double[][] out = new double[n][w.cols()];
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < w.cols(); c++) {
        out[i][c] = z[i][c] / d[i]; // the one self-loop, weight 1
      }
      for (int e = a.rowPtr()[i]; e < a.rowPtr()[i + 1]; e++) {
        int j = a.colIdx()[e];
        if (j == i) {
          continue; // input self-loops are ignored
        }
        double f = a.weight(e) / Math.sqrt(d[i] * d[j]);
        for (int c = 0; c < w.cols(); c++) {
          out[i][c] += f * z[j][c];
        }
      }
    }
    return finish(out, bias, act);
  }

  static double[][] sage(GraphBlock g, DenseMatrix h, DenseMatrix wSelf, DenseMatrix wNeigh, float[] bias,
      Activation act) {
    Csr a = g.inEdges();
    int n = g.numNodes();
    double[][] self = matmul(h, wSelf);
    double[][] neigh = matmul(h, wNeigh);
    double[][] out = new double[n][wSelf.cols()];
    for (int i = 0; i < n; i++) {
      int deg = a.degree(i);
      for (int c = 0; c < wSelf.cols(); c++) {
        double m = 0;
        for (int e = a.rowPtr()[i]; e < a.rowPtr()[i + 1]; e++) {
          m += neigh[a.colIdx()[e]][c]; // self-loops are ordinary edges; weights ignored
        }
        out[i][c] = self[i][c] + (deg == 0 ? 0 : m / deg);
      }
    }
    return finish(out, bias, act);
  }

  static double[][] gat(GraphBlock g, DenseMatrix h, DenseMatrix w, float[] attnSrc, float[] attnDst, int heads,
      int width, boolean concat, float slope, float[] bias, Activation act) {
    Csr a = g.inEdges();
    int n = g.numNodes();
    double[][] z = matmul(h, w);
    double[][] out = new double[n][concat ? heads * width : width];
    for (int i = 0; i < n; i++) {
      // Neighbour list: non-self-loop sources with multiplicity, then i itself once.
      int[] nb = new int[a.degree(i) + 1];
      int cnt = 0;
      for (int e = a.rowPtr()[i]; e < a.rowPtr()[i + 1]; e++) {
        if (a.colIdx()[e] != i) {
          nb[cnt++] = a.colIdx()[e];
        }
      }
      nb[cnt++] = i;
      for (int hd = 0; hd < heads; hd++) {
        double[] e = new double[cnt];
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < cnt; k++) {
          double s = 0;
          for (int c = 0; c < width; c++) {
            s += attnSrc[hd * width + c] * z[nb[k]][hd * width + c] + attnDst[hd * width + c] * z[i][hd * width + c];
          }
          e[k] = s > 0 ? s : slope * s;
          max = Math.max(max, e[k]);
        }
        double sum = 0;
        for (int k = 0; k < cnt; k++) {
          e[k] = Math.exp(e[k] - max);
          sum += e[k];
        }
        for (int k = 0; k < cnt; k++) {
          for (int c = 0; c < width; c++) {
            double v = e[k] / sum * z[nb[k]][hd * width + c];
            if (concat) {
              out[i][hd * width + c] += v;
            } else {
              out[i][c] += v / heads;
            }
          }
        }
      }
    }
    return finish(out, bias, act);
  }

  /** Runs {@code layer} over every node of a block without halo, in two ranges, and returns the output. */
  static DenseMatrix run(Layer layer, GraphBlock g, DenseMatrix h) {
    int n = g.numNodes();
    DenseMatrix msg = new DenseMatrix(g.numSlots(), layer.messageWidth());
    DenseMatrix self = new DenseMatrix(n, Math.max(layer.selfWidth(), 1));
    DenseMatrix out = new DenseMatrix(n, layer.outWidth());
    int mid = n / 3;
    layer.transform(g, h, 0, mid, msg, self);
    layer.transform(g, h, mid, n, msg, self);
    layer.aggregate(g, msg, self, mid, n, out);
    layer.aggregate(g, msg, self, 0, mid, out);
    return out;
  }
}
