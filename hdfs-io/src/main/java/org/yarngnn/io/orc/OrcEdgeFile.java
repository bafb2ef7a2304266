package org.yarngnn.io.orc;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableReadOptions;

/** Edges from an ORC file: {@code src}, {@code dst} integers (narrower ones widen), optional {@code weight}. */
public final class OrcEdgeFile {
  private OrcEdgeFile() {
  }

  private static int[] columns(OrcFileReader orc, TableReadOptions opts) {
    return new int[] {
        orc.integerColumn(opts.srcColumn(), true),
        orc.integerColumn(opts.dstColumn(), true),
        orc.column(opts.weightColumn(), false, "float or double", OrcFileReader.FLOATS, false)};
  }

  public static boolean weighted(Configuration conf, Path file, TableReadOptions opts) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      return columns(orc, opts)[2] >= 0;
    }
  }

  public static long rowCount(Configuration conf, Path file) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      return orc.rowCount();
    }
  }

  public static void read(Configuration conf, Path file, TableReadOptions opts, boolean weighted, EdgeSink sink) {
    try (OrcFileReader orc = OrcFileReader.open(conf, file)) {
      int[] cols = columns(orc, opts);
      if ((cols[2] >= 0) != weighted) {
        throw InputException.in(file, weighted ? "missing column '" + opts.weightColumn()
            + "' (the table's first file has weights)" : "has a weight column but the table's first file has none");
      }
      orc.project(cols);
      long base = 0;
      while (orc.nextBatch()) {
        int n = orc.batch().size;
        ColumnVector s = orc.vector(cols[0]);
        ColumnVector d = orc.vector(cols[1]);
        DoubleColumnVector w = (DoubleColumnVector) orc.vector(cols[2]);
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
          sink.edge(src, dst, weight, row);
        }
        base += n;
      }
    }
  }
}
