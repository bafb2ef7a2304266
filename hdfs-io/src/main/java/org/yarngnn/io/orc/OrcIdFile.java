package org.yarngnn.io.orc;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.yarngnn.io.table.IdSink;
import org.yarngnn.io.table.InputException;

/** The ids of an ORC file: its integer column {@code idColumn} only. */
public final class OrcIdFile {
  private OrcIdFile() {}

  public static void read(Configuration conf, Path file, String idColumn, int fileIndex, IdSink sink) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      int col = orc.integerColumn(idColumn, true);
      orc.project(col);
      long base = 0;
      while (orc.nextBatch()) {
        int n = orc.batch().size;
        ColumnVector ids = orc.vector(col);
        for (int r = 0; r < n; r++) {
          long row = base + r + 1;
          if (OrcFileReader.isNull(ids, r)) {
            throw InputException.at(file, row, "null id");
          }
          sink.id(OrcFileReader.longValue(ids, r), fileIndex, row);
        }
        base += n;
      }
    }
  }
}
