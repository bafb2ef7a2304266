package org.yarngnn.io.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
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
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
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
  /** An INT32 column annotated unsigned (UINT8/16/32): its values widen without sign. */
  private final boolean unsigned32;
  private final PrimitiveTypeName type;
  private final int maxRep;
  private final int maxDef;
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
    LogicalTypeAnnotation logical = descriptor.getPrimitiveType().getLogicalTypeAnnotation();
    this.unsigned32 = type == PrimitiveTypeName.INT32 && logical instanceof IntLogicalTypeAnnotation
        && !((IntLogicalTypeAnnotation) logical).isSigned();
    this.maxRep = descriptor.getMaxRepetitionLevel();
    this.maxDef = descriptor.getMaxDefinitionLevel();
    DictionaryPage dict = pages.readDictionaryPage();
    if (dict != null) {
      decodeDictionary(dict);
    }
    loadPage();
  }

  /**
   * What a finite DOUBLE outside float range narrows to: a NaN with this payload (not an infinity), so a reader
   * can tell it from a stored NaN or infinity and say so ({@link #isOutOfFloatRange}).
   */
  private static final int OUT_OF_RANGE_BITS = 0x7fc0_f10a;

  /** A DOUBLE narrowed to float; a finite value beyond float range becomes the out-of-range NaN. */
  static float narrow(double d) {
    float f = (float) d;
    return Float.isInfinite(f) && !Double.isInfinite(d) ? Float.intBitsToFloat(OUT_OF_RANGE_BITS) : f;
  }

  /** True for the value {@link #narrow} gives a finite DOUBLE outside float range. */
  static boolean isOutOfFloatRange(float f) {
    return Float.floatToRawIntBits(f) == OUT_OF_RANGE_BITS;
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

  /**
   * Decodes the dictionary into {@link #dictLongs} or {@link #dictFloats}; PLAIN straight from its bytes (Parquet's
   * own dictionaries read value by value through a stream).
   */
  private void decodeDictionary(DictionaryPage page) {
    try {
      Encoding enc = page.getEncoding();
      int n = page.getDictionarySize();
      if (enc == Encoding.PLAIN || enc == Encoding.PLAIN_DICTIONARY) {
        ByteBuffer bb = page.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        if (integral) {
          dictLongs = new long[n];
          decodePlain(bb, bb.position(), n, dictLongs, null);
        } else {
          dictFloats = new float[n];
          decodePlain(bb, bb.position(), n, null, dictFloats);
        }
        return;
      }
      Dictionary d = enc.initDictionary(descriptor, page);
      n = d.getMaxId() + 1;
      if (integral) {
        dictLongs = new long[n];
        for (int i = 0; i < n; i++) {
          dictLongs[i] = type != PrimitiveTypeName.INT32 ? d.decodeToLong(i)
              : unsigned32 ? d.decodeToInt(i) & 0xFFFF_FFFFL : d.decodeToInt(i);
        }
      } else {
        dictFloats = new float[n];
        for (int i = 0; i < n; i++) {
          dictFloats[i] = type == PrimitiveTypeName.DOUBLE ? narrow(d.decodeToDouble(i)) : d.decodeToFloat(i);
        }
      }
    } catch (IOException e) {
      throw new ParquetDecodingException("unreadable page (" + e.getMessage() + ")", e);
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
        throw new ParquetDecodingException("unreadable page (" + e.getMessage() + ")", e);
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
      decodePlain(bb, p, nonNull, longs, floats);
    } else if (enc.usesDictionary() && (dictLongs != null || dictFloats != null)) {
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

  /** PLAIN values in bulk through buffer views (one bounds check per page, not per value). */
  private void decodePlain(ByteBuffer bb, int p, int n, long[] longOut, float[] floatOut) {
    ByteBuffer at = bb.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    at.position(p);
    switch (type) {
      case INT64:
        at.asLongBuffer().get(longOut, 0, n);
        break;
      case INT32: {
        IntBuffer ints = at.asIntBuffer();
        if (unsigned32) {
          for (int i = 0; i < n; i++) {
            longOut[i] = ints.get(i) & 0xFFFF_FFFFL;
          }
        } else {
          for (int i = 0; i < n; i++) {
            longOut[i] = ints.get(i);
          }
        }
        break;
      }
      case FLOAT:
        at.asFloatBuffer().get(floatOut, 0, n);
        break;
      default: {
        DoubleBuffer doubles = at.asDoubleBuffer();
        for (int i = 0; i < n; i++) {
          floatOut[i] = narrow(doubles.get(i));
        }
        break;
      }
    }
  }

  private void decodeGeneric(ByteBuffer bb, int p, Encoding enc, int n) throws IOException {
    if (enc.usesDictionary()) {
      throw new ParquetDecodingException("dictionary-encoded page in a column chunk without a dictionary page");
    }
    ValuesReader r = enc.getValuesReader(descriptor, ValuesType.VALUES);
    ByteBuffer slice = bb.duplicate();
    slice.position(p);
    r.initFromPage(n, ByteBufferInputStream.wrap(slice.slice()));
    for (int i = 0; i < n; i++) {
      switch (type) {
        case INT64: longs[i] = r.readLong(); break;
        case INT32: longs[i] = unsigned32 ? r.readInteger() & 0xFFFF_FFFFL : r.readInteger(); break;
        case FLOAT: floats[i] = r.readFloat(); break;
        default: floats[i] = narrow(r.readDouble()); break;
      }
    }
  }

  /** Decodes {@code n} values of Parquet's RLE/bit-packed hybrid encoding starting at {@code p}; returns the end. */
  static int decodeHybrid(ByteBuffer buffer, int p, int width, int[] out, int n) {
    ByteBuffer bb = buffer.order() == ByteOrder.LITTLE_ENDIAN ? buffer
        : buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
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
        // Values whose 8-byte window lies inside the buffer: one unaligned load each (width <= 32, shift <= 7).
        if (width == 0) {
          Arrays.fill(out, done, done + m, 0);
          done += m;
          continue;
        }
        int fast = Math.max(0, Math.min(m, (int) (((bb.limit() - 8 - p) * 8L) / width)));
        int k = 0;
        for (long bit = 0; k < fast; k++, bit += width) {
          out[done + k] = (int) ((bb.getLong(p + (int) (bit >>> 3)) >>> (bit & 7)) & mask);
        }
        long acc = 0;
        int bits = 0;
        int q = p + (int) (((long) k * width) >>> 3);
        int skip = (int) (((long) k * width) & 7);
        if (k < m && skip > 0) {
          acc = (bb.get(q++) & 0xff) >>> skip;
          bits = 8 - skip;
        }
        for (; k < m; k++) {
          while (bits < width) {
            acc |= (long) (bb.get(q++) & 0xff) << bits;
            bits += 8;
          }
          out[done + k] = (int) (acc & mask);
          acc >>>= width;
          bits -= width;
        }
        done += m;
        p += groups * width;
      }
    }
    return p;
  }

  /**
   * Copies the next values of an INT32/INT64 column into {@code out[off..off+n)} and moves past them; stops early
   * at a null entry (left current) or at the end of the row group. Returns the number copied.
   */
  int readLongs(long[] out, int off, int n) {
    return readBulk(out, null, off, n);
  }

  /** As {@link #readLongs}, for a FLOAT/DOUBLE column. */
  int readFloats(float[] out, int off, int n) {
    return readBulk(null, out, off, n);
  }

  private int readBulk(long[] longOut, float[] floatOut, int off, int n) {
    int done = 0;
    while (done < n && index < count) {
      int run = Math.min(n - done, count - index);
      if (maxDef > 0) {
        // Only defined entries of a non-repeated column: stop before the first null.
        int k = 0;
        while (k < run && def[index + k] == maxDef) {
          k++;
        }
        run = k;
        if (run == 0) {
          return done;
        }
      }
      if (longOut != null) {
        System.arraycopy(longs, valueIndex, longOut, off + done, run);
      } else {
        System.arraycopy(floats, valueIndex, floatOut, off + done, run);
      }
      done += run;
      valueIndex += run;
      index += run;
      if (index == count) {
        loadPage();
      }
    }
    return done;
  }

  /**
   * Bulk read of one row of a repeated FLOAT/DOUBLE column: when the current entry starts a row whose elements
   * all lie in this page, are all defined and number exactly {@code out.length}, copies them into {@code out},
   * moves past the row and returns true. Otherwise (a null, another length, a row across pages) moves nothing and
   * returns false: the caller steps through the row entry by entry and reports what it finds.
   */
  boolean readFullRow(float[] out) {
    int w = out.length;
    int end = index + w;
    if (end > count || maxRep == 0 || rep[index] != 0 || (end < count && rep[end] != 0)) {
      return false;
    }
    for (int i = index + 1; i < end; i++) {
      if (rep[i] == 0) {
        return false;
      }
    }
    if (maxDef > 0) {
      for (int i = index; i < end; i++) {
        if (def[i] != maxDef) {
          return false;
        }
      }
    }
    System.arraycopy(floats, valueIndex, out, 0, w);
    valueIndex += w;
    index = end;
    if (index == count) {
      loadPage();
    }
    return true;
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
