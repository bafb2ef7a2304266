package org.yarngnn.compute.kernel;

import java.util.Arrays;

/**
 * Parallel loops over CSR rows split by edge count rather than row count: on power-law graphs (R-MAT puts most
 * edges on a few low-numbered rows) equal row blocks leave one thread with most of the work.
 */
public final class EdgeBalancedRows {
  /** Edges per chunk: large enough that scheduling is noise, small enough for many chunks per thread. */
  private static final int EDGES_PER_CHUNK = 1 << 15;
  private static final int MAX_CHUNKS = 1 << 12;

  private EdgeBalancedRows() {}

  /** Runs {@code body} over rows {@code [0, rows)} of a CSR with row pointers {@code rowPtr}, in parallel. */
  public static void parallel(int[] rowPtr, int rows, RowRanges.Body body) {
    long nnz = rowPtr[rows];
    int chunks = (int) Math.max(1, Math.min(Math.min(MAX_CHUNKS, rows), nnz / EDGES_PER_CHUNK));
    if (chunks <= 1) {
      RowRanges.parallel(rows, 64, body);
      return;
    }
    int[] bounds = new int[chunks + 1];
    for (int c = 1; c < chunks; c++) {
      // First row whose start is at or past the c-th edge quantile; a row heavier than a chunk stays whole.
      int k = Arrays.binarySearch(rowPtr, 0, rows + 1, (int) (nnz * c / chunks));
      int row = k >= 0 ? k : -k - 1;
      bounds[c] = Math.max(bounds[c - 1], Math.min(row, rows));
    }
    bounds[chunks] = rows;
    RowRanges.parallel(chunks, 1, (from, to) -> {
      for (int c = from; c < to; c++) {
        if (bounds[c] < bounds[c + 1]) {
          body.run(bounds[c], bounds[c + 1]);
        }
      }
    });
  }
}
