package org.yarngnn.io.table;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Writes one file of an edges table: {@code src} INT64, {@code dst} INT64, when weighted {@code weight} FLOAT and,
 * with splits, {@code split} STRING; in Parquet, ORC or text ({@code src<sep>dst[<sep>weight][<sep>split]}, gzip
 * when the name ends in .gz).
 */
public final class EdgeTableWriter implements Closeable {
  private final TableWriter out;
  private final boolean weighted;
  private final boolean splits;
  private long rows;

  private EdgeTableWriter(TableWriter out, boolean weighted, boolean splits) {
    this.out = out;
    this.weighted = weighted;
    this.splits = splits;
  }

  public static EdgeTableWriter create(Configuration conf, Path file, TableFormat format, boolean weighted) {
    return create(conf, file, format, new EdgeColumns(weighted, false));
  }

  /** A writer of the optional columns {@code columns} has. */
  public static EdgeTableWriter create(Configuration conf, Path file, TableFormat format, EdgeColumns columns) {
    List<ColumnSpec> cols = new ArrayList<>(List.of(ColumnSpec.int64("src"), ColumnSpec.int64("dst")));
    if (columns.weighted()) {
      cols.add(ColumnSpec.float32("weight"));
    }
    if (columns.split()) {
      cols.add(ColumnSpec.string("split"));
    }
    return new EdgeTableWriter(TableWriter.create(conf, file, format, "edges", cols), columns.weighted(),
        columns.split());
  }

  /** Writes an edge with its {@link NodeSplit} code; the split is ignored by a writer without the column. */
  public void write(long src, long dst, float weight, byte split) {
    out.setLong(0, src);
    out.setLong(1, dst);
    if (weighted) {
      out.setFloat(2, weight);
    }
    if (splits) {
      out.setString(weighted ? 3 : 2, NodeSplit.utf8(split));
    }
    out.endRow();
    rows++;
  }

  /** Writes an edge; {@code weight} is ignored when the table is unweighted (a split column gets none). */
  public void write(long src, long dst, float weight) {
    write(src, dst, weight, NodeSplit.NONE);
  }

  public void write(long src, long dst) {
    write(src, dst, 1f);
  }

  public long rowsWritten() {
    return rows;
  }

  @Override
  public void close() {
    out.close();
  }
}
