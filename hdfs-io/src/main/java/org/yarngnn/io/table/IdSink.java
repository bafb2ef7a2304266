package org.yarngnn.io.table;

/** Receives the ids of an id table (targeted inference's {@code --targets}), one call per row. */
@FunctionalInterface
public interface IdSink {
  /**
   * One id; {@code file} is the index of its file in {@link IdTable#files()}, {@code row} the 1-based line number
   * (text) or row index within the file (Parquet, ORC), as the nodes table's readers number rows.
   */
  void id(long id, int file, long row);
}
