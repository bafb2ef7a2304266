package org.yarngnn.io.table;

/**
 * Receives the edges of a table, one call per row or per batch of rows, without allocation. A table with a {@code
 * split} column reaches a sink that {@link #wantsSplit} through the methods that carry it; every other sink sees
 * the plain methods and never the column (only {@code train --task link} uses it).
 */
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

  /**
   * Whether this sink takes the {@code split} column of a table that has one: then the readers decode and check
   * it and call the methods with a {@code split} argument. False by default: the column is not even read.
   */
  default boolean wantsSplit() {
    return false;
  }

  /** One edge of a table with a split column: {@code split} is a {@link NodeSplit} code (null values: none). */
  default void edge(long src, long dst, float weight, byte split, long row) {
    edge(src, dst, weight, row);
  }

  /** {@link #edges(long[], long[], float[], int, long)} with each row's {@link NodeSplit} code. */
  default void edges(long[] src, long[] dst, float[] weight, byte[] split, int count, long firstRow) {
    for (int i = 0; i < count; i++) {
      edge(src[i], dst[i], weight == null ? 1f : weight[i], split[i], firstRow + i);
    }
  }
}
