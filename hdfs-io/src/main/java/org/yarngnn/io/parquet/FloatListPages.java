package org.yarngnn.io.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.FloatStatistics;
import org.apache.parquet.column.statistics.Statistics;

/**
 * The data pages of one {@code LIST<FLOAT>} leaf (max repetition and definition level 1), built a row at a time
 * rather than a value at a time: parquet-mr's column writer takes each float with its two levels and updates the
 * statistics per value, which made writing 128-wide embeddings cost about 9 ns per value. Here a row's values
 * are one bulk copy into the page buffer, its levels two run-length runs, and the statistics one min/max pass.
 *
 * <p>The pages are ordinary v1 data pages (RLE levels, PLAIN values) handed to parquet-mr's page writer, which
 * compresses them and builds the column and offset indexes; a page ends on a row boundary once its values reach
 * the properties' page size, as parquet-mr's do. Statistics follow parquet-mr's order ({@code Float.compare}:
 * {@code -0.0 < 0.0}, NaN above all), so the footer says what parquet-mr's own writer would.
 */
final class FloatListPages {
  /** Whether the JDK's vectors are there: {@link VectorMinMax} is loaded only then. */
  static final boolean VECTORS = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
  private final ColumnDescriptor column;
  private final PageWriter pages;
  private final int pageBytes;
  private ByteBuffer values;
  private FloatBuffer floats;
  private final LevelRuns repetition = new LevelRuns();
  private final LevelRuns definition = new LevelRuns();
  private FloatStatistics stats;
  private final float[] range = new float[2];
  private int rows;
  private int levels;

  FloatListPages(ColumnDescriptor column, PageWriter pages, int pageBytes) {
    if (column.getMaxRepetitionLevel() != 1 || column.getMaxDefinitionLevel() != 1) {
      throw new IllegalArgumentException(column + " is not a list of required floats");
    }
    this.column = column;
    this.pages = pages;
    this.pageBytes = Math.max(4096, pageBytes);
    allocate(this.pageBytes + 4096);
    newPage();
  }

  /** One row: {@code length} values from {@code offset}; an empty list is stored as a null list, as parquet-mr. */
  void write(float[] v, int offset, int length) throws IOException {
    rows++;
    if (length == 0) {
      repetition.add(0, 1);
      definition.add(0, 1);
      stats.incrementNumNulls();
      levels++;
    } else {
      repetition.add(0, 1);
      repetition.add(1, length - 1);
      definition.add(1, length);
      levels += length;
      if (floats.remaining() < length) {
        allocate(Math.max(values.capacity() * 2, floats.position() * 4 + length * 4 + 4096));
      }
      floats.put(v, offset, length);
      updateStats(v, offset, length);
    }
    if (floats.position() * 4L >= pageBytes) {
      flush();
    }
  }

  /** Bytes buffered in the open page plus those the page writer holds for the row group. */
  long bufferedBytes() {
    return floats.position() * 4L + repetition.bytes() + definition.bytes() + pages.getMemSize();
  }

  /** Writes the open page if it has rows (at the end of a row group). */
  void flush() throws IOException {
    if (rows == 0) {
      return;
    }
    byte[] rl = repetition.encode();
    byte[] dl = definition.encode();
    BytesInput page = BytesInput.concat(BytesInput.fromInt(rl.length), BytesInput.from(rl),
        BytesInput.fromInt(dl.length), BytesInput.from(dl), BytesInput.from(values.array(), 0, floats.position() * 4));
    // The page writer compresses (or copies) the bytes before returning: the buffer is free again afterwards.
    pages.writePage(page, levels, rows, stats, Encoding.RLE, Encoding.RLE, Encoding.PLAIN);
    newPage();
  }

  private void newPage() {
    floats.clear();
    repetition.clear();
    definition.clear();
    stats = (FloatStatistics) Statistics.createStats(column.getPrimitiveType());
    rows = 0;
    levels = 0;
  }

  private void allocate(int bytes) {
    ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    FloatBuffer f = b.asFloatBuffer();
    if (floats != null) {
      f.put(floats.flip());
    }
    values = b;
    floats = f;
  }

  /**
   * Min and max of the row under {@code Float.compare}, then two updates, as per-value updates would end.
   * {@code Math.min} and {@code max} order the two zeros as {@code Float.compare} does ({@code -0.0} first) and
   * return NaN when a value is NaN, where {@code Float.compare} would skip it for the min and take it for the
   * max: a row with a NaN is looked at again with {@code Float.compare}. On vectors where the JDK has them (about
   * 0.25 ns a value here, against 1.5 for one chain of plain comparisons and 0.8 for Math.min and max).
   */
  private void updateStats(float[] v, int offset, int length) {
    float min;
    float max;
    if (VECTORS) {
      VectorMinMax.minMax(v, offset, length, range);
      min = range[0];
      max = range[1];
    } else {
      min = v[offset];
      max = min;
      for (int k = offset + 1, end = offset + length; k < end; k++) {
        min = Math.min(min, v[k]);
        max = Math.max(max, v[k]);
      }
    }
    if (min != min || max != max) {
      min = v[offset];
      max = min;
      for (int k = offset + 1, end = offset + length; k < end; k++) {
        if (Float.compare(v[k], min) < 0) {
          min = v[k];
        }
        if (Float.compare(v[k], max) > 0) {
          max = v[k];
        }
      }
    }
    stats.updateStats(min);
    stats.updateStats(max);
  }

  /**
   * Levels (0 or 1: one bit wide) as RLE runs of the RLE/bit-packing hybrid (header: varint of count << 1; value:
   * one byte, the bit width rounded up to bytes), adjacent
   * equal runs merged. Each run is encoded when it ends, into a growing byte array.
   */
  static final class LevelRuns {
    private byte[] out = new byte[256];
    private int size;
    private int value = -1;
    private int count;

    void add(int level, int n) {
      if (n == 0) {
        return;
      }
      if (level == value) {
        count += n;
        return;
      }
      end();
      value = level;
      count = n;
    }

    private void end() {
      if (count == 0) {
        return;
      }
      if (size + 6 > out.length) {
        out = java.util.Arrays.copyOf(out, out.length * 2);
      }
      int header = count << 1;
      while ((header & ~0x7F) != 0) {
        out[size++] = (byte) ((header & 0x7F) | 0x80);
        header >>>= 7;
      }
      out[size++] = (byte) header;
      out[size++] = (byte) value;
      count = 0;
    }

    int bytes() {
      return size + 6;
    }

    byte[] encode() {
      end();
      value = -1;
      return java.util.Arrays.copyOf(out, size);
    }

    void clear() {
      size = 0;
      value = -1;
      count = 0;
    }
  }
}
