package org.yarngnn.io.text;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.EdgeColumns;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.TableFormat;

/**
 * Edges from a TSV/CSV file: {@code src<sep>dst[<sep>weight][<sep>split]}, the last field being a split when it is
 * one of train, val, test, none (any case). The table's first data row fixes which fields every row has.
 */
public final class TextEdgeFile {
  private static final String LAYOUTS = "2 to 4 columns (src, dst[, weight][, split])";

  private TextEdgeFile() {
  }

  /**
   * The optional fields of the file's first data row; null when the file has no data rows. The row is checked
   * as {@link #read} checks it, so its problem is reported as that row's.
   */
  public static EdgeColumns columns(Configuration conf, Path file, TableFormat format) {
    try (TextRows rows = TextRows.open(conf, file, format)) {
      if (!rows.next()) {
        return null;
      }
      int n = rows.fieldCount();
      if (n < 2 || n > 4) {
        throw rows.wrongColumns(LAYOUTS);
      }
      rows.parseLong(0, "src");
      rows.parseLong(1, "dst");
      // Three fields: a split word is a split, anything else a weight (no split word parses as a number).
      boolean split = n == 4 || n == 3 && NodeSplit.parse(rows.buf(), rows.start(2), rows.end(2)) >= 0;
      boolean weighted = n == 4 || n == 3 && !split;
      if (weighted) {
        weight(rows);
      }
      if (n == 4) {
        rows.parseSplit(3);
      }
      return new EdgeColumns(weighted, split);
    }
  }

  private static float weight(TextRows rows) {
    float w = rows.parseFloat(2, "weight");
    if (!Float.isFinite(w)) {
      throw rows.error("weight is NaN or infinite");
    }
    return w;
  }

  public static void read(Configuration conf, Path file, TableFormat format, EdgeColumns table, EdgeSink sink) {
    int expected = 2 + (table.weighted() ? 1 : 0) + (table.split() ? 1 : 0);
    // A text field is a split only by its place, so it is checked even for a sink that ignores it: a weight in a
    // later file of a split table is refused rather than dropped.
    boolean wanted = sink.wantsSplit();
    try (TextRows rows = TextRows.open(conf, file, format)) {
      while (rows.next()) {
        if (rows.fieldCount() != expected) {
          throw rows.wrongColumns(expected + " columns (src, dst" + (table.weighted() ? ", weight" : "")
              + (table.split() ? ", split" : "") + ")");
        }
        long src = rows.parseLong(0, "src");
        long dst = rows.parseLong(1, "dst");
        float w = 1f;
        if (table.weighted()) {
          w = weight(rows);
        }
        byte split = table.split() ? rows.parseSplit(expected - 1) : NodeSplit.NONE;
        if (wanted && table.split()) {
          sink.edge(src, dst, w, split, rows.row());
        } else {
          sink.edge(src, dst, w, rows.row());
        }
      }
    }
  }
}
