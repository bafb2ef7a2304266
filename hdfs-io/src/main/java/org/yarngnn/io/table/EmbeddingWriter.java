package org.yarngnn.io.table;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.parquet.ParquetEmbeddingFile;
import org.yarngnn.io.parquet.ParquetTableWriter;

/**
 * Writes one part file of the embeddings output: {@code id} INT64, {@code embedding} LIST&lt;FLOAT&gt; and,
 * when the model predicts, {@code prediction} INT32. Parquet or ORC.
 */
public final class EmbeddingWriter implements Closeable {
  private static final String TABLE = "embeddings";
  /** The row writer (ORC, or an encrypted Parquet file), or null. */
  private final TableWriter out;
  /** The Parquet writer of whole row groups, or null. */
  private final ParquetEmbeddingFile columns;
  private final Path file;
  private final int width;
  private final boolean withPrediction;
  /** Rows given one at a time to {@link #columns}, written as a row group when it is full; null without it. */
  private final RowGroupBuffer pending;
  private long rows;

  private EmbeddingWriter(TableWriter out, ParquetEmbeddingFile columns, Path file, int width,
      boolean withPrediction) {
    this.out = out;
    this.columns = columns;
    this.file = file;
    this.width = width;
    this.withPrediction = withPrediction;
    this.pending = columns == null ? null : new RowGroupBuffer(columns.rowsPerGroup(), width);
  }

  public static EmbeddingWriter create(Configuration conf, Path file, TableFormat format, int width,
      boolean withPrediction) {
    if (format != TableFormat.PARQUET && format != TableFormat.ORC) {
      throw new IllegalArgumentException("embedding output is parquet or orc, not " + format.extension());
    }
    if (format == TableFormat.PARQUET) {
      return parquet(conf, file, width, withPrediction, ParquetEmbeddingFile.defaultRowGroupBytes());
    }
    List<ColumnSpec> cols = ParquetEmbeddingFile.columns(width, withPrediction);
    return new EmbeddingWriter(TableWriter.create(conf, file, format, TABLE, cols), null, file, width,
        withPrediction);
  }

  /** A Parquet part file with row groups of about {@code rowGroupBytes} (tests write several row groups). */
  public static EmbeddingWriter parquet(Configuration conf, Path file, int width, boolean withPrediction,
      long rowGroupBytes) {
    List<ColumnSpec> cols = ParquetEmbeddingFile.columns(width, withPrediction);
    ParquetEmbeddingFile columns;
    try {
      columns = ParquetEmbeddingFile.create(conf, file, width, withPrediction, rowGroupBytes);
    } catch (IOException e) {
      throw new UncheckedIOException("creating " + file + ": " + e.getMessage(), e);
    }
    if (columns == null) {
      return new EmbeddingWriter(new ParquetTableWriter(conf, file, TABLE, cols, rowGroupBytes), null, file, width,
          withPrediction);
    }
    return new EmbeddingWriter(null, columns, file, width, withPrediction);
  }

  /** Writes node {@code id} with embedding {@code row[offset, offset + width)}; prediction ignored when off. */
  public void write(long id, float[] row, int offset, int prediction) {
    if (columns != null) {
      if (pending.add(id, row, offset, prediction)) {
        flushPending();
      }
    } else {
      out.setLong(0, id);
      out.setFloats(1, row, offset, width);
      if (withPrediction) {
        out.setInt(2, prediction);
      }
      out.endRow();
    }
    rows++;
  }

  /**
   * Writes rows {@code [from, to)}: node {@code ids[r]} with embedding {@code values[r * width, (r + 1) * width)}
   * and, when the writer has predictions, {@code predictions[r]}. Parquet writes them a row group at a time,
   * straight from these arrays; the same as calling {@link #write} for each row.
   */
  public void writeRows(long[] ids, float[] values, int[] predictions, int from, int to) {
    if (columns == null) {
      for (int r = from; r < to; r++) {
        write(ids[r], values, r * width, predictions == null ? -1 : predictions[r]);
      }
      return;
    }
    flushPending();
    writeColumns(ids, values, predictions, from, to);
    rows += to - from;
  }

  private void flushPending() {
    if (pending.size > 0) {
      writeColumns(pending.ids, pending.values, withPrediction ? pending.predictions : null, 0, pending.size);
      pending.size = 0;
    }
  }

  private void writeColumns(long[] ids, float[] values, int[] predictions, int from, int to) {
    try {
      columns.writeRows(ids, values, predictions, from, to);
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file + ": " + e.getMessage(), e);
    }
  }

  public long rowsWritten() {
    return rows;
  }

  @Override
  public void close() {
    if (columns == null) {
      out.close();
      return;
    }
    try {
      flushPending();
    } finally {
      try {
        columns.close();
      } catch (IOException e) {
        throw new UncheckedIOException("closing " + file + ": " + e.getMessage(), e);
      }
    }
  }

  /** Rows written one at a time, kept until a row group is full (arrays grown as rows come, up to that). */
  private static final class RowGroupBuffer {
    private final int capacity;
    private final int width;
    private long[] ids = new long[16];
    private float[] values;
    private int[] predictions = new int[16];
    private int size;

    RowGroupBuffer(int capacity, int width) {
      this.capacity = capacity;
      this.width = width;
      this.values = new float[16 * width];
    }

    /** Adds a row; true when the buffer is full. */
    boolean add(long id, float[] row, int offset, int prediction) {
      if (size == ids.length) {
        int n = Math.min(capacity, size * 2);
        ids = java.util.Arrays.copyOf(ids, n);
        predictions = java.util.Arrays.copyOf(predictions, n);
        values = java.util.Arrays.copyOf(values, n * width);
      }
      ids[size] = id;
      predictions[size] = prediction;
      System.arraycopy(row, offset, values, size * width, width);
      size++;
      return size >= capacity;
    }
  }
}
