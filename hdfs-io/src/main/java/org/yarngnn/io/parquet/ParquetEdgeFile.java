package org.yarngnn.io.parquet;

import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.DOUBLE;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FLOAT;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ParquetDecodingException;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableReadOptions;


/**
 * Edges from a Parquet file: {@code src} and {@code dst} integers (see {@link ParquetColumn#integer}), optional
 * {@code weight} FLOAT or DOUBLE (a DOUBLE outside float range is refused).
 */
public final class ParquetEdgeFile {
  private static final String WEIGHT_TYPE = "FLOAT or DOUBLE";
  /** Rows decoded per sink call: three arrays of this many stay in L1/L2. */
  private static final int BATCH = 4096;

  private ParquetEdgeFile() {
  }

  public static boolean weighted(Configuration conf, Path file, ParquetMetadata footer, TableReadOptions opts) {
    try (ParquetFile pf = ParquetFile.open(conf, file, footer)) {
      return columns(pf, file, opts)[2] != null;
    }
  }

  private static ParquetColumn[] columns(ParquetFile pf, Path file, TableReadOptions opts) {
    return new ParquetColumn[] {
        ParquetColumn.integer(pf.schema(), file, opts.srcColumn(), true),
        ParquetColumn.integer(pf.schema(), file, opts.dstColumn(), true),
        ParquetColumn.scalar(pf.schema(), file, opts.weightColumn(), false, WEIGHT_TYPE, FLOAT, DOUBLE)};
  }

  /** The message for a UINT64 value above 2^63-1 (read as the negative long {@code bits}). */
  static String tooLarge(String column, long bits) {
    return column + " " + Long.toUnsignedString(bits) + " does not fit int64 (a UINT64 above 2^63-1)";
  }

  private static String missing(PageCursor c, String column) {
    return c.hasNext() ? "null " + column : "column '" + column + "' has fewer values than the row group has rows";
  }

  /** Reads row groups {@code [firstGroup, firstGroup + groups)} (clipped to the file); rows numbered in the file. */
  public static void read(Configuration conf, Path file, ParquetMetadata footer, TableReadOptions opts,
      boolean weighted, int firstGroup, int groups, EdgeSink sink) {
    try (ParquetFile pf = ParquetFile.open(conf, file, footer)) {
      ParquetColumn[] cols = columns(pf, file, opts);
      ParquetColumn srcCol = cols[0];
      ParquetColumn dstCol = cols[1];
      ParquetColumn wCol = cols[2];
      if ((wCol != null) != weighted) {
        throw InputException.in(file, weighted ? "missing column '" + opts.weightColumn()
            + "' (the table's first file has weights)" : "has a weight column but the table's first file has none");
      }
      pf.project(cols);
      long[] src = new long[BATCH];
      long[] dst = new long[BATCH];
      float[] weights = wCol == null ? null : new float[BATCH];
      long base = 0;
      int first = Math.min(firstGroup, pf.rowGroupCount());
      for (int g = 0; g < first; g++) {
        base += pf.rowGroupRows(g);
      }
      pf.skipRowGroups(first);
      for (int g = 0; g < groups && pf.nextRowGroup(); g++) {
        long rows = pf.rowGroupRows();
        PageCursor s = pf.numericColumn(srcCol);
        PageCursor d = pf.numericColumn(dstCol);
        PageCursor w = wCol == null ? null : pf.numericColumn(wCol);
        for (long done = 0; done < rows; done += BATCH) {
          int k = (int) Math.min(BATCH, rows - done);
          // Rows before the first bad one still reach the sink, as when reading row by row.
          int good = k;
          String problem = null;
          int n = s.readLongs(src, 0, k);
          if (n < good) {
            good = n;
            problem = missing(s, "src");
          }
          n = d.readLongs(dst, 0, k);
          if (n < good) {
            good = n;
            problem = missing(d, "dst");
          }
          if (srcCol.unsigned64 || dstCol.unsigned64) {
            for (int i = 0; i < good; i++) {
              if (srcCol.unsigned64 && src[i] < 0 || dstCol.unsigned64 && dst[i] < 0) {
                boolean isSrc = srcCol.unsigned64 && src[i] < 0;
                problem = tooLarge(isSrc ? "src" : "dst", isSrc ? src[i] : dst[i]);
                good = i;
              }
            }
          }
          if (w != null) {
            n = w.readFloats(weights, 0, k);
            if (n < good) {
              good = n;
              problem = missing(w, "weight");
            }
            for (int i = 0; i < good; i++) {
              if (!Float.isFinite(weights[i])) {
                problem = PageCursor.isOutOfFloatRange(weights[i]) ? "weight is outside float range (a DOUBLE "
                    + "beyond +-" + Float.MAX_VALUE + ")" : "weight is NaN or infinite";
                good = i;
              }
            }
          }
          if (good > 0) {
            sink.edges(src, dst, weights, good, base + done + 1);
          }
          if (good < k) {
            throw InputException.at(file, base + done + good + 1, problem);
          }
        }
        base += rows;
      }
    } catch (ParquetDecodingException e) {
      throw InputException.in(file, "corrupt Parquet data (" + e.getMessage() + ")");
    }
  }
}
