package org.yarngnn.io.text;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.IdSink;
import org.yarngnn.io.table.TableFormat;

/**
 * The ids of a TSV/CSV file: the first field of every data row (a line holding just an id, or a nodes table's
 * row); empty lines, {@code #} comments and an {@code id} header line are skipped as in every text table.
 */
public final class TextIdFile {
  private TextIdFile() {}

  public static void read(Configuration conf, Path file, TableFormat format, int fileIndex, IdSink sink) {
    try (TextRows rows = TextRows.open(conf, file, format)) {
      while (rows.next()) {
        sink.id(rows.parseLong(0, "id"), fileIndex, rows.row());
      }
    }
  }
}
