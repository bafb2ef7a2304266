package org.yarngnn.io.parquet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
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
import org.xerial.snappy.Snappy;

/**
 * The pages of one column chunk, parsed from the chunk's raw bytes in a heap array. Snappy pages are decompressed
 * heap to heap in one native call (Parquet's own path streams them through direct buffers with two extra
 * copies); other codecs go through Parquet's decompressor. With {@code reuse}, every data page is decompressed
 * into the same buffer, so a page's bytes are valid only until the next {@link #readPage()}: right for readers
 * that decode a whole page before asking for the next.
 */
final class ParquetChunkPages implements PageReader {
  private final byte[] chunk;
  private final int end;
  private final Position in;
  private final CompressionCodecName codec;
  private final BytesInputDecompressor decompressor;
  private final long valueCount;
  private final boolean reuse;
  private byte[] pageBuffer = new byte[0];
  private DictionaryPage dictionary;
  /** The first data page, read while looking for the dictionary (which comes first in a chunk). */
  private DataPage pending;

  ParquetChunkPages(byte[] chunk, int offset, int length, CompressionCodecName codec,
      BytesInputDecompressor decompressor, long valueCount, boolean reuse) {
    this.chunk = chunk;
    this.end = offset + length;
    this.in = new Position(chunk, offset, length);
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
      while (in.position() < end) {
        PageHeader h = Util.readPageHeader(in);
        int at = in.position();
        int size = h.getCompressed_page_size();
        if (size < 0 || at + size > end) {
          throw new IOException("page of " + size + " bytes overruns its column chunk");
        }
        in.skipTo(at + size);
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
    BytesInput data;
    int dataSize = h.getUncompressed_page_size() - levels;
    if (d.isIs_compressed() && codec != CompressionCodecName.UNCOMPRESSED) {
      data = BytesInput.from(decompress(at + levels, size - levels, dataSize, reuse), 0, dataSize);
    } else {
      data = BytesInput.from(chunk, at + levels, size - levels);
    }
    return DataPageV2.uncompressed(d.getNum_rows(), d.getNum_nulls(), d.getNum_values(),
        BytesInput.from(chunk, at, rl), BytesInput.from(chunk, at + rl, dl), encoding(d.getEncoding()), data, null);
  }

  /** The page's uncompressed bytes from offset 0 (in the shared buffer when {@code shared}). */
  private byte[] decompress(int at, int size, int uncompressed, boolean shared) throws IOException {
    if (codec == CompressionCodecName.UNCOMPRESSED) {
      if (size != uncompressed) {
        throw new IOException("uncompressed page of " + size + " bytes declares " + uncompressed);
      }
      byte[] out = new byte[size];
      System.arraycopy(chunk, at, out, 0, size);
      return out;
    }
    byte[] out = shared ? pageBuffer(uncompressed) : new byte[uncompressed];
    if (codec == CompressionCodecName.SNAPPY) {
      int n = Snappy.uncompress(chunk, at, size, out, 0);
      if (n != uncompressed) {
        throw new IOException("Snappy page decompressed to " + n + " bytes, expected " + uncompressed);
      }
      return out;
    }
    BytesInput b = decompressor.decompress(BytesInput.from(chunk, at, size), uncompressed);
    return b.toByteArray();
  }

  private byte[] pageBuffer(int size) {
    if (pageBuffer.length < size) {
      pageBuffer = new byte[Math.max(size, pageBuffer.length + (pageBuffer.length >> 1))];
    }
    return pageBuffer;
  }

  private static Encoding encoding(org.apache.parquet.format.Encoding e) {
    return Encoding.valueOf(e.name());
  }

  /** A ByteArrayInputStream whose position can be read and set, for the Thrift page headers. */
  private static final class Position extends ByteArrayInputStream {
    Position(byte[] buf, int offset, int length) {
      super(buf, offset, length);
    }

    int position() {
      return pos;
    }

    void skipTo(int p) {
      pos = p;
    }
  }
}
