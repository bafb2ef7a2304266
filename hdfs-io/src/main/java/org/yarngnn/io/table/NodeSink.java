package org.yarngnn.io.table;

/** Receives the nodes of a table, one call per row. */
public interface NodeSink {
  /** Called before the rows of each file. */
  default void beginFile(String file) {
  }

  /**
   * One node. {@code features} is a reused buffer of the table's feature width: copy it. {@code label} is -1
   * when none; {@code split} is a {@link NodeSplit} code; {@code row} is the 1-based line number (text) or row
   * index within the file (Parquet, ORC).
   */
  void node(long id, int label, byte split, float[] features, long row);
}
