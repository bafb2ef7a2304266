package org.yarngnn.io;

/** Receives the edges of a table, one call per row, without allocation. */
public interface EdgeSink {
  /** Called before the rows of each file. */
  default void beginFile(String file) {
  }

  /**
   * One edge. {@code weight} is 1 when the table has no weight column; {@code row} is the 1-based line number
   * (text) or row index within the file (Parquet, ORC), for error messages.
   */
  void edge(long src, long dst, float weight, long row);
}
