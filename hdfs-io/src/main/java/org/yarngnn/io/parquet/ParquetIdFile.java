package org.yarngnn.io.parquet;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.ParquetDecodingException;
import org.yarngnn.io.table.IdSink;
import org.yarngnn.io.table.InputException;

/** The ids of a Parquet file: its integer column {@code idColumn} only, every other column left unread. */
public final class ParquetIdFile {
  private ParquetIdFile() {}

  public static void read(Configuration conf, Path file, String idColumn, int fileIndex, IdSink sink) {
    try (ParquetFile pf = ParquetFile.open(conf, file)) {
      ParquetColumn idCol = ParquetColumn.integer(pf.schema(), file, idColumn, true);
      pf.project(idCol);
      long base = 0;
      while (pf.nextRowGroup()) {
        long rows = pf.rowGroupRows();
        LeafCursor id = pf.column(idCol);
        for (long r = 1; r <= rows; r++) {
          long row = base + r;
          sink.id(next(id, idCol, file, row), fileIndex, row);
        }
        base += rows;
      }
    } catch (ParquetDecodingException e) {
      throw InputException.in(file, "corrupt Parquet data (" + e.getMessage() + ")");
    }
  }

  /** The id at {@code id}'s position (row {@code row} of {@code file}), checked, and the cursor moved past it. */
  static long next(LeafCursor id, ParquetColumn idCol, Path file, long row) {
    if (idCol.maxDefinition > 0 && id.definitionLevel() < idCol.maxDefinition) {
      throw InputException.at(file, row, "null id");
    }
    long v = id.getLong();
    if (idCol.unsigned64 && v < 0) {
      throw InputException.at(file, row, ParquetEdgeFile.tooLarge("id", v));
    }
    id.consume();
    return v;
  }
}
