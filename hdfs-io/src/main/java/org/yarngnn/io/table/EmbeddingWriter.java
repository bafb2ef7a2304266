package org.yarngnn.io.table;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.parquet.ParquetTableWriter;

/**
 * Writes one part file of the embeddings output: {@code id} INT64, {@code embedding} LIST&lt;FLOAT&gt; and,
 * when the model predicts, {@code prediction} INT32. Parquet or ORC.
 */
public final class EmbeddingWriter implements Closeable {
  private static final String TABLE = "embeddings";
  private final TableWriter out;
  private final int width;
  private final boolean withPrediction;
  private long rows;

  private EmbeddingWriter(TableWriter out, int width, boolean withPrediction) {
    this.out = out;
    this.width = width;
    this.withPrediction = withPrediction;
  }

  public static EmbeddingWriter create(Configuration conf, Path file, TableFormat format, int width,
      boolean withPrediction) {
    if (format != TableFormat.PARQUET && format != TableFormat.ORC) {
      throw new IllegalArgumentException("embedding output is parquet or orc, not " + format.extension());
    }
    List<ColumnSpec> cols = columns(width, withPrediction);
    return new EmbeddingWriter(TableWriter.create(conf, file, format, TABLE, cols), width, withPrediction);
  }

  /** A Parquet part file with row groups of about {@code rowGroupBytes} (tests write several row groups). */
  public static EmbeddingWriter parquet(Configuration conf, Path file, int width, boolean withPrediction,
      long rowGroupBytes) {
    List<ColumnSpec> cols = columns(width, withPrediction);
    return new EmbeddingWriter(new ParquetTableWriter(conf, file, TABLE, cols, rowGroupBytes), width, withPrediction);
  }

  private static List<ColumnSpec> columns(int width, boolean withPrediction) {
    if (width < 0) {
      throw new IllegalArgumentException("negative embedding width " + width);
    }
    List<ColumnSpec> cols = new ArrayList<>(List.of(ColumnSpec.int64("id"), ColumnSpec.floatList("embedding")));
    if (withPrediction) {
      cols.add(ColumnSpec.int32("prediction"));
    }
    return cols;
  }

  /** Writes node {@code id} with embedding {@code row[offset, offset + width)}; prediction ignored when off. */
  public void write(long id, float[] row, int offset, int prediction) {
    out.setLong(0, id);
    out.setFloats(1, row, offset, width);
    if (withPrediction) {
      out.setInt(2, prediction);
    }
    out.endRow();
    rows++;
  }

  public long rowsWritten() {
    return rows;
  }

  @Override
  public void close() {
    out.close();
  }
}
