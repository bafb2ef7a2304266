package org.yarngnn.io.table;

import java.io.Closeable;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.orc.OrcTableWriter;
import org.yarngnn.io.parquet.ParquetTableWriter;
import org.yarngnn.io.text.TextTableWriter;

/**
 * Writes rows of a fixed column list to one file. Set each column of a row, in column order, then call
 * {@link #endRow()}. Values are consumed before endRow returns, so callers may reuse their buffers.
 */
public interface TableWriter extends Closeable {
  void setLong(int column, long value);

  void setInt(int column, int value);

  void setFloat(int column, float value);

  /** A string column's value as UTF-8 bytes (not copied before endRow). */
  void setString(int column, byte[] utf8);

  void setFloats(int column, float[] values, int offset, int length);

  void endRow();

  /** Closes the file; IO failures surface as UncheckedIOException. */
  @Override
  void close();

  /** A writer for {@code file} in {@code format}; text is gzip-compressed when the name ends in .gz. */
  static TableWriter create(Configuration conf, Path file, TableFormat format, String tableName,
      List<ColumnSpec> columns) {
    switch (format) {
      case PARQUET: return new ParquetTableWriter(conf, file, tableName, columns);
      case ORC: return new OrcTableWriter(conf, file, columns);
      default: return new TextTableWriter(conf, file, format, columns);
    }
  }
}
