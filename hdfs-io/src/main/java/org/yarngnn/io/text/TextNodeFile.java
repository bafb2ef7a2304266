package org.yarngnn.io.text;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.NodeLayout;
import org.yarngnn.io.table.NodeSink;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.TableFormat;

/** Nodes from a TSV/CSV file: {@code id<sep>features} or {@code id<sep>label<sep>split<sep>features}. */
public final class TextNodeFile {
  private static final String PLAIN = "2 columns (id, features)";
  private static final String LABELLED = "4 columns (id, label, split, features)";

  private TextNodeFile() {
  }

  /**
   * The layout and feature width of the first data row; null when the file has no data rows. The row is
   * checked as {@link #read} checks it, so its problem is reported as that row's (not, say, as a feature width
   * that differs from the model's).
   */
  public static NodeLayout peek(Configuration conf, Path file, TableFormat format, boolean allowNonFinite) {
    try (TextRows rows = TextRows.open(conf, file, format)) {
      if (!rows.next()) {
        return null;
      }
      int n = rows.fieldCount();
      if (n != 2 && n != 4) {
        throw rows.wrongColumns(PLAIN + " or " + LABELLED);
      }
      int f = n - 1;
      NodeLayout layout = new NodeLayout(n == 4, n == 4, countFeatures(rows.buf(), rows.start(f), rows.end(f)));
      parseRow(rows, layout.hasLabels(), new float[layout.featureWidth()], allowNonFinite, NO_SINK);
      return layout;
    }
  }

  private static final NodeSink NO_SINK = (id, label, split, features, row) -> { };

  private static int countFeatures(byte[] b, int start, int end) {
    if (start == end) {
      return 0;
    }
    int n = 1;
    for (int i = start; i < end; i++) {
      if (b[i] == ',') {
        n++;
      }
    }
    return n;
  }

  public static void read(Configuration conf, Path file, TableFormat format, NodeLayout layout, boolean allowNonFinite,
      NodeSink sink) {
    boolean labelled = layout.hasLabels();
    float[] features = new float[layout.featureWidth()];
    try (TextRows rows = TextRows.open(conf, file, format)) {
      while (rows.next()) {
        parseRow(rows, labelled, features, allowNonFinite, sink);
      }
    }
  }

  private static void parseRow(TextRows rows, boolean labelled, float[] features, boolean allowNonFinite,
      NodeSink sink) {
    int expected = labelled ? 4 : 2;
    if (rows.fieldCount() != expected) {
      throw rows.wrongColumns(labelled ? LABELLED : PLAIN);
    }
    long id = rows.parseLong(0, "id");
    int label = -1;
    byte split = NodeSplit.NONE;
    if (labelled) {
      long l = rows.parseLong(1, "label");
      if (l < -1 || l > Integer.MAX_VALUE) {
        throw rows.error("bad label " + l + " (expected -1 for none, or a class index >= 0)");
      }
      label = (int) l;
      split = rows.parseSplit(2);
    }
    parseFeatures(rows, expected - 1, features, allowNonFinite);
    sink.node(id, label, split, features, rows.row());
  }

  private static void parseFeatures(TextRows rows, int field, float[] out, boolean allowNonFinite) {
    byte[] b = rows.buf();
    int end = rows.end(field);
    int i = rows.start(field);
    int n = 0;
    if (i < end) {
      while (true) {
        int s = i;
        while (i < end && b[i] != ',') {
          i++;
        }
        if (n < out.length) {
          int e = i;
          int fs = s;
          while (fs < e && b[fs] == ' ') {
            fs++;
          }
          while (e > fs && b[e - 1] == ' ') {
            e--;
          }
          float v;
          try {
            v = NumberParser.parseFloat(b, fs, e);
          } catch (NumberFormatException ex) {
            throw rows.error("non-numeric feature " + (n + 1) + " '" + ex.getMessage() + "'");
          }
          if (!Float.isFinite(v)) {
            if (!NumberParser.isSpecial(b, fs, e)) {
              throw rows.error("feature " + (n + 1) + " " + NumberParser.text(b, fs, e)
                  + " is outside float range (beyond +-" + Float.MAX_VALUE + ")");
            }
            if (!allowNonFinite) {
              throw rows.error("feature " + (n + 1) + " is NaN or infinite");
            }
          }
          out[n] = v;
        }
        n++;
        if (i >= end) {
          break;
        }
        i++;
      }
    }
    if (n != out.length) {
      throw rows.error("expected " + out.length + " features (the width of the first row), found " + n);
    }
  }
}
