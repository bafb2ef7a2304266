package org.yarngnn.io.orc;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.yarngnn.io.table.EdgeColumns;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.TableReadOptions;

/**
 * Edges from an ORC file: {@code src}, {@code dst} integers (narrower ones widen), optional {@code weight} and
 * {@code split} (string; read only for a sink that {@link EdgeSink#wantsSplit}).
 */
public final class OrcEdgeFile {
  private OrcEdgeFile() {
  }

  private static int[] columns(OrcFileReader orc, TableReadOptions opts) {
    return new int[] {
        orc.integerColumn(opts.srcColumn(), true),
        orc.integerColumn(opts.dstColumn(), true),
        orc.column(opts.weightColumn(), false, "float or double", OrcFileReader.FLOATS, false),
        orc.column(opts.splitColumn(), false, "string", OrcFileReader.STRINGS, false)};
  }

  public static EdgeColumns columns(Configuration conf, Path file, TableReadOptions opts) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      int[] cols = columns(orc, opts);
      return new EdgeColumns(cols[2] >= 0, cols[3] >= 0);
    }
  }

  public static long rowCount(Configuration conf, Path file) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      return orc.rowCount();
    }
  }

  public static void read(Configuration conf, Path file, TableReadOptions opts, EdgeColumns table,
      EdgeSink sink) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      int[] cols = columns(orc, opts);
      String differs = table.differenceIn(new EdgeColumns(cols[2] >= 0, cols[3] >= 0), opts.weightColumn(),
          opts.splitColumn());
      if (differs != null) {
        throw InputException.in(file, differs);
      }
      if (!sink.wantsSplit()) {
        cols[3] = -1;
      }
      orc.project(cols);
      long base = 0;
      while (orc.nextBatch()) {
        int n = orc.batch().size;
        ColumnVector s = orc.vector(cols[0]);
        ColumnVector d = orc.vector(cols[1]);
        DoubleColumnVector w = (DoubleColumnVector) orc.vector(cols[2]);
        BytesColumnVector sp = (BytesColumnVector) orc.vector(cols[3]);
        for (int r = 0; r < n; r++) {
          long row = base + r + 1;
          if (OrcFileReader.isNull(s, r) || OrcFileReader.isNull(d, r)) {
            throw InputException.at(file, row, OrcFileReader.isNull(s, r) ? "null src" : "null dst");
          }
          long src = OrcFileReader.longValue(s, r);
          long dst = OrcFileReader.longValue(d, r);
          float weight = 1f;
          if (w != null) {
            if (OrcFileReader.isNull(w, r)) {
              throw InputException.at(file, row, "null weight");
            }
            double wd = w.vector[w.isRepeating ? 0 : r];
            weight = (float) wd;
            if (!Float.isFinite(weight)) {
              String range = OrcFileReader.outOfFloatRange("weight", wd);
              throw InputException.at(file, row, range != null ? range : "weight is NaN or infinite");
            }
          }
          if (sp == null) {
            sink.edge(src, dst, weight, row);
            continue;
          }
          byte split = NodeSplit.NONE;
          if (!OrcFileReader.isNull(sp, r)) {
            int sr = sp.isRepeating ? 0 : r;
            split = NodeSplit.parse(sp.vector[sr], sp.start[sr], sp.start[sr] + sp.length[sr]);
            if (split < 0) {
              throw InputException.at(file, row, NodeSplit.bad(sp.toString(sr)));
            }
          }
          sink.edge(src, dst, weight, split, row);
        }
        base += n;
      }
    }
  }
}
