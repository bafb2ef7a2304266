package org.yarngnn.io.parquet;

import java.io.IOException;
import java.io.InputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.SeekableInputStream;
import org.xerial.snappy.Snappy;

/**
 * The pages of one column chunk, read from the file through a window that slides over the chunk: a few MiB
 * reused from page to page rather than the whole chunk in a fresh array (a node file's feature chunk is tens of
 * MiB; reading a 1M x 128 table that way first-touched 512 MB of memory for bytes used once). Snappy pages are
 * decompressed heap to heap in one native call (Parquet's own path streams them through direct buffers with
 * two extra copies); other codecs go through Parquet's decompressor. With {@code reuse}, every data page is
 * decompressed into (or, uncompressed, sliced from) buffers the next page reuses, so a page's bytes are valid
 * only until the next {@link #readPage()}: right for readers that decode a whole page before asking for the
 * next. Without it every page owns its bytes.
 */
final class ParquetChunkPages implements PageReader {
  /** The window's size unless a page needs more. */
  static final int WINDOW_BYTES = 4 << 20;
  private final Window in;
  private final CompressionCodecName codec;
  private final BytesInputDecompressor decompressor;
  private final long valueCount;
  private final boolean reuse;
  private byte[] pageBuffer = new byte[0];
  private DictionaryPage dictionary;
  /** The first data page, read while looking for the dictionary (which comes first in a chunk). */
  private DataPage pending;

  /** The chunk of {@code length} bytes at {@code start} in {@code file} (a range the caller checked). */
  ParquetChunkPages(SeekableInputStream file, long start, long length, CompressionCodecName codec,
      BytesInputDecompressor decompressor, long valueCount, boolean reuse) {
    this(file, start, length, codec, decompressor, valueCount, reuse, WINDOW_BYTES);
  }

  /** As above with a window of {@code windowBytes} (tests make it small, so pages and headers straddle it). */
  ParquetChunkPages(SeekableInputStream file, long start, long length, CompressionCodecName codec,
      BytesInputDecompressor decompressor, long valueCount, boolean reuse, int windowBytes) {
    this.in = new Window(file, start, length, (int) Math.min(length, windowBytes));
    this.codec = codec;
    this.decompressor = decompressor;
    this.valueCount = valueCount;
    this.reuse = reuse;
    this.pending = next();
  }

  @Override
  public DictionaryPage readDictionaryPage() {
    return dictionary;
  }

  @Override
  public long getTotalValueCount() {
    return valueCount;
  }

  @Override
  public DataPage readPage() {
    // Lazily: with a reused buffer, the next page may only be decompressed once the caller is done with this one.
    DataPage p = pending != null ? pending : next();
    pending = null;
    return p;
  }

  /** The next data page (recording a dictionary page met on the way), or null at the end of the chunk. */
  private DataPage next() {
    try {
      while (!in.atEnd()) {
        PageHeader h = Util.readPageHeader(in);
        int size = h.getCompressed_page_size();
        if (size < 0 || !in.fill(size)) {
          throw new IOException("page of " + size + " bytes overruns its column chunk");
        }
        int at = in.pos;
        in.pos += size;
        PageType type = h.getType();
        if (type == PageType.DICTIONARY_PAGE) {
          BytesInput bytes = BytesInput.from(decompress(at, size, h.getUncompressed_page_size(), false));
          dictionary = new DictionaryPage(bytes, h.getUncompressed_page_size(),
              h.getDictionary_page_header().getNum_values(), encoding(h.getDictionary_page_header().getEncoding()));
        } else if (type == PageType.DATA_PAGE) {
          DataPageHeader d = h.getData_page_header();
          byte[] bytes = decompress(at, size, h.getUncompressed_page_size(), reuse);
          return new DataPageV1(BytesInput.from(bytes, 0, h.getUncompressed_page_size()), d.getNum_values(),
              h.getUncompressed_page_size(), null, encoding(d.getRepetition_level_encoding()),
              encoding(d.getDefinition_level_encoding()), encoding(d.getEncoding()));
        } else if (type == PageType.DATA_PAGE_V2) {
          return pageV2(h, at, size);
        }
        // Index pages and unknown page types carry nothing a reader of values needs.
      }
      return null;
    } catch (IOException e) {
      throw new ParquetDecodingException("unreadable page (" + e.getMessage() + ")", e);
    }
  }

  private DataPage pageV2(PageHeader h, int at, int size) throws IOException {
    DataPageHeaderV2 d = h.getData_page_header_v2();
    int rl = d.getRepetition_levels_byte_length();
    int dl = d.getDefinition_levels_byte_length();
    int levels = rl + dl;
    if (rl < 0 || dl < 0 || levels > size) {
      throw new IOException("page levels of " + levels + " bytes overrun the page of " + size);
    }
    BytesInput data;
    int dataSize = h.getUncompressed_page_size() - levels;
    if (d.isIs_compressed() && codec != CompressionCodecName.UNCOMPRESSED) {
      data = BytesInput.from(decompress(at + levels, size - levels, dataSize, reuse), 0, dataSize);
    } else {
      data = window(at + levels, size - levels);
    }
    return DataPageV2.uncompressed(d.getNum_rows(), d.getNum_nulls(), d.getNum_values(),
        window(at, rl), window(at + rl, dl), encoding(d.getEncoding()), data, null);
  }

  /** Bytes of the window: a slice while the next page cannot move it (reuse), else a copy. */
  private BytesInput window(int at, int length) {
    return reuse ? BytesInput.from(in.buf, at, length)
        : BytesInput.from(java.util.Arrays.copyOfRange(in.buf, at, at + length));
  }

  /** The page's uncompressed bytes from offset 0 (in the shared buffer when {@code shared}). */
  private byte[] decompress(int at, int size, int uncompressed, boolean shared) throws IOException {
    if (codec == CompressionCodecName.UNCOMPRESSED) {
      if (size != uncompressed) {
        throw new IOException("uncompressed page of " + size + " bytes declares " + uncompressed);
      }
      byte[] out = shared ? pageBuffer(size) : new byte[size];
      System.arraycopy(in.buf, at, out, 0, size);
      return out;
    }
    byte[] out = shared ? pageBuffer(uncompressed) : new byte[uncompressed];
    if (codec == CompressionCodecName.SNAPPY) {
      int n = Snappy.uncompress(in.buf, at, size, out, 0);
      if (n != uncompressed) {
        throw new IOException("Snappy page decompressed to " + n + " bytes, expected " + uncompressed);
      }
      return out;
    }
    BytesInput b = decompressor.decompress(BytesInput.from(in.buf, at, size), uncompressed);
    return b.toByteArray();
  }

  private byte[] pageBuffer(int size) {
    if (pageBuffer.length < size) {
      ChunkBuffers.give(pageBuffer);
      pageBuffer = ChunkBuffers.take(Math.max(size, pageBuffer.length + (pageBuffer.length >> 1)));
    }
    return pageBuffer;
  }

  /**
   * Gives the window and the page buffer back to {@link ChunkBuffers} for the next chunk this thread reads: for
   * the owner of this chunk once nothing reads its pages any more (the row group is done). No page is read after.
   */
  void release() {
    ChunkBuffers.give(in.buf);
    ChunkBuffers.give(pageBuffer);
    in.buf = null;
    pageBuffer = null;
  }

  private static Encoding encoding(org.apache.parquet.format.Encoding e) {
    return Encoding.valueOf(e.name());
  }

  /**
   * The chunk's bytes as a stream (for the Thrift page headers) over a buffer refilled from the file: {@code
   * buf[pos, limit)} are the next bytes of the chunk, {@code remaining} more are still in the file.
   */
  private static final class Window extends InputStream {
    private final SeekableInputStream file;
    private long filePos;
    private long remaining;
    byte[] buf;
    int pos;
    private int limit;

    Window(SeekableInputStream file, long start, long length, int size) {
      this.file = file;
      this.filePos = start;
      this.remaining = length;
      this.buf = ChunkBuffers.take(Math.max(size, 0));
    }

    boolean atEnd() throws IOException {
      return pos == limit && remaining == 0;
    }

    /**
     * Makes the next {@code n} bytes of the chunk contiguous in {@code buf} from {@code pos}; false if the chunk
     * has fewer left. The buffer grows only for a page larger than it, and never beyond the chunk (whose range
     * the caller checked against the file's length).
     */
    boolean fill(int n) throws IOException {
      int have = limit - pos;
      if (have >= n) {
        return true;
      }
      if (have + remaining < n) {
        return false;
      }
      System.arraycopy(buf, pos, buf, 0, have);
      pos = 0;
      limit = have;
      if (buf.length < n) {
        buf = java.util.Arrays.copyOf(buf, (int) Math.min(have + remaining, Math.max(n, (long) buf.length * 2)));
      }
      int want = (int) Math.min(buf.length - limit, remaining);
      file.seek(filePos);
      file.readFully(buf, limit, want);
      filePos += want;
      remaining -= want;
      limit += want;
      return true;
    }

    @Override
    public int read() throws IOException {
      if (!fill(1)) {
        return -1;
      }
      return buf[pos++] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (!fill(1)) {
        return -1;
      }
      int n = Math.min(len, limit - pos);
      System.arraycopy(buf, pos, b, off, n);
      pos += n;
      return n;
    }
  }
}
