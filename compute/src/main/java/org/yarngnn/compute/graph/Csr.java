package org.yarngnn.compute.graph;

/**
 * Compressed sparse rows of in-edges: row {@code i} lists the sources of the edges that end at destination
 * {@code i}, as column indices into a source-slot space of {@code numCols} rows. Parallel edges appear as
 * repeated columns. {@code weights} is null when the edge table has no weights (every weight is 1).
 */
public final class Csr {
  private final int numRows;
  private final int numCols;
  private final int[] rowPtr;
  private final int[] colIdx;
  private final float[] weights;

  public Csr(int numRows, int numCols, int[] rowPtr, int[] colIdx, float[] weights) {
    if (rowPtr.length != numRows + 1) {
      throw new IllegalArgumentException("rowPtr has " + rowPtr.length + " entries for " + numRows + " rows");
    }
    int nnz = rowPtr[numRows];
    if (colIdx.length < nnz || (weights != null && weights.length < nnz)) {
      throw new IllegalArgumentException("colIdx/weights shorter than nnz " + nnz);
    }
    this.numRows = numRows;
    this.numCols = numCols;
    this.rowPtr = rowPtr;
    this.colIdx = colIdx;
    this.weights = weights;
  }

  public int numRows() {
    return numRows;
  }

  public int numCols() {
    return numCols;
  }

  public long numEdges() {
    return rowPtr[numRows];
  }

  public int[] rowPtr() {
    return rowPtr;
  }

  public int[] colIdx() {
    return colIdx;
  }

  /** Edge weights parallel to {@link #colIdx()}, or null when all are 1. */
  public float[] weights() {
    return weights;
  }

  public boolean weighted() {
    return weights != null;
  }

  public float weight(int edge) {
    return weights == null ? 1f : weights[edge];
  }

  public int degree(int row) {
    return rowPtr[row + 1] - rowPtr[row];
  }

  /** Bytes held by the arrays of this CSR. */
  public long sizeInBytes() {
    long n = 4L * rowPtr.length + 4L * numEdges();
    return weights == null ? n : n + 4L * numEdges();
  }
}
