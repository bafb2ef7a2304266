package org.yarngnn.io.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReadStore;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.example.DummyRecordConverter;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;
import org.yarngnn.io.table.InputException;

/**
 * One Parquet file read column by column, row group by row group, through Parquet's low-level column readers
 * (no record assembly, no per-row objects). Unencrypted files (nearly all) are read page by page through a window
 * over each column chunk and decoded by {@link ParquetChunkPages}; encrypted ones go through Parquet's own row group reader.
 */
public final class ParquetFile implements Closeable {
  private final Path path;
  private final ParquetFileReader reader;
  private final MessageType schema;
  private final String createdBy;
  private final Configuration conf;
  /** Column chunks are read by this class (no encryption anywhere in the file). */
  private final boolean raw;
  private final List<BlockMetaData> blocks;
  private int nextBlock;
  private SeekableInputStream in;
  private long length;
  private CodecFactory codecs;
  private MessageType projection;
  private ColumnReadStore store;
  private PageReadStore pages;
  private long rowGroupRows;

  private ParquetFile(Configuration conf, Path path, ParquetMetadata footer) throws IOException {
    this.conf = conf;
    this.path = path;
    this.schema = footer.getFileMetaData().getSchema();
    this.createdBy = footer.getFileMetaData().getCreatedBy();
    this.blocks = footer.getBlocks();
    boolean encrypted = footer.getFileMetaData().getFileDecryptor() != null;
    for (BlockMetaData b : blocks) {
      for (ColumnChunkMetaData c : b.getColumns()) {
        encrypted |= c.isEncrypted();
      }
    }
    this.raw = !encrypted;
    // Parquet's reader (about 10 ms to open) only for the files it must decrypt.
    this.reader = raw ? null : ParquetFileReader.open(HadoopInputFile.fromPath(path, conf));
  }

  /** Reads the footer of a Parquet file (schema and row groups). */
  public static ParquetMetadata footer(Configuration conf, Path path) {
    try {
      HadoopInputFile file = HadoopInputFile.fromPath(path, conf);
      try (SeekableInputStream s = file.newStream()) {
        return ParquetFileReader.readFooter(file, HadoopReadOptions.builder(conf, path).build(), s);
      }
    } catch (IOException | RuntimeException e) {
      throw InputException.in(path, "not a readable Parquet file (" + e.getMessage() + ")");
    }
  }

  static ParquetFile open(Configuration conf, Path path) {
    return open(conf, path, footer(conf, path));
  }

  /** Opens a file whose footer is already known. */
  static ParquetFile open(Configuration conf, Path path, ParquetMetadata footer) {
    try {
      return new ParquetFile(conf, path, footer);
    } catch (IOException | RuntimeException e) {
      throw InputException.in(path, "not a readable Parquet file (" + e.getMessage() + ")");
    }
  }

  /** The footer's row count. */
  long rowCount() {
    long n = 0;
    for (BlockMetaData b : blocks) {
      n += b.getRowCount();
    }
    return n;
  }

  /** Reads only these columns from now on. */
  void project(ParquetColumn... columns) {
    projection = ParquetColumn.projection(schema, columns);
    if (reader != null) {
      reader.setRequestedSchema(projection);
    }
  }

  MessageType schema() {
    return schema;
  }

  /** The number of row groups. */
  int rowGroupCount() {
    return blocks.size();
  }

  /** Rows in row group {@code i}. */
  long rowGroupRows(int i) {
    return blocks.get(i).getRowCount();
  }

  /** Skips the next {@code n} row groups without reading them. */
  void skipRowGroups(int n) {
    for (int i = 0; i < n; i++) {
      if (raw) {
        nextBlock++;
      } else if (!reader.skipNextRowGroup()) {
        return;
      }
    }
  }

  /** Loads the next row group; false after the last. Its row count is {@link #rowGroupRows()}. */
  boolean nextRowGroup() {
    try {
      if (raw) {
        if (nextBlock >= blocks.size()) {
          return false;
        }
        BlockMetaData b = blocks.get(nextBlock++);
        releaseChunks();
        pages = new ChunkStore(b);
        rowGroupRows = b.getRowCount();
        store = new ColumnReadStoreImpl(pages, new DummyRecordConverter(projection).getRootConverter(), projection,
            createdBy);
        return true;
      }
      pages = reader.readNextRowGroup();
      if (pages == null) {
        return false;
      }
      rowGroupRows = pages.getRowCount();
      store = new ColumnReadStoreImpl(pages, new DummyRecordConverter(projection).getRootConverter(), projection,
          createdBy);
      return true;
    } catch (IOException e) {
      throw InputException.wrap(path, "reading", e);
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
        // PageCursor decodes a whole page before reading the next: its chunk may reuse one page buffer.
        PageReader r = raw ? ((ChunkStore) pages).pages(c.descriptor, true) : pages.getPageReader(c.descriptor);
        return new PageCursor(r, c.descriptor);
      }
      return new ColumnReaderCursor(store.getColumnReader(c.descriptor));
    } catch (UnsupportedOperationException | ParquetDecodingException e) {
      throw InputException.in(path, "unsupported Parquet data in column '" + c.name + "' (" + e.getMessage() + ")");
    }
  }

  /**
   * The stream the column chunks are read from, opened once per file; {@code meta}'s range is checked against
   * the file's length first (a footer is input too: nothing is allocated for a chunk the file cannot hold).
   */
  private SeekableInputStream chunkStream(ColumnChunkMetaData meta) throws IOException {
    if (in == null) {
      HadoopInputFile f = HadoopInputFile.fromPath(path, conf);
      length = f.getLength();
      in = f.newStream();
    }
    long start = meta.getStartingPos();
    long size = meta.getTotalSize();
    if (start < 0 || size < 0 || start > length - size) {
      throw new IOException("column chunk " + meta.getPath() + " of " + size + " bytes at " + start
          + " overruns the file of " + length + " bytes");
    }
    return in;
  }

  private BytesInputDecompressor decompressor(CompressionCodecName codec) {
    if (codec == CompressionCodecName.UNCOMPRESSED || codec == CompressionCodecName.SNAPPY) {
      return null;
    }
    if (codecs == null) {
      codecs = new CodecFactory(conf, 0);
    }
    try {
      return codecs.getDecompressor(codec);
    } catch (RuntimeException | LinkageError e) {
      // E.g. BROTLI or LZO, whose Hadoop codec class is not on the classpath.
      throw InputException.in(path, "compression codec " + codec + " is not available here ("
          + e.getMessage() + "); rewrite the file with SNAPPY, GZIP, ZSTD, LZ4_RAW or no compression");
    }
  }

  /** The pages of one row group, each column chunk read when first asked for. */
  private final class ChunkStore implements PageReadStore {
    private final BlockMetaData block;
    /** The chunks opened, whose buffers are given back with the row group. */
    private final List<ParquetChunkPages> opened = new ArrayList<>();

    ChunkStore(BlockMetaData block) {
      this.block = block;
    }

    @Override
    public PageReader getPageReader(ColumnDescriptor descriptor) {
      // Parquet's column readers may keep values that point into a page (binary slices): a buffer per page.
      return pages(descriptor, false);
    }

    ParquetChunkPages pages(ColumnDescriptor descriptor, boolean reuse) {
      ColumnPath p = ColumnPath.get(descriptor.getPath());
      for (ColumnChunkMetaData c : block.getColumns()) {
        if (c.getPath().equals(p)) {
          try {
            ParquetChunkPages pages = new ParquetChunkPages(chunkStream(c), c.getStartingPos(), c.getTotalSize(),
                c.getCodec(), decompressor(c.getCodec()), c.getValueCount(), reuse);
            // Without reuse no page points into the window or page buffer (each owns a copy): all give back.
            opened.add(pages);
            return pages;
          } catch (IOException e) {
            throw InputException.wrap(path, "reading", e);
          }
        }
      }
      throw new ParquetDecodingException("no column chunk " + p + " in a row group");
    }

    @Override
    public long getRowCount() {
      return block.getRowCount();
    }
  }

  /** The page-decoding cursor of a numeric column (INT32, INT64, FLOAT, DOUBLE) in the current row group. */
  PageCursor numericColumn(ParquetColumn c) {
    return (PageCursor) column(c);
  }

  /** The previous row group's chunks are done with: their buffers go to the next chunks this thread reads. */
  private void releaseChunks() {
    if (pages instanceof ChunkStore done) {
      for (ParquetChunkPages p : done.opened) {
        p.release();
      }
      done.opened.clear();
    }
  }

  @Override
  public void close() {
    releaseChunks();
    try {
      if (codecs != null) {
        codecs.release();
      }
      if (in != null) {
        in.close();
      }
      if (reader != null) {
        reader.close();
      }
    } catch (IOException e) {
      throw InputException.wrap(path, "closing", e);
    }
  }
}
