package org.yarngnn.io.table;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * Writes one file of a nodes table: {@code id} INT64, with labels {@code label} INT32 and {@code split} STRING,
 * and {@code features} LIST&lt;FLOAT&gt; of a fixed width; in Parquet, ORC or text ({@code id<TAB>features} or
 * {@code id<TAB>label<TAB>split<TAB>features}, gzip when the name ends in .gz).
 */
public final class NodeTableWriter implements Closeable {
  private final TableWriter out;
  private final int width;
  private final boolean withLabels;
  private long rows;

  private NodeTableWriter(TableWriter out, int width, boolean withLabels) {
    this.out = out;
    this.width = width;
    this.withLabels = withLabels;
  }

  /** {@code withLabels}: write the label and split columns. */
  public static NodeTableWriter create(Configuration conf, Path file, TableFormat format, int width,
      boolean withLabels) {
    if (width < 0) {
      throw new IllegalArgumentException("negative feature width " + width);
    }
    List<ColumnSpec> cols = new ArrayList<>(List.of(ColumnSpec.int64("id")));
    if (withLabels) {
      cols.add(ColumnSpec.int32("label"));
      cols.add(ColumnSpec.string("split"));
    }
    cols.add(ColumnSpec.floatList("features"));
    return new NodeTableWriter(TableWriter.create(conf, file, format, "nodes", cols), width, withLabels);
  }

  public int width() {
    return width;
  }

  /** Writes a node with features {@code features[offset, offset + width)}; label and split ignored without labels. */
  public void write(long id, float[] features, int offset, int label, byte split) {
    out.setLong(0, id);
    int c = 1;
    if (withLabels) {
      out.setInt(c++, label);
      out.setString(c++, NodeSplit.utf8(split));
    }
    out.setFloats(c, features, offset, width);
    out.endRow();
    rows++;
  }

  public void write(long id, float[] features, int offset) {
    write(id, features, offset, -1, NodeSplit.NONE);
  }

  public long rowsWritten() {
    return rows;
  }

  @Override
  public void close() {
    out.close();
  }
}
