package org.yarngnn.compute.kernel;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Sparse times dense over a {@link Csr} of in-edges: {@code out[i] = reduce over edges e of row i of
 * w_e * x[col_e]} (w_e = 1 when the CSR is unweighted). Rows of {@code x} are source slots, rows of {@code out}
 * destinations; each output row is accumulated in registers strip by strip ({@link SparseRows#gather}), and
 * threads own disjoint destination rows split by edge count ({@link EdgeBalancedRows}), so nothing is locked
 * and nothing is allocated per row.
 */
public final class SpMM {
  /** How the weighted messages of a row are combined. */
  public enum Reduce {
    /** Sum over the row's edges. */
    SUM,
    /** Sum divided by the number of edges of the row (not the weight sum); an empty row gives 0. */
    MEAN
  }

  private SpMM() {}

  /** {@code out = reduce(A x)} over all rows, parallel over destination rows. */
  public static void multiply(Csr a, DenseMatrix x, DenseMatrix out, Reduce r) {
    checkShapes(a, x, out);
    EdgeBalancedRows.parallel(a.rowPtr(), a.numRows(), (from, to) -> multiplyRows(a, x, out, r, from, to));
  }

  /** {@link #multiply} restricted to destination rows {@code [from, to)}, on the calling thread. */
  public static void multiplyRows(Csr a, DenseMatrix x, DenseMatrix out, Reduce r, int from, int to) {
    checkShapes(a, x, out);
    int[] rowPtr = a.rowPtr();
    int[] col = a.colIdx();
    float[] w = a.weights();
    int n = x.cols();
    float[] od = out.data();
    for (int i = from; i < to; i++) {
      int start = rowPtr[i];
      int end = rowPtr[i + 1];
      int o = out.offset(i);
      Arrays.fill(od, o, o + n, 0f);
      SparseRows.gather(col, start, end, w, 0, null, SparseRows.NO_SKIP, x.data(), 0, n, od, o, n);
      if (r == Reduce.MEAN && end > start + 1) {
        SparseRows.scale(1f / (end - start), od, o, n);
      }
    }
  }

  /**
   * Scaled (e.g. GCN-normalised) product: {@code out[i] = rowScale[i] * sum_e w_e * colScale[col_e] *
   * x[col_e]}, parallel over destination rows. With {@code rowScale = colScale = 1/sqrt(deg)} this is
   * {@code D^-1/2 A D^-1/2 x}. Either scale may be null (all ones).
   */
  public static void multiplyScaled(Csr a, float[] rowScale, float[] colScale, DenseMatrix x, DenseMatrix out) {
    checkShapes(a, x, out);
    if ((rowScale != null && rowScale.length < a.numRows()) || (colScale != null && colScale.length < a.numCols())) {
      throw new IllegalArgumentException("scale vectors shorter than the CSR's rows/columns");
    }
    EdgeBalancedRows.parallel(a.rowPtr(), a.numRows(),
        (from, to) -> multiplyScaledRows(a, rowScale, colScale, x, out, from, to));
  }

  /** {@link #multiplyScaled} restricted to destination rows {@code [from, to)}, on the calling thread. */
  public static void multiplyScaledRows(Csr a, float[] rowScale, float[] colScale, DenseMatrix x, DenseMatrix out,
      int from, int to) {
    int[] rowPtr = a.rowPtr();
    int n = x.cols();
    float[] od = out.data();
    for (int i = from; i < to; i++) {
      int o = out.offset(i);
      Arrays.fill(od, o, o + n, 0f);
      SparseRows.gather(a.colIdx(), rowPtr[i], rowPtr[i + 1], a.weights(), 0, colScale, SparseRows.NO_SKIP,
          x.data(), 0, n, od, o, n);
      if (rowScale != null) {
        SparseRows.scale(rowScale[i], od, o, n);
      }
    }
  }

  private static void checkShapes(Csr a, DenseMatrix x, DenseMatrix out) {
    if (x.rows() < a.numCols() || out.rows() < a.numRows() || out.cols() != x.cols()) {
      throw new IllegalArgumentException("spmm shapes: csr " + a.numRows() + "x" + a.numCols() + ", x " + x
          + ", out " + out);
    }
  }
}
