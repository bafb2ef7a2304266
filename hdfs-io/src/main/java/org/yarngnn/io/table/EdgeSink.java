package org.yarngnn.io.table;

/** Receives the edges of a table, one call per row or per batch of rows, without allocation. */
public interface EdgeSink {
  /** Called before the rows of each file. */
  default void beginFile(String file) {
  }

  /**
   * One edge. {@code weight} is 1 when the table has no weight column; {@code row} is the 1-based line number
   * (text) or row index within the file (Parquet, ORC), for error messages.
   */
  void edge(long src, long dst, float weight, long row);

  /**
   * Consecutive rows {@code firstRow + i} for {@code i < count}, as {@link #edge} would receive them one by one;
   * {@code weight} is null when the table has no weight column. Columnar readers (Parquet) call this; the arrays
   * are reused for the next batch. Override it to handle rows in tight loops.
   */
  default void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
    for (int i = 0; i < count; i++) {
      edge(src[i], dst[i], weight == null ? 1f : weight[i], firstRow + i);
    }
  }
}
