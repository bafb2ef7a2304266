package org.yarngnn.io.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.crypto.EncryptionPropertiesFactory;
import org.apache.parquet.crypto.FileEncryptionProperties;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.api.WriteSupport.WriteContext;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;

/**
 * A Parquet file filled leaf column by leaf column through parquet-mr's own column writers (encoders, pages,
 * statistics, compression, footer), skipping record assembly, which costs several calls per value. The caller
 * writes each leaf's values with their repetition and definition levels, then calls {@link #endRow()}. Row
 * groups are sized and flushed the way parquet-mr's record writer does it. Leaves named as float lists skip the
 * column writer too: their pages are built a row at a time ({@link FloatListPages}) and given to the same page
 * store, so compression, indexes and footer are still parquet-mr's.
 */
final class ParquetColumnFile implements Closeable {
  private final ParquetFileWriter file;
  private final CodecFactory codecs;
  private final BytesInputCompressor compressor;
  private final MessageType schema;
  private final List<ColumnDescriptor> leaves;
  private final ParquetProperties props;
  private final long rowGroupBytes;
  private final ColumnWriter[] writers;
  /** Per leaf: true if it is a float list written by pages ({@link #list}), else by a column writer. */
  private final boolean[] direct;
  private final MessageType columnSchema;
  private final FloatListPages[] lists;
  private ColumnChunkPageWriteStore pages;
  private ColumnWriteStore store;
  private long rows;
  private long nextSizeCheck;
  private long nextRowGroupBytes;
  private int rowGroupOrdinal;
  private boolean closed;

  /**
   * Creates (overwrites) {@code path}. Encryption follows {@code parquet.crypto.factory.class} in {@code conf}, as
   * ParquetWriter does; {@code maxPaddingBytes} pads row groups to HDFS blocks like ParquetWriter's option.
   */
  ParquetColumnFile(Configuration conf, Path path, MessageType schema, ParquetProperties props,
      CompressionCodecName codec, long rowGroupBytes, int maxPaddingBytes) throws IOException {
    this(conf, path, schema, props, codec, rowGroupBytes, maxPaddingBytes, new boolean[schema.getColumns().size()]);
  }

  /** As above; leaf i with {@code floatLists[i]} is a {@code LIST<FLOAT>} leaf written through {@link #list}. */
  ParquetColumnFile(Configuration conf, Path path, MessageType schema, ParquetProperties props,
      CompressionCodecName codec, long rowGroupBytes, int maxPaddingBytes, boolean[] floatLists) throws IOException {
    this.schema = schema;
    this.leaves = schema.getColumns();
    this.direct = floatLists.clone();
    this.lists = new FloatListPages[leaves.size()];
    this.columnSchema = withoutLeaves(schema, direct);
    this.props = props;
    this.rowGroupBytes = rowGroupBytes;
    this.nextRowGroupBytes = rowGroupBytes;
    EncryptionPropertiesFactory crypto = EncryptionPropertiesFactory.loadFactory(conf);
    FileEncryptionProperties encryption = crypto == null ? null
        : crypto.getFileEncryptionProperties(conf, path, new WriteContext(schema, new HashMap<>()));
    file = new ParquetFileWriter(BufferedOutputFile.fromPath(path, conf), schema, ParquetFileWriter.Mode.OVERWRITE,
        rowGroupBytes, maxPaddingBytes, encryption, props);
    file.start();
    codecs = new CodecFactory(conf, props.getPageSizeThreshold());
    compressor = codecs.getCompressor(codec);
    writers = new ColumnWriter[leaves.size()];
    nextSizeCheck = props.getMinRowCountForPageSizeCheck();
    openRowGroup();
  }

  /**
   * The schema of the leaves the column writers write: the float-list leaves' fields left out (top-level fields
   * only: a float list is a top-level {@code LIST} group here). Their page writers stay in the page store, which
   * writes every leaf of the full schema.
   */
  private static MessageType withoutLeaves(MessageType schema, boolean[] direct) {
    List<org.apache.parquet.schema.Type> keep = new java.util.ArrayList<>();
    int leaf = 0;
    for (org.apache.parquet.schema.Type field : schema.getFields()) {
      int n = field.isPrimitive() ? 1 : new MessageType("f", field).getColumns().size();
      boolean skip = false;
      for (int i = leaf; i < leaf + n; i++) {
        skip |= direct[i];
      }
      if (skip && n != 1) {
        throw new IllegalArgumentException("field " + field.getName() + " has " + n + " leaves, not one float list");
      }
      if (!skip) {
        keep.add(field);
      }
      leaf += n;
    }
    return new MessageType(schema.getName(), keep);
  }

  /** The writer of leaf column {@code leaf} (schema order) for the open row group; valid until endRow. */
  ColumnWriter column(int leaf) {
    return writers[leaf];
  }

  /** The pages of float-list leaf {@code leaf} for the open row group; valid until endRow. */
  FloatListPages list(int leaf) {
    return lists[leaf];
  }

  /** Ends the current row: every leaf has received its values for it. */
  void endRow() throws IOException {
    store.endRecord();
    rows++;
    if (rows >= props.getRowGroupRowCountLimit()) {
      nextRowGroup();
    } else if (rows >= nextSizeCheck) {
      // Same policy as parquet-mr: measuring the buffers is not free, so look again about halfway to the limit.
      long buffered = store.getBufferedSize();
      for (FloatListPages l : lists) {
        buffered += l == null ? 0 : l.bufferedBytes();
      }
      long rowBytes = buffered / rows;
      if (buffered > nextRowGroupBytes - 2 * rowBytes) {
        nextRowGroup();
      } else {
        long halfway = (rows + (long) (nextRowGroupBytes / (float) rowBytes)) / 2;
        nextSizeCheck = Math.min(Math.max(props.getMinRowCountForPageSizeCheck(), halfway),
            rows + props.getMaxRowCountForPageSizeCheck());
      }
    }
  }

  private void nextRowGroup() throws IOException {
    long written = rows;
    flushRowGroup();
    openRowGroup();
    nextSizeCheck = Math.min(Math.max(props.getMinRowCountForPageSizeCheck(), written / 2),
        props.getMaxRowCountForPageSizeCheck());
  }

  private void openRowGroup() {
    pages = pageStore(compressor, schema, props, file, rowGroupOrdinal);
    store = props.newColumnWriteStore(columnSchema, pages, pages);
    for (int i = 0; i < writers.length; i++) {
      if (direct[i]) {
        lists[i] = new FloatListPages(leaves.get(i), pages.getPageWriter(leaves.get(i)),
            props.getPageSizeThreshold());
      } else {
        writers[i] = store.getColumnWriter(leaves.get(i));
      }
    }
  }

  private void flushRowGroup() throws IOException {
    try {
      if (rows > 0) {
        rowGroupOrdinal++;
        file.startBlock(rows);
        store.flush();
        for (FloatListPages l : lists) {
          if (l != null) {
            l.flush();
          }
        }
        pages.flushToFileWriter(file);
        rows = 0;
        file.endBlock();
        nextRowGroupBytes = Math.min(file.getNextRowGroupSize(), rowGroupBytes);
      }
    } finally {
      store.close();
      pages.close();
    }
  }

  /** Flushes the last row group and writes the footer. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    end(file, codecs, this::flushRowGroup);
  }

  /** parquet-mr's page store for one row group of {@code schema}'s columns in {@code file}. */
  static ColumnChunkPageWriteStore pageStore(BytesInputCompressor compressor, MessageType schema,
      ParquetProperties props, ParquetFileWriter file, int rowGroupOrdinal) {
    return new ColumnChunkPageWriteStore(compressor, schema, props.getAllocator(),
        props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled(), file.getEncryptor(),
        rowGroupOrdinal);
  }

  /** What a file still writes before its footer. */
  interface LastWrites {
    void run() throws IOException;
  }

  /**
   * Runs {@code last}, writes {@code file}'s footer and releases {@code codecs}; when either fails the file's
   * stream is still closed (the output commit then discards the partial file).
   */
  static void end(ParquetFileWriter file, CodecFactory codecs, LastWrites last) throws IOException {
    boolean ended = false;
    try {
      last.run();
      file.end(new HashMap<>());
      ended = true;
    } finally {
      try {
        if (!ended) {
          file.close();
        }
      } finally {
        codecs.release();
      }
    }
  }
}
