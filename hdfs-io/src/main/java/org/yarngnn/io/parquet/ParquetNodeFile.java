package org.yarngnn.io.parquet;

import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.DOUBLE;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FLOAT;

import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Binary;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeLayout;
import org.yarngnn.io.table.NodeLayouts;
import org.yarngnn.io.table.NodeSink;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.TableReadOptions;

/** Nodes from a Parquet file: {@code id}, {@code features} LIST&lt;FLOAT&gt;, optional {@code label}, {@code split}. */
public final class ParquetNodeFile {
  private ParquetNodeFile() {
  }

  private static ParquetColumn[] columns(ParquetFile pf, Path file, TableReadOptions opts) {
    return new ParquetColumn[] {
        ParquetColumn.integer(pf.schema(), file, opts.idColumn(), true),
        ParquetColumn.list(pf.schema(), file, opts.featuresColumn(), true, "LIST<FLOAT>", FLOAT, DOUBLE),
        ParquetColumn.integer(pf.schema(), file, opts.labelColumn(), false),
        ParquetColumn.scalar(pf.schema(), file, opts.splitColumn(), false, "STRING", BINARY)};
  }

  /** The layout and the first row's feature width; width -1 when the file has no rows. */
  public static NodeLayout peek(Configuration conf, Path file, TableReadOptions opts) {
    try (ParquetFile pf = ParquetFile.open(conf, file)) {
      ParquetColumn[] cols = columns(pf, file, opts);
      pf.project(cols[1]);
      int width = -1;
      while (width < 0 && pf.nextRowGroup()) {
        if (pf.rowGroupRows() > 0) {
          LeafCursor f = pf.column(cols[1]);
          width = 0;
          do {
            if (f.definitionLevel() == cols[1].maxDefinition) {
              width++;
            }
            f.consume();
          } while (f.hasNext() && f.repetitionLevel() != 0);
        }
      }
      return new NodeLayout(cols[2] != null, cols[3] != null, width);
    } catch (ParquetDecodingException e) {
      throw InputException.in(file, "corrupt Parquet data (" + e.getMessage() + ")");
    }
  }

  public static long rowCount(Configuration conf, Path file) {
    try (ParquetFile pf = ParquetFile.open(conf, file)) {
      return pf.rowCount();
    }
  }

  /**
   * The smallest and largest id in the file from its row groups' column statistics, or null when a non-empty row
   * group has none (a writer that keeps no statistics) or the file has no rows. For planning only: reading still
   * checks every id.
   */
  public static long[] idRange(Configuration conf, Path file, TableReadOptions opts) {
    org.apache.parquet.hadoop.metadata.ParquetMetadata footer = ParquetFile.footer(conf, file);
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    for (org.apache.parquet.hadoop.metadata.BlockMetaData b : footer.getBlocks()) {
      if (b.getRowCount() == 0) {
        continue;
      }
      org.apache.parquet.column.statistics.Statistics<?> st = null;
      for (org.apache.parquet.hadoop.metadata.ColumnChunkMetaData c : b.getColumns()) {
        if (c.getPath().toDotString().equals(opts.idColumn())) {
          st = c.getStatistics();
        }
      }
      if (st == null || st.isEmpty() || !st.hasNonNullValue() || !(st.genericGetMin() instanceof Number min)
          || !(st.genericGetMax() instanceof Number max)) {
        return null;
      }
      lo = Math.min(lo, min.longValue());
      hi = Math.max(hi, max.longValue());
    }
    return lo <= hi ? new long[] {lo, hi} : null;
  }

  public static void read(Configuration conf, Path file, TableReadOptions opts, NodeLayout layout, NodeSink sink) {
    try (ParquetFile pf = ParquetFile.open(conf, file)) {
      ParquetColumn[] cols = columns(pf, file, opts);
      NodeLayouts.checkSame(file, layout, cols[2] != null, cols[3] != null);
      pf.project(cols);
      ParquetColumn idCol = cols[0];
      ParquetColumn featCol = cols[1];
      ParquetColumn labelCol = cols[2];
      ParquetColumn splitCol = cols[3];
      boolean allowNonFinite = opts.allowNonFinite();
      // DOUBLE features may be outside float range, refused even when NaN/Inf are allowed.
      boolean doubles = featCol.type == DOUBLE;
      float[] features = new float[layout.featureWidth()];
      long base = 0;
      while (pf.nextRowGroup()) {
        long rows = pf.rowGroupRows();
        LeafCursor id = pf.column(idCol);
        LeafCursor feat = pf.column(featCol);
        LeafCursor lab = pf.column(labelCol);
        LeafCursor spl = pf.column(splitCol);
        // Rows whose features are all present are copied in bulk; anything else is stepped through and reported.
        PageCursor bulk = feat instanceof PageCursor ? (PageCursor) feat : null;
        for (long r = 1; r <= rows; r++) {
          long row = base + r;
          long nodeId = ParquetIdFile.next(id, idCol, file, row);
          if (bulk != null && bulk.readFullRow(features)) {
            if (!allowNonFinite || doubles) {
              checkFinite(features, allowNonFinite, file, row);
            }
          } else {
            readRow(feat, featCol, features, allowNonFinite, file, row);
          }
          int label = -1;
          if (lab != null) {
            if (lab.definitionLevel() == labelCol.maxDefinition) {
              long l = lab.getLong();
              if (l < -1 || l > Integer.MAX_VALUE) {
                throw InputException.at(file, row, "bad label "
                    + (labelCol.unsigned64 ? Long.toUnsignedString(l) : Long.toString(l)) + " (expected -1 for none, or a class index >= 0)");
              }
              label = (int) l;
            }
            lab.consume();
          }
          byte split = NodeSplit.NONE;
          if (spl != null) {
            split = split(spl, splitCol);
            if (split < 0) {
              throw InputException.at(file, row, badSplit(spl.getBinary()));
            }
            spl.consume();
          }
          sink.node(nodeId, label, split, features, row);
        }
        base += rows;
      }
    } catch (ParquetDecodingException e) {
      throw InputException.in(file, "corrupt Parquet data (" + e.getMessage() + ")");
    }
  }

  /** Steps through one row's feature list, naming the first problem (null, non-finite, wrong length). */
  private static void readRow(LeafCursor feat, ParquetColumn featCol, float[] features, boolean allowNonFinite,
      Path file, long row) {
    int featDef = featCol.maxDefinition;
    int n = 0;
    do {
      int def = feat.definitionLevel();
      if (def == featDef) {
        if (n < features.length) {
          float v = feat.getFloat();
          if (PageCursor.isOutOfFloatRange(v)) {
            throw outOfRange(file, row, n);
          }
          if (!allowNonFinite && !Float.isFinite(v)) {
            throw InputException.at(file, row, "feature " + (n + 1) + " is NaN or infinite");
          }
          features[n] = v;
        }
        n++;
      } else if (def == featCol.nullElementLevel) {
        throw InputException.at(file, row, "feature " + (n + 1) + " is null");
      } else if (def == featCol.nullListLevel) {
        throw InputException.at(file, row, "null features");
      }
      feat.consume();
    } while (feat.hasNext() && feat.repetitionLevel() != 0);
    if (n != features.length) {
      throw InputException.at(file, row,
          "expected " + features.length + " features (the width of the first row), found " + n);
    }
  }

  private static void checkFinite(float[] features, boolean allowNonFinite, Path file, long row) {
    for (int i = 0; i < features.length; i++) {
      if (!Float.isFinite(features[i])) {
        if (PageCursor.isOutOfFloatRange(features[i])) {
          throw outOfRange(file, row, i);
        }
        if (!allowNonFinite) {
          throw InputException.at(file, row, "feature " + (i + 1) + " is NaN or infinite");
        }
      }
    }
  }

  private static InputException outOfRange(Path file, long row, int i) {
    return InputException.at(file, row, "feature " + (i + 1) + " is outside float range (a DOUBLE beyond +-"
        + Float.MAX_VALUE + ")");
  }

  /**
   * The split code of the cursor's current value (not consumed): {@link NodeSplit#NONE} for a null, -1 for a value
   * that is not a split word (see {@link #badSplit}). The nodes' and the edges' split columns.
   */
  static byte split(LeafCursor c, ParquetColumn col) {
    if (c.definitionLevel() != col.maxDefinition) {
      return NodeSplit.NONE;
    }
    Binary value = c.getBinary();
    ByteBuffer bb = value.toByteBuffer();
    if (bb.hasArray()) {
      int off = bb.arrayOffset() + bb.position();
      return NodeSplit.parse(bb.array(), off, off + value.length());
    }
    byte[] b = value.getBytes();
    return NodeSplit.parse(b, 0, b.length);
  }

  static String badSplit(Binary value) {
    return NodeSplit.bad(value.toStringUsingUTF8());
  }
}
