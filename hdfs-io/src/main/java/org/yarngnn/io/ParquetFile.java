package org.yarngnn.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnReadStore;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.DummyRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.schema.MessageType;

/**
 * One Parquet file read column by column, row group by row group, through Parquet's low-level column readers
 * (no record assembly, no per-row objects).
 */
final class ParquetFile implements Closeable {
  private final Path path;
  private final ParquetFileReader reader;
  private final MessageType schema;
  private final String createdBy;
  private MessageType projection;
  private ColumnReadStore store;
  private PageReadStore pages;
  private long rowGroupRows;

  private ParquetFile(Path path, ParquetFileReader reader) {
    this.path = path;
    this.reader = reader;
    this.schema = reader.getFooter().getFileMetaData().getSchema();
    this.createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
  }

  static ParquetFile open(Configuration conf, Path path) {
    try {
      return new ParquetFile(path, ParquetFileReader.open(HadoopInputFile.fromPath(path, conf)));
    } catch (IOException | RuntimeException e) {
      throw InputException.in(path, "not a readable Parquet file (" + e.getMessage() + ")");
    }
  }

  MessageType schema() {
    return schema;
  }

  long rowCount() {
    return reader.getRecordCount();
  }

  /** Reads only these columns from now on. */
  void project(ParquetColumn... columns) {
    projection = ParquetColumn.projection(schema, columns);
    reader.setRequestedSchema(projection);
  }

  /** Loads the next row group; false after the last. Its row count is {@link #rowGroupRows()}. */
  boolean nextRowGroup() {
    try {
      pages = reader.readNextRowGroup();
      if (pages == null) {
        return false;
      }
      rowGroupRows = pages.getRowCount();
      store = new ColumnReadStoreImpl(pages, new DummyRecordConverter(projection).getRootConverter(), projection,
          createdBy);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + path + ": " + e.getMessage(), e);
    } catch (ParquetDecodingException e) {
      throw InputException.in(path, "corrupt Parquet data (" + e.getMessage() + ")");
    }
  }

  long rowGroupRows() {
    return rowGroupRows;
  }

  /**
   * A cursor over a column in the current row group (page-decoding for numeric columns), or null for an absent
   * optional column.
   */
  LeafCursor column(ParquetColumn c) {
    if (c == null) {
      return null;
    }
    try {
      if (PageCursor.supports(c.descriptor)) {
        return new PageCursor(pages.getPageReader(c.descriptor), c.descriptor);
      }
      return new ColumnReaderCursor(store.getColumnReader(c.descriptor));
    } catch (UnsupportedOperationException | ParquetDecodingException e) {
      throw InputException.in(path, "unsupported Parquet data in column '" + c.name + "' (" + e.getMessage() + ")");
    }
  }

  @Override
  public void close() {
    try {
      reader.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing " + path + ": " + e.getMessage(), e);
    }
  }
}
