package org.yarngnn.compute.graph;

/**
 * Builds an in-edge {@link Csr} from edge arrays with two counting sorts (no comparison sort, no per-edge
 * objects). Pass 1 buckets each edge's destination (and weight) by its source's sort key: the transpose, read
 * sequentially afterwards. Pass 2 walks the sources in key order and appends each source to the rows of its
 * destinations, so every row lists its sources in key order. With the global id rank as the key, rows come out
 * ordered by source id, as the sampler requires; parallel edges from one source are ordered by weight.
 * Transient memory: 4 bytes per edge (8 weighted) besides the output.
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
    int[] keyEnd = new int[numCols + 1];
    for (int e = 0; e < numEdges; e++) {
      rowPtr[dst[e] + 1]++;
      keyEnd[key(sourceKey, src[e]) + 1]++;
    }
    for (int r = 0; r < numRows; r++) {
      rowPtr[r + 1] += rowPtr[r];
    }
    for (int k = 0; k < numCols; k++) {
      keyEnd[k + 1] += keyEnd[k];
    }
    // Pass 1: destinations grouped by source key; afterwards keyEnd[k] is the end of key k's group.
    int[] dstByKey = new int[numEdges];
    float[] wByKey = weights == null ? null : new float[numEdges];
    for (int e = 0; e < numEdges; e++) {
      int q = keyEnd[key(sourceKey, src[e])]++;
      dstByKey[q] = dst[e];
      if (wByKey != null) {
        wByKey[q] = weights[e];
      }
    }
    int[] slotOfKey = sourceKey == null ? null : inverse(sourceKey, numCols);
    // Pass 2: sources in key order, appended to their destinations' rows.
    int[] fill = new int[numRows];
    System.arraycopy(rowPtr, 0, fill, 0, numRows);
    int[] colIdx = new int[numEdges];
    float[] w = weights == null ? null : new float[numEdges];
    int q = 0;
    for (int k = 0; k < numCols; k++) {
      int slot = slotOfKey == null ? k : slotOfKey[k];
      int end = keyEnd[k];
      if (w == null) {
        for (; q < end; q++) {
          colIdx[fill[dstByKey[q]]++] = slot;
        }
      } else {
        for (; q < end; q++) {
          int pos = fill[dstByKey[q]]++;
          colIdx[pos] = slot;
          w[pos] = wByKey[q];
        }
      }
    }
    if (w != null) {
      orderParallelEdgesByWeight(rowPtr, colIdx, w, numRows);
    }
    return new Csr(numRows, numCols, rowPtr, colIdx, w);
  }

  /**
   * Parallel edges (equal adjacent columns within a row) get ascending weights, so the CSR does not depend on
   * the order the edges were read in (parallel readers, a shuffle). Runs are short: insertion sort.
   */
  private static void orderParallelEdgesByWeight(int[] rowPtr, int[] colIdx, float[] w, int numRows) {
    for (int r = 0; r < numRows; r++) {
      int end = rowPtr[r + 1];
      for (int e = rowPtr[r] + 1; e < end; e++) {
        int c = colIdx[e];
        if (colIdx[e - 1] != c) {
          continue;
        }
        float x = w[e];
        int k = e - 1;
        while (k >= rowPtr[r] && colIdx[k] == c && Float.compare(w[k], x) > 0) {
          w[k + 1] = w[k];
          k--;
        }
        w[k + 1] = x;
      }
    }
  }

  private static int[] inverse(int[] perm, int n) {
    int[] inv = new int[n];
    for (int i = 0; i < n; i++) {
      inv[perm[i]] = i;
    }
    return inv;
  }

  private static int key(int[] sourceKey, int slot) {
    return sourceKey == null ? slot : sourceKey[slot];
  }
}
