package org.yarngnn.compute.layer;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.PackedMatrix;
import org.yarngnn.compute.kernel.SparseRows;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Graph convolution (Kipf and Welling), as the contract defines it:
 * {@code H'_i = act( sum_{j in N(i) u {i}} w_ji / sqrt(d_i d_j) * (H_j W) + b )} with
 * {@code d_v = 1 + sum of the weights of v's in-edges that are not self-loops}. Input self-loops are ignored
 * and every node counts itself once with weight 1. Edge weights are used (1 when the CSR is unweighted).
 * <p>Message row of node j: {@code (H_j W) / sqrt(d_j)}; no self row. Aggregate: {@code out_i = act( (sum over
 * non-self-loop in-edges of w_ji * msg_j + msg_i) / sqrt(d_i) + b )}. The degree of a node is read from its own
 * in-edges in the block given to {@link #transform}, so a halo node's message comes from its owner.
 */
public final class GcnLayer extends BaseLayer {
  private final PackedMatrix weight;

  /** {@code weight} is [in, out]; {@code bias} has {@code out} values or is null (no bias). */
  public GcnLayer(LayerSpec spec, DenseMatrix weight, float[] bias) {
    super(spec, bias);
    if (weight.rows() != spec.in() || weight.cols() != spec.out()) {
      throw new IllegalArgumentException("gcn weight " + weight + " for in " + spec.in() + ", out " + spec.out());
    }
    this.weight = PackedMatrix.pack(weight);
  }

  @Override
  public int messageWidth() {
    return spec.out();
  }

  @Override
  public int selfWidth() {
    return 0;
  }

  /**
   * {@code 1 / sqrt(d_v)} with {@code d_v = 1 + sum of weights of v's in-edges that are not self-loops}.
   *
   * @throws DegreeException when {@code d_v} is not positive (or NaN)
   */
  public static float invSqrtDegree(GraphBlock g, int v) {
    Csr c = g.inEdges();
    int[] rowPtr = c.rowPtr();
    double d = 1;
    for (int e = rowPtr[v]; e < rowPtr[v + 1]; e++) {
      if (!g.isSelfLoop(v, e)) {
        d += c.weight(e);
      }
    }
    if (!(d > 0)) {
      throw new DegreeException(g.nodeIds()[v], d);
    }
    return (float) (1 / Math.sqrt(d));
  }

  @Override
  public void transform(GraphBlock g, DenseMatrix h, int from, int to, DenseMatrix msg, DenseMatrix self) {
    LayerChecks.transform(this, g, h, to, msg, self);
    int n = spec.out();
    DenseRows.multiply(h, from, to, weight, msg, (node, buf, off) -> SparseRows.scale(invSqrtDegree(g, node), buf,
        off, n));
  }

  @Override
  public void transformRows(GraphBlock g, DenseMatrix h, int[] nodes, int count, DenseMatrix msg, DenseMatrix self) {
    LayerChecks.transform(this, g, h, count, msg, self);
    int n = spec.out();
    DenseRows.multiplyScattered(h, nodes, count, weight, msg, n, (node, buf, off) ->
        SparseRows.scale(invSqrtDegree(g, node), buf, off, n));
  }

  @Override
  public int linearWidth() {
    return spec.out();
  }

  @Override
  public void linear(DenseMatrix h, int from, int to, DenseMatrix lin) {
    DenseRows.multiplyInto(h, from, to, weight, lin, 0);
  }

  @Override
  public void completeTransform(GraphBlock g, DenseMatrix lin, int from, int to, DenseMatrix msg,
      DenseMatrix self) {
    int n = spec.out();
    DenseRows.copyColumns(lin, 0, n, from, to, msg);
    for (int r = from; r < to; r++) {
      SparseRows.scale(invSqrtDegree(g, r), msg.data(), msg.offset(r), n);
    }
  }

  @Override
  public void aggregate(GraphBlock g, DenseMatrix msg, DenseMatrix self, int from, int to, DenseMatrix out) {
    LayerChecks.aggregate(this, g, msg, self, to, out);
    Csr c = g.inEdges();
    int[] rowPtr = c.rowPtr();
    int n = spec.out();
    float[] md = msg.data();
    float[] od = out.data();
    for (int i = from; i < to; i++) {
      int o = out.offset(i);
      Arrays.fill(od, o, o + n, 0f);
      // skipCol = i drops input self-loops; the node's own message is then added once with weight 1.
      SparseRows.gather(c.colIdx(), rowPtr[i], rowPtr[i + 1], c.weights(), 0, null, i, md, 0, msg.cols(), od, o, n);
      SparseRows.axpy(1f, md, msg.offset(i), od, o, n);
      SparseRows.scale(invSqrtDegree(g, i), od, o, n);
      finishOutput(od, o, n);
    }
  }
}
