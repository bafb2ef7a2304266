package org.yarngnn.io.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.crypto.EncryptionPropertiesFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport.WriteContext;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.xerial.snappy.Snappy;
import org.yarngnn.io.table.ColumnSpec;

/**
 * The embeddings output as Parquet ({@code id} INT64, {@code embedding} LIST&lt;FLOAT&gt;, optionally
 * {@code prediction} INT32), written a row group at a time from rows already in memory: each column's pages are
 * built, compressed into one reused buffer and handed to the file at once, column after column, so a file costs
 * a few pages of buffers whatever its size.
 *
 * <p>Why not the row writer ({@link ParquetTableWriter}): parquet-mr's page store keeps a row group's compressed
 * pages in fresh arrays (two per page) until the group ends. Writing 1M x 128 embeddings that was about 1 GB of
 * short-lived arrays, nearly all first touches of memory (page faults and the kernel zeroing pages: 44% of the
 * writer threads' CPU samples), more than encoding and compressing together. The file is the same: the same
 * pages ({@link FloatListPages} for the list; parquet-mr's own column writers for the id and prediction columns,
 * whose chunks are small), statistics, column and offset indexes (parquet-mr's file writer builds those and the
 * footer), page checksums; row groups are sized (uncompressed) and padded as parquet-mr sizes them.
 */
public final class ParquetEmbeddingFile implements Closeable {
  private static final String TABLE = "embeddings";
  /** The codec of every chunk, as the row writer's: the list's pages are Snappy-compressed here, heap to heap. */
  private static final CompressionCodecName CODEC = CompressionCodecName.SNAPPY;
  private final Path path;
  private final int width;
  private final boolean withPrediction;
  private final long rowGroupBytes;
  private final ParquetFileWriter file;
  private final CodecFactory codecs;
  private final PageSink sink;
  private final ColumnDescriptor idColumn;
  private final ColumnDescriptor listColumn;
  private final ColumnDescriptor predictionColumn;
  private final int pageBytes;
  private final FloatListPages list;
  private final MessageType schema;
  private final ParquetProperties props;
  private final BytesInputCompressor compressor;
  private int ordinal;
  private long nextRowGroupBytes;
  private boolean closed;

  private ParquetEmbeddingFile(Configuration conf, Path path, int width, boolean withPrediction, long rowGroupBytes,
      MessageType schema) throws IOException {
    this.path = path;
    this.width = width;
    this.withPrediction = withPrediction;
    this.rowGroupBytes = rowGroupBytes;
    this.nextRowGroupBytes = rowGroupBytes;
    this.schema = schema;
    // As the row writer (ParquetTableWriter): no dictionary for the ids, unique and only built to be given up.
    this.props = ParquetProperties.builder().withDictionaryEncoding("id", false).build();
    this.pageBytes = Math.max(4096, props.getPageSizeThreshold());
    List<ColumnDescriptor> leaves = schema.getColumns();
    idColumn = leaves.get(0);
    listColumn = leaves.get(1);
    predictionColumn = withPrediction ? leaves.get(2) : null;
    file = new ParquetFileWriter(BufferedOutputFile.fromPath(path, conf), schema, ParquetFileWriter.Mode.OVERWRITE,
        rowGroupBytes, ParquetWriter.MAX_PADDING_SIZE_DEFAULT, null, props);
    file.start();
    codecs = new CodecFactory(conf, pageBytes);
    compressor = codecs.getCompressor(CODEC);
    sink = new PageSink();
    list = new FloatListPages(listColumn, sink, pageBytes);
  }

  /**
   * Creates (overwrites) {@code path}, or returns null when {@code conf} asks for the file to be encrypted
   * ({@code parquet.crypto.factory.class}): encryption stays with the row writer, which encrypts page by page.
   */
  public static ParquetEmbeddingFile create(Configuration conf, Path path, int width, boolean withPrediction,
      long rowGroupBytes) throws IOException {
    MessageType schema = ParquetTableWriter.schema(TABLE, columns(width, withPrediction));
    EncryptionPropertiesFactory crypto = EncryptionPropertiesFactory.loadFactory(conf);
    if (crypto != null
        && crypto.getFileEncryptionProperties(conf, path, new WriteContext(schema, new HashMap<>())) != null) {
      return null;
    }
    return new ParquetEmbeddingFile(conf, path, width, withPrediction, rowGroupBytes, schema);
  }

  /** The table's columns, in file order. */
  public static List<ColumnSpec> columns(int width, boolean withPrediction) {
    if (width < 0) {
      throw new IllegalArgumentException("negative embedding width " + width);
    }
    return withPrediction
        ? List.of(ColumnSpec.int64("id"), ColumnSpec.floatList("embedding"), ColumnSpec.int32("prediction"))
        : List.of(ColumnSpec.int64("id"), ColumnSpec.floatList("embedding"));
  }

  /** The ParquetWriter default row-group size this file uses unless told otherwise. */
  public static long defaultRowGroupBytes() {
    return ParquetWriter.DEFAULT_BLOCK_SIZE;
  }

  /**
   * Writes rows {@code [from, to)}: row r is node {@code ids[r]} with embedding {@code values[r * width, (r + 1) *
   * width)} and, with predictions, {@code predictions[r]}, in row groups of about the row-group size
   * (uncompressed). A call's rows start a row group of their own: callers with rows one at a time gather them
   * first ({@code EmbeddingWriter} does).
   */
  public void writeRows(long[] ids, float[] values, int[] predictions, int from, int to) throws IOException {
    for (int r = from; r < to; ) {
      int rows = (int) Math.max(1, Math.min(to - r, nextRowGroupBytes / rowBytes()));
      writeRowGroup(ids, values, predictions, r, r + rows);
      r += rows;
    }
  }

  /** Rows in a full row group (uncompressed bytes), at most 2^20: what a caller gathering rows should hold. */
  public int rowsPerGroup() {
    return (int) Math.max(1, Math.min(1 << 20, rowGroupBytes / rowBytes()));
  }

  private long rowBytes() {
    return 8L + 4L * width + (withPrediction ? 4 : 0);
  }

  private void writeRowGroup(long[] ids, float[] values, int[] predictions, int from, int to) throws IOException {
    int rows = to - from;
    file.startBlock(rows);
    writeRequired(idColumn, (w, r) -> w.write(ids[r], 0, 0), from, to);
    file.startColumn(listColumn, (long) rows * Math.max(1, width), CODEC);
    for (int r = from; r < to; r++) {
      list.write(values, r * width, width);
    }
    list.flush();
    file.endColumn();
    if (withPrediction) {
      writeRequired(predictionColumn, (w, r) -> w.write(predictions[r], 0, 0), from, to);
    }
    file.endBlock();
    ordinal++;
    nextRowGroupBytes = Math.min(file.getNextRowGroupSize(), rowGroupBytes);
  }

  /** A value of row r into a column writer. */
  private interface RowValue {
    void write(ColumnWriter w, int r);
  }

  /**
   * One required column's chunk through parquet-mr's own column writer and page store (at 4 or 8 bytes a row their
   * buffers are small): its encodings, a dictionary where parquet-mr's writer would build one (predictions: a few
   * class ids), as the row writer writes it.
   */
  private void writeRequired(ColumnDescriptor column, RowValue value, int from, int to) throws IOException {
    MessageType one = new MessageType("embeddings", schema.getType(column.getPath()[0]));
    ColumnChunkPageWriteStore pages = ParquetColumnFile.pageStore(compressor, one, props, file, ordinal);
    ColumnWriteStore store = props.newColumnWriteStore(one, pages, pages);
    try {
      ColumnWriter w = store.getColumnWriter(one.getColumns().get(0));
      for (int r = from; r < to; r++) {
        value.write(w, r);
        store.endRecord();
      }
      store.flush();
      pages.flushToFileWriter(file);
    } finally {
      store.close();
      pages.close();
    }
  }

  /** Writes the footer (an empty file when no row was written). */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    ParquetColumnFile.end(file, codecs, () -> { });
  }

  @Override
  public String toString() {
    return path.toString();
  }

  /**
   * Compresses a page into a reused buffer and writes it to the file straight away. The page writer of the list
   * leaf ({@link FloatListPages}).
   */
  private final class PageSink implements PageWriter {
    private final ReusedBytes page = new ReusedBytes();
    private byte[] packed = new byte[0];

    @Override
    public void writePage(BytesInput bytes, int valueCount, int rowCount, Statistics<?> stats, Encoding rl,
        Encoding dl, Encoding values) throws IOException {
      page.reset();
      bytes.writeAllTo(page);
      int size = page.size();
      // Heap to heap in one native call; parquet-mr's Snappy compressor goes through direct buffers.
      int max = Snappy.maxCompressedLength(size);
      if (packed.length < max) {
        packed = new byte[max];
      }
      int n = Snappy.compress(page.bytes(), 0, size, packed, 0);
      file.writeDataPage(valueCount, size, BytesInput.from(packed, 0, n), stats, rowCount, rl, dl, values);
    }

    @Override
    public void writePage(BytesInput bytes, int valueCount, Statistics<?> stats, Encoding rl, Encoding dl,
        Encoding values) {
      throw new UnsupportedOperationException("pages need their row count");
    }

    @Override
    public void writePageV2(int rowCount, int nullCount, int valueCount, BytesInput repetitionLevels,
        BytesInput definitionLevels, Encoding dataEncoding, BytesInput data, Statistics<?> statistics) {
      throw new UnsupportedOperationException("v1 pages only");
    }

    @Override
    public long getMemSize() {
      return 0;
    }

    @Override
    public long allocatedSize() {
      return page.capacity() + packed.length;
    }

    @Override
    public void writeDictionaryPage(DictionaryPage dictionaryPage) {
      throw new UnsupportedOperationException("no dictionaries");
    }

    @Override
    public String memUsageString(String prefix) {
      return prefix + " page sink " + allocatedSize() + " bytes";
    }
  }

  /** A growable byte buffer written as an OutputStream, kept between pages. */
  private static final class ReusedBytes extends OutputStream {
    private byte[] buf = new byte[1 << 16];
    private int size;

    @Override
    public void write(int b) {
      ensure(1);
      buf[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, buf, size, len);
      size += len;
    }

    private void ensure(int more) {
      if (buf.length - size < more) {
        buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
      }
    }

    void reset() {
      size = 0;
    }

    int size() {
      return size;
    }

    int capacity() {
      return buf.length;
    }

    byte[] bytes() {
      return buf;
    }
  }
}
