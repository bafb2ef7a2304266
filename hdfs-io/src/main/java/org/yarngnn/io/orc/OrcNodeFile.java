package org.yarngnn.io.orc;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeLayout;
import org.yarngnn.io.table.NodeLayouts;
import org.yarngnn.io.table.NodeSink;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.TableReadOptions;

/** Nodes from an ORC file: {@code id} bigint, {@code features} array&lt;float&gt;, optional label, split. */
public final class OrcNodeFile {
  private OrcNodeFile() {
  }

  private static int[] columns(OrcFileReader orc, TableReadOptions opts) {
    return new int[] {
        orc.integerColumn(opts.idColumn(), true),
        orc.column(opts.featuresColumn(), true, "array<float>", OrcFileReader.FLOATS, true),
        orc.integerColumn(opts.labelColumn(), false),
        orc.column(opts.splitColumn(), false, "string", OrcFileReader.STRINGS, false)};
  }

  /** The layout and the first row's feature width; width -1 when the file has no rows. */
  public static NodeLayout peek(Configuration conf, Path file, TableReadOptions opts) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      int[] cols = columns(orc, opts);
      int width = -1;
      orc.project(cols[1]);
      if (orc.nextBatch() && orc.batch().size > 0) {
        ListColumnVector f = (ListColumnVector) orc.vector(cols[1]);
        width = OrcFileReader.isNull(f, 0) ? 0 : (int) f.lengths[0];
      }
      return new NodeLayout(cols[2] >= 0, cols[3] >= 0, width);
    }
  }

  public static long rowCount(Configuration conf, Path file) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      return orc.rowCount();
    }
  }

  public static void read(Configuration conf, Path file, TableReadOptions opts, NodeLayout layout, NodeSink sink) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      int[] cols = columns(orc, opts);
      NodeLayouts.checkSame(file, layout, cols[2] >= 0, cols[3] >= 0);
      orc.project(cols);
      boolean allowNonFinite = opts.allowNonFinite();
      float[] features = new float[layout.featureWidth()];
      long base = 0;
      while (orc.nextBatch()) {
        int n = orc.batch().size;
        ColumnVector ids = orc.vector(cols[0]);
        ListColumnVector lists = (ListColumnVector) orc.vector(cols[1]);
        DoubleColumnVector values = (DoubleColumnVector) lists.child;
        ColumnVector labels = orc.vector(cols[2]);
        BytesColumnVector splits = (BytesColumnVector) orc.vector(cols[3]);
        for (int r = 0; r < n; r++) {
          long row = base + r + 1;
          if (OrcFileReader.isNull(ids, r)) {
            throw InputException.at(file, row, "null id");
          }
          long id = OrcFileReader.longValue(ids, r);
          if (OrcFileReader.isNull(lists, r)) {
            throw InputException.at(file, row, "null features");
          }
          int lr = lists.isRepeating ? 0 : r;
          int len = (int) lists.lengths[lr];
          if (len != features.length) {
            throw InputException.at(file, row,
                "expected " + features.length + " features (the width of the first row), found " + len);
          }
          int off = (int) lists.offsets[lr];
          for (int k = 0; k < len; k++) {
            if (OrcFileReader.isNull(values, off + k)) {
              throw InputException.at(file, row, "feature " + (k + 1) + " is null");
            }
            double dv = values.vector[values.isRepeating ? 0 : off + k];
            float v = (float) dv;
            if (!Float.isFinite(v) && OrcFileReader.outOfFloatRange("feature", dv) != null) {
              throw InputException.at(file, row, OrcFileReader.outOfFloatRange("feature " + (k + 1), dv));
            }
            if (!allowNonFinite && !Float.isFinite(v)) {
              throw InputException.at(file, row, "feature " + (k + 1) + " is NaN or infinite");
            }
            features[k] = v;
          }
          int label = -1;
          if (labels != null && !OrcFileReader.isNull(labels, r)) {
            long l = OrcFileReader.longValue(labels, r);
            if (l < -1 || l > Integer.MAX_VALUE) {
              throw InputException.at(file, row, "bad label " + l + " (expected -1 for none, or a class index >= 0)");
            }
            label = (int) l;
          }
          byte split = NodeSplit.NONE;
          if (splits != null && !OrcFileReader.isNull(splits, r)) {
            int sr = splits.isRepeating ? 0 : r;
            split = NodeSplit.parse(splits.vector[sr], splits.start[sr], splits.start[sr] + splits.length[sr]);
            if (split < 0) {
              throw InputException.at(file, row, NodeSplit.bad(splits.toString(sr)));
            }
          }
          sink.node(id, label, split, features, row);
        }
        base += n;
      }
    }
  }
}
