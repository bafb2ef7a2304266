package org.yarngnn.io.table;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Writes one file of an edges table: {@code src} INT64, {@code dst} INT64 and, when weighted, {@code weight}
 * FLOAT; in Parquet, ORC or text ({@code src<sep>dst[<sep>weight]}, gzip when the name ends in .gz).
 */
public final class EdgeTableWriter implements Closeable {
  private final TableWriter out;
  private final boolean weighted;
  private long rows;

  private EdgeTableWriter(TableWriter out, boolean weighted) {
    this.out = out;
    this.weighted = weighted;
  }

  public static EdgeTableWriter create(Configuration conf, Path file, TableFormat format, boolean weighted) {
    List<ColumnSpec> cols = new ArrayList<>(List.of(ColumnSpec.int64("src"), ColumnSpec.int64("dst")));
    if (weighted) {
      cols.add(ColumnSpec.float32("weight"));
    }
    return new EdgeTableWriter(TableWriter.create(conf, file, format, "edges", cols), weighted);
  }

  /** Writes an edge; {@code weight} is ignored when the table is unweighted. */
  public void write(long src, long dst, float weight) {
    out.setLong(0, src);
    out.setLong(1, dst);
    if (weighted) {
      out.setFloat(2, weight);
    }
    out.endRow();
    rows++;
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
