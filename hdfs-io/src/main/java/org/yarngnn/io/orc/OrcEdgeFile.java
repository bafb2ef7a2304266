package org.yarngnn.io.orc;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableReadOptions;

/** Edges from an ORC file: {@code src}, {@code dst} bigint (narrower integers widen), optional {@code weight}. */
public final class OrcEdgeFile {
  private OrcEdgeFile() {
  }

  private static int[] columns(OrcFileReader orc, TableReadOptions opts) {
    return new int[] {
        orc.column(opts.srcColumn(), true, "bigint", OrcFileReader.INTEGERS, false),
        orc.column(opts.dstColumn(), true, "bigint", OrcFileReader.INTEGERS, false),
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
        LongColumnVector s = (LongColumnVector) orc.vector(cols[0]);
        LongColumnVector d = (LongColumnVector) orc.vector(cols[1]);
        DoubleColumnVector w = (DoubleColumnVector) orc.vector(cols[2]);
        for (int r = 0; r < n; r++) {
          long row = base + r + 1;
          if (OrcFileReader.isNull(s, r) || OrcFileReader.isNull(d, r)) {
            throw InputException.at(file, row, OrcFileReader.isNull(s, r) ? "null src" : "null dst");
          }
          long src = s.vector[s.isRepeating ? 0 : r];
          long dst = d.vector[d.isRepeating ? 0 : r];
          float weight = 1f;
          if (w != null) {
            if (OrcFileReader.isNull(w, r)) {
              throw InputException.at(file, row, "null weight");
            }
            weight = (float) w.vector[w.isRepeating ? 0 : r];
            if (!Float.isFinite(weight)) {
              throw InputException.at(file, row, "weight is NaN or infinite");
            }
          }
          sink.edge(src, dst, weight, row);
        }
        base += n;
      }
    }
  }
}
