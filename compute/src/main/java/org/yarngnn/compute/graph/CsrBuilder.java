package org.yarngnn.compute.graph;

/**
 * Builds an in-edge {@link Csr} from edge arrays with two counting sorts (no comparison sort, no per-edge
 * objects): first the edges are bucketed by their source's sort key, then placed stably into their
 * destination's row, so every row lists its sources in key order. With the global id rank as the key, rows
 * come out ordered by source id, as the sampler requires.
 */
public final class CsrBuilder {
  private CsrBuilder() {}

  /**
   * @param numRows destinations
   * @param numCols source slots
   * @param dst destination row of each edge, {@code [0, numEdges)} used
   * @param src source slot of each edge
   * @param weights weight of each edge, or null
   * @param numEdges edges used from the arrays
   * @param sourceKey sort key of each source slot, a permutation of {@code 0..numCols-1}; null sorts by slot
   */
  public static Csr build(int numRows, int numCols, int[] dst, int[] src, float[] weights, int numEdges,
      int[] sourceKey) {
    int[] rowPtr = new int[numRows + 1];
    for (int e = 0; e < numEdges; e++) {
      rowPtr[dst[e] + 1]++;
    }
    for (int r = 0; r < numRows; r++) {
      rowPtr[r + 1] += rowPtr[r];
    }
    // Pass 1: edge numbers ordered by source key (counting sort over the key space).
    int[] keyStart = new int[numCols + 1];
    for (int e = 0; e < numEdges; e++) {
      keyStart[key(sourceKey, src[e]) + 1]++;
    }
    for (int k = 0; k < numCols; k++) {
      keyStart[k + 1] += keyStart[k];
    }
    int[] bySource = new int[numEdges];
    for (int e = 0; e < numEdges; e++) {
      bySource[keyStart[key(sourceKey, src[e])]++] = e;
    }
    keyStart = null;
    // Pass 2: stable placement into destination rows keeps the source order inside each row.
    int[] fill = new int[numRows];
    System.arraycopy(rowPtr, 0, fill, 0, numRows);
    int[] colIdx = new int[numEdges];
    float[] w = weights == null ? null : new float[numEdges];
    for (int p = 0; p < numEdges; p++) {
      int e = bySource[p];
      int q = fill[dst[e]]++;
      colIdx[q] = src[e];
      if (w != null) {
        w[q] = weights[e];
      }
    }
    return new Csr(numRows, numCols, rowPtr, colIdx, w);
  }

  private static int key(int[] sourceKey, int slot) {
    return sourceKey == null ? slot : sourceKey[slot];
  }
}
