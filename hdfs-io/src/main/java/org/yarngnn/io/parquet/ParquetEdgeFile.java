package org.yarngnn.io.parquet;

import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.DOUBLE;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FLOAT;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ParquetDecodingException;
import org.yarngnn.io.table.EdgeColumns;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableReadOptions;


/**
 * Edges from a Parquet file: {@code src} and {@code dst} integers (see {@link ParquetColumn#integer}), optional
 * {@code weight} FLOAT or DOUBLE (a DOUBLE outside float range is refused), optional {@code split} STRING (train,
 * val, test, none, in any case; null is none), read only for a sink that {@link EdgeSink#wantsSplit}.
 */
public final class ParquetEdgeFile {
  private static final String WEIGHT_TYPE = "FLOAT or DOUBLE";
  /** Rows decoded per sink call: three arrays of this many stay in L1/L2. */
  private static final int BATCH = 4096;

  private ParquetEdgeFile() {
  }

  public static EdgeColumns columns(Configuration conf, Path file, ParquetMetadata footer, TableReadOptions opts) {
    try (ParquetFile pf = ParquetFile.open(conf, file, footer)) {
      ParquetColumn[] cols = columns(pf, file, opts);
      return new EdgeColumns(cols[2] != null, cols[3] != null);
    }
  }

  private static ParquetColumn[] columns(ParquetFile pf, Path file, TableReadOptions opts) {
    return new ParquetColumn[] {
        ParquetColumn.integer(pf.schema(), file, opts.srcColumn(), true),
        ParquetColumn.integer(pf.schema(), file, opts.dstColumn(), true),
        ParquetColumn.scalar(pf.schema(), file, opts.weightColumn(), false, WEIGHT_TYPE, FLOAT, DOUBLE),
        ParquetColumn.scalar(pf.schema(), file, opts.splitColumn(), false, "STRING", BINARY)};
  }

  /** The message for a UINT64 value above 2^63-1 (read as the negative long {@code bits}). */
  static String tooLarge(String column, long bits) {
    return column + " " + Long.toUnsignedString(bits) + " does not fit int64 (a UINT64 above 2^63-1)";
  }

  private static String missing(LeafCursor c, String column) {
    return c.hasNext() ? "null " + column : "column '" + column + "' has fewer values than the row group has rows";
  }

  /** Reads row groups {@code [firstGroup, firstGroup + groups)} (clipped to the file); rows numbered in the file. */
  public static void read(Configuration conf, Path file, ParquetMetadata footer, TableReadOptions opts,
      EdgeColumns table, int firstGroup, int groups, EdgeSink sink) {
    try (ParquetFile pf = ParquetFile.open(conf, file, footer)) {
      ParquetColumn[] cols = columns(pf, file, opts);
      ParquetColumn srcCol = cols[0];
      ParquetColumn dstCol = cols[1];
      ParquetColumn wCol = cols[2];
      String differs = table.differenceIn(new EdgeColumns(wCol != null, cols[3] != null), opts.weightColumn(),
          opts.splitColumn());
      if (differs != null) {
        throw InputException.in(file, differs);
      }
      // A sink that ignores the split column does not pay for decoding it.
      ParquetColumn splitCol = sink.wantsSplit() ? cols[3] : null;
      pf.project(splitCol == null ? new ParquetColumn[] {srcCol, dstCol, wCol} : cols);
      long[] src = new long[BATCH];
      long[] dst = new long[BATCH];
      float[] weights = wCol == null ? null : new float[BATCH];
      byte[] splits = splitCol == null ? null : new byte[BATCH];
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
        LeafCursor sp = pf.column(splitCol);
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
          if (sp != null) {
            for (int i = 0; i < good; i++) {
              if (!sp.hasNext()) {
                problem = missing(sp, "split");
                good = i;
                break;
              }
              splits[i] = ParquetNodeFile.split(sp, splitCol);
              if (splits[i] < 0) {
                problem = ParquetNodeFile.badSplit(sp.getBinary());
                good = i;
                break;
              }
              sp.consume();
            }
          }
          if (good > 0 && splits != null) {
            sink.edges(src, dst, weights, splits, good, base + done + 1);
          } else if (good > 0) {
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
