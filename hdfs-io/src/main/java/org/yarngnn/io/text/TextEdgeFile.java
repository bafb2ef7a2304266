package org.yarngnn.io.text;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.TableFormat;

/** Edges from a TSV/CSV file: {@code src<sep>dst[<sep>weight]}. */
public final class TextEdgeFile {
  private TextEdgeFile() {
  }

  /**
   * Whether the file's first data row has a weight; null when the file has no data rows. The row is checked
   * as {@link #read} checks it, so its problem is reported as that row's.
   */
  public static Boolean weighted(Configuration conf, Path file, TableFormat format) {
    try (TextRows rows = TextRows.open(conf, file, format)) {
      if (!rows.next()) {
        return null;
      }
      int n = rows.fieldCount();
      if (n != 2 && n != 3) {
        throw rows.wrongColumns("2 or 3 columns (src, dst[, weight])");
      }
      rows.parseLong(0, "src");
      rows.parseLong(1, "dst");
      if (n == 3) {
        weight(rows);
      }
      return n == 3;
    }
  }

  private static float weight(TextRows rows) {
    float w = rows.parseFloat(2, "weight");
    if (!Float.isFinite(w)) {
      throw rows.error("weight is NaN or infinite");
    }
    return w;
  }

  public static void read(Configuration conf, Path file, TableFormat format, boolean weighted, EdgeSink sink) {
    int expected = weighted ? 3 : 2;
    try (TextRows rows = TextRows.open(conf, file, format)) {
      while (rows.next()) {
        if (rows.fieldCount() != expected) {
          throw rows.wrongColumns(weighted ? "3 columns (src, dst, weight)" : "2 columns (src, dst)");
        }
        long src = rows.parseLong(0, "src");
        long dst = rows.parseLong(1, "dst");
        float w = 1f;
        if (weighted) {
          w = weight(rows);
        }
        sink.edge(src, dst, w, rows.row());
      }
    }
  }
}
