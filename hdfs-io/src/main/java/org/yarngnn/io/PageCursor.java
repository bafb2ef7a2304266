package org.yarngnn.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * {@link LeafCursor} for numeric columns that decodes a whole page at a time into primitive arrays: levels
 * (RLE/bit-packed hybrid) and values (PLAIN and dictionary ids decoded here; any other encoding through
 * Parquet's ValuesReader, still page by page). Stepping is then plain array reads, which is what makes edge
 * reading several times faster than going through {@link org.apache.parquet.column.ColumnReader}.
 */
final class PageCursor implements LeafCursor {
  private final PageReader pages;
  private final ColumnDescriptor descriptor;
  private final boolean integral;
  private final PrimitiveTypeName type;
  private final int maxRep;
  private final int maxDef;
  private final Dictionary dictionary;
  private long[] dictLongs;
  private float[] dictFloats;

  private int[] rep = new int[0];
  private int[] def = new int[0];
  private int[] ids = new int[0];
  private long[] longs = new long[0];
  private float[] floats = new float[0];
  private int count;
  private int index;
  private int valueIndex;

  PageCursor(PageReader pages, ColumnDescriptor descriptor) {
    this.pages = pages;
    this.descriptor = descriptor;
    this.type = descriptor.getPrimitiveType().getPrimitiveTypeName();
    this.integral = type == PrimitiveTypeName.INT32 || type == PrimitiveTypeName.INT64;
    this.maxRep = descriptor.getMaxRepetitionLevel();
    this.maxDef = descriptor.getMaxDefinitionLevel();
    DictionaryPage dict = pages.readDictionaryPage();
    this.dictionary = dict == null ? null : decodeDictionary(dict);
    loadPage();
  }

  /** True for the column types this cursor decodes. */
  static boolean supports(ColumnDescriptor d) {
    switch (d.getPrimitiveType().getPrimitiveTypeName()) {
      case INT32:
      case INT64:
      case FLOAT:
      case DOUBLE:
        return true;
      default:
        return false;
    }
  }

  private Dictionary decodeDictionary(DictionaryPage page) {
    try {
      Dictionary d = page.getEncoding().initDictionary(descriptor, page);
      int n = d.getMaxId() + 1;
      if (integral) {
        dictLongs = new long[n];
        for (int i = 0; i < n; i++) {
          dictLongs[i] = type == PrimitiveTypeName.INT32 ? d.decodeToInt(i) : d.decodeToLong(i);
        }
      } else {
        dictFloats = new float[n];
        for (int i = 0; i < n; i++) {
          dictFloats[i] = type == PrimitiveTypeName.DOUBLE ? (float) d.decodeToDouble(i) : d.decodeToFloat(i);
        }
      }
      return d;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void loadPage() {
    index = 0;
    valueIndex = 0;
    count = 0;
    DataPage page;
    // Skip empty pages; a null page ends the row group.
    while (count == 0 && (page = pages.readPage()) != null) {
      try {
        if (page instanceof DataPageV1) {
          decodeV1((DataPageV1) page);
        } else {
          decodeV2((DataPageV2) page);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private void decodeV1(DataPageV1 page) throws IOException {
    int n = page.getValueCount();
    ByteBuffer bb = page.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    int p = bb.position();
    if (maxRep > 0) {
      rep = grow(rep, n);
      p = decodeLevels(bb, p, page.getRlEncoding(), maxRep, rep, n, true);
    }
    if (maxDef > 0) {
      def = grow(def, n);
      p = decodeLevels(bb, p, page.getDlEncoding(), maxDef, def, n, true);
    }
    decodeValues(bb, p, page.getValueEncoding(), n);
  }

  private void decodeV2(DataPageV2 page) throws IOException {
    int n = page.getValueCount();
    if (maxRep > 0) {
      rep = grow(rep, n);
      ByteBuffer r = page.getRepetitionLevels().toByteBuffer();
      decodeLevels(r, r.position(), Encoding.RLE, maxRep, rep, n, false);
    }
    if (maxDef > 0) {
      def = grow(def, n);
      ByteBuffer d = page.getDefinitionLevels().toByteBuffer();
      decodeLevels(d, d.position(), Encoding.RLE, maxDef, def, n, false);
    }
    ByteBuffer data = page.getData().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    decodeValues(data, data.position(), page.getDataEncoding(), n);
  }

  private static int[] grow(int[] a, int n) {
    return a.length >= n ? a : new int[Math.max(n, a.length * 2)];
  }

  private int decodeLevels(ByteBuffer bb, int p, Encoding enc, int max, int[] out, int n, boolean lengthPrefixed) {
    if (enc != Encoding.RLE) {
      throw new UnsupportedOperationException("Parquet level encoding " + enc + " is not supported");
    }
    int width = 32 - Integer.numberOfLeadingZeros(max);
    if (lengthPrefixed) {
      int len = bb.getInt(p);
      decodeHybrid(bb, p + 4, width, out, n);
      return p + 4 + len;
    }
    return decodeHybrid(bb, p, width, out, n);
  }

  private void decodeValues(ByteBuffer bb, int p, Encoding enc, int n) throws IOException {
    int nonNull = n;
    if (maxDef > 0) {
      nonNull = 0;
      for (int i = 0; i < n; i++) {
        if (def[i] == maxDef) {
          nonNull++;
        }
      }
    }
    if (integral) {
      longs = longs.length >= nonNull ? longs : new long[Math.max(nonNull, longs.length * 2)];
    } else {
      floats = floats.length >= nonNull ? floats : new float[Math.max(nonNull, floats.length * 2)];
    }
    if (enc == Encoding.PLAIN) {
      decodePlain(bb, p, nonNull);
    } else if (enc.usesDictionary() && dictionary != null) {
      ids = grow(ids, nonNull);
      int width = bb.get(p) & 0xff;
      decodeHybrid(bb, p + 1, width, ids, nonNull);
      if (integral) {
        for (int i = 0; i < nonNull; i++) {
          longs[i] = dictLongs[ids[i]];
        }
      } else {
        for (int i = 0; i < nonNull; i++) {
          floats[i] = dictFloats[ids[i]];
        }
      }
    } else {
      decodeGeneric(bb, p, enc, nonNull);
    }
    count = n;
  }

  private void decodePlain(ByteBuffer bb, int p, int n) {
    switch (type) {
      case INT64:
        for (int i = 0; i < n; i++) {
          longs[i] = bb.getLong(p + 8 * i);
        }
        break;
      case INT32:
        for (int i = 0; i < n; i++) {
          longs[i] = bb.getInt(p + 4 * i);
        }
        break;
      case FLOAT:
        for (int i = 0; i < n; i++) {
          floats[i] = bb.getFloat(p + 4 * i);
        }
        break;
      default:
        for (int i = 0; i < n; i++) {
          floats[i] = (float) bb.getDouble(p + 8 * i);
        }
        break;
    }
  }

  private void decodeGeneric(ByteBuffer bb, int p, Encoding enc, int n) throws IOException {
    ValuesReader r = enc.usesDictionary()
        ? enc.getDictionaryBasedValuesReader(descriptor, ValuesType.VALUES, dictionary)
        : enc.getValuesReader(descriptor, ValuesType.VALUES);
    ByteBuffer slice = bb.duplicate();
    slice.position(p);
    r.initFromPage(n, ByteBufferInputStream.wrap(slice.slice()));
    for (int i = 0; i < n; i++) {
      switch (type) {
        case INT64: longs[i] = r.readLong(); break;
        case INT32: longs[i] = r.readInteger(); break;
        case FLOAT: floats[i] = r.readFloat(); break;
        default: floats[i] = (float) r.readDouble(); break;
      }
    }
  }

  /** Decodes {@code n} values of Parquet's RLE/bit-packed hybrid encoding starting at {@code p}; returns the end. */
  static int decodeHybrid(ByteBuffer bb, int p, int width, int[] out, int n) {
    int byteWidth = (width + 7) >>> 3;
    long mask = width == 32 ? 0xFFFFFFFFL : (1L << width) - 1;
    int done = 0;
    while (done < n) {
      int header = 0;
      int shift = 0;
      int b;
      do {
        b = bb.get(p++) & 0xff;
        header |= (b & 0x7f) << shift;
        shift += 7;
      } while ((b & 0x80) != 0);
      if ((header & 1) == 0) {
        int value = 0;
        for (int k = 0; k < byteWidth; k++) {
          value |= (bb.get(p++) & 0xff) << (8 * k);
        }
        int m = Math.min(header >>> 1, n - done);
        Arrays.fill(out, done, done + m, value);
        done += m;
      } else {
        int groups = header >>> 1;
        int m = Math.min(groups * 8, n - done);
        long acc = 0;
        int bits = 0;
        int q = p;
        for (int k = 0; k < m; k++) {
          while (bits < width) {
            acc |= (long) (bb.get(q++) & 0xff) << bits;
            bits += 8;
          }
          out[done++] = (int) (acc & mask);
          acc >>>= width;
          bits -= width;
        }
        p += groups * width;
      }
    }
    return p;
  }

  @Override
  public boolean hasNext() {
    return index < count;
  }

  @Override
  public int repetitionLevel() {
    return maxRep == 0 ? 0 : rep[index];
  }

  @Override
  public int definitionLevel() {
    return maxDef == 0 ? 0 : def[index];
  }

  @Override
  public long getLong() {
    return longs[valueIndex];
  }

  @Override
  public float getFloat() {
    return floats[valueIndex];
  }

  @Override
  public Binary getBinary() {
    throw new UnsupportedOperationException("numeric column " + descriptor);
  }

  @Override
  public void consume() {
    if (maxDef == 0 || def[index] == maxDef) {
      valueIndex++;
    }
    if (++index == count) {
      loadPage();
    }
  }
}
