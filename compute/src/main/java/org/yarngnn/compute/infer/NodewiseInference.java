package org.yarngnn.compute.infer;

import java.util.Arrays;
import java.util.List;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The baseline Deal is measured against: mini-batch inference as GNN libraries do it. Targets are taken in
 * batches; for each batch the K-hop receptive field is expanded layer by layer through the (same, reproducible)
 * sampled neighbourhoods, and every layer is computed for every node of that field, so a node's embedding is
 * recomputed by every batch that reaches it. Results equal {@link LayerwiseInference}'s; only the work differs.
 * The per-layer samples are drawn once up front, which only flatters the baseline.
 */
public final class NodewiseInference {
  private final Model model;
  private final LayerwiseInference layerwise;
  private final int batchSize;
  private long rowsComputed;

  public NodewiseInference(Model model, long seed, int batchSize) {
    this.model = model;
    this.layerwise = new LayerwiseInference(model, seed);
    this.batchSize = batchSize;
  }

  /** Layer rows computed in the last run (transforms plus aggregations): the recomputation Deal avoids. */
  public long rowsComputed() {
    return rowsComputed;
  }

  public DenseMatrix run(GraphBlock g, DenseMatrix features) {
    List<Layer> layers = layerwise.layers();
    int depth = layers.size();
    int n = g.numNodes();
    RowNormalization.applyInput(model.spec().inputNormalize(), features);
    GraphBlock[] edges = new GraphBlock[depth];
    DenseMatrix[] msg = new DenseMatrix[depth];
    DenseMatrix[] self = new DenseMatrix[depth];
    DenseMatrix[] out = new DenseMatrix[depth];
    for (int k = 0; k < depth; k++) {
      Layer l = layers.get(k);
      edges[k] = layerwise.sampled(k, g);
      msg[k] = new DenseMatrix(n, l.messageWidth());
      self[k] = l.selfWidth() > 0 ? new DenseMatrix(n, l.selfWidth()) : null;
      out[k] = new DenseMatrix(n, l.outWidth());
    }
    DenseMatrix result = new DenseMatrix(n, layers.get(depth - 1).outWidth());
    int[][] field = new int[depth + 1][];
    int[] fieldSize = new int[depth + 1];
    int[] stamp = new int[n];
    Arrays.fill(stamp, -1);
    rowsComputed = 0;
    int mark = 0;
    for (int b0 = 0; b0 < n; b0 += batchSize) {
      int b1 = Math.min(n, b0 + batchSize);
      // field[depth] = targets; field[k] = field[k+1] plus the layer-k sources of field[k+1].
      field[depth] = new int[b1 - b0];
      for (int i = b0; i < b1; i++) {
        field[depth][i - b0] = i;
      }
      fieldSize[depth] = b1 - b0;
      for (int k = depth - 1; k >= 0; k--) {
        mark++;
        int[] f = Arrays.copyOf(field[k + 1], Math.max(16, fieldSize[k + 1] * 2));
        int size = fieldSize[k + 1];
        for (int p = 0; p < size; p++) {
          stamp[f[p]] = mark;
        }
        Csr c = edges[k].inEdges();
        for (int p = 0; p < fieldSize[k + 1]; p++) {
          int i = field[k + 1][p];
          for (int e = c.rowPtr()[i]; e < c.rowPtr()[i + 1]; e++) {
            int j = c.colIdx()[e];
            if (stamp[j] != mark) {
              stamp[j] = mark;
              if (size == f.length) {
                f = Arrays.copyOf(f, f.length * 2);
              }
              f[size++] = j;
            }
          }
        }
        field[k] = f;
        fieldSize[k] = size;
      }
      for (int k = 0; k < depth; k++) {
        Layer l = layers.get(k);
        DenseMatrix input = k == 0 ? features : out[k - 1];
        int[] src = field[k];
        int[] dst = field[k + 1];
        int k0 = k;
        RowRanges.parallel(fieldSize[k], 64, (from, to) -> {
          DenseMatrix rows = gather(input, src, from, to);
          l.transformRows(g, rows, Arrays.copyOfRange(src, from, to), to - from, msg[k0], self[k0]);
        });
        RowRanges.parallel(fieldSize[k + 1], 64, (from, to) -> {
          for (int p = from; p < to; p++) {
            l.aggregate(edges[k0], msg[k0], self[k0], dst[p], dst[p] + 1, out[k0]);
          }
        });
        rowsComputed += fieldSize[k] + fieldSize[k + 1];
      }
      DenseMatrix last = out[depth - 1];
      System.arraycopy(last.data(), last.offset(b0), result.data(), result.offset(b0), (b1 - b0) * last.cols());
    }
    RowNormalization.applyOutput(model.spec().outputNormalize(), result);
    return result;
  }

  private static DenseMatrix gather(DenseMatrix m, int[] nodes, int from, int to) {
    DenseMatrix rows = new DenseMatrix(to - from, m.cols());
    for (int p = from; p < to; p++) {
      System.arraycopy(m.data(), m.offset(nodes[p]), rows.data(), rows.offset(p - from), m.cols());
    }
    return rows;
  }
}
