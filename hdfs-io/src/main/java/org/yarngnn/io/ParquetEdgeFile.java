package org.yarngnn.io;

import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.DOUBLE;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FLOAT;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;


/** Edges from a Parquet file: {@code src} and {@code dst} INT64 (INT32 widens), optional {@code weight}. */
final class ParquetEdgeFile {
  private static final String ID_TYPE = "INT64";
  private static final String WEIGHT_TYPE = "FLOAT or DOUBLE";

  private ParquetEdgeFile() {
  }

  static boolean weighted(Configuration conf, Path file, TableReadOptions opts) {
    try (ParquetFile pf = ParquetFile.open(conf, file)) {
      return columns(pf, file, opts)[2] != null;
    }
  }

  private static ParquetColumn[] columns(ParquetFile pf, Path file, TableReadOptions opts) {
    return new ParquetColumn[] {
        ParquetColumn.scalar(pf.schema(), file, opts.srcColumn(), true, ID_TYPE, INT64, INT32),
        ParquetColumn.scalar(pf.schema(), file, opts.dstColumn(), true, ID_TYPE, INT64, INT32),
        ParquetColumn.scalar(pf.schema(), file, opts.weightColumn(), false, WEIGHT_TYPE, FLOAT, DOUBLE)};
  }

  static long rowCount(Configuration conf, Path file) {
    try (ParquetFile pf = ParquetFile.open(conf, file)) {
      return pf.rowCount();
    }
  }

  static void read(Configuration conf, Path file, TableReadOptions opts, boolean weighted, EdgeSink sink) {
    try (ParquetFile pf = ParquetFile.open(conf, file)) {
      ParquetColumn[] cols = columns(pf, file, opts);
      ParquetColumn srcCol = cols[0];
      ParquetColumn dstCol = cols[1];
      ParquetColumn wCol = cols[2];
      if ((wCol != null) != weighted) {
        throw InputException.in(file, weighted ? "missing column '" + opts.weightColumn()
            + "' (the table's first file has weights)" : "has a weight column but the table's first file has none");
      }
      pf.project(cols);
      long base = 0;
      while (pf.nextRowGroup()) {
        long rows = pf.rowGroupRows();
        LeafCursor s = pf.column(srcCol);
        LeafCursor d = pf.column(dstCol);
        LeafCursor w = pf.column(wCol);
        int srcDef = srcCol.maxDefinition;
        int dstDef = dstCol.maxDefinition;
        int wDef = wCol == null ? 0 : wCol.maxDefinition;
        for (long r = 1; r <= rows; r++) {
          if (srcDef > 0 && s.definitionLevel() < srcDef) {
            throw InputException.at(file, base + r, "null src");
          }
          long src = s.getLong();
          s.consume();
          if (dstDef > 0 && d.definitionLevel() < dstDef) {
            throw InputException.at(file, base + r, "null dst");
          }
          long dst = d.getLong();
          d.consume();
          float weight = 1f;
          if (w != null) {
            if (wDef > 0 && w.definitionLevel() < wDef) {
              throw InputException.at(file, base + r, "null weight");
            }
            weight = w.getFloat();
            w.consume();
            if (!Float.isFinite(weight)) {
              throw InputException.at(file, base + r, "weight is NaN or infinite");
            }
          }
          sink.edge(src, dst, weight, base + r);
        }
        base += rows;
      }
    }
  }
}
