package org.yarngnn.partition;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The part of a shuffled block that every kind shares: the table file its rows came from, and each entry's table
 * row and a one-bit flag (the column, or "reversed"), kept only for error messages. Rows go out as zigzag varint
 * deltas (a few bytes an entry, since a file's rows ascend) followed by a flag bitmap; the reducer decodes them
 * only when it has a finding to report. Id columns are bit-packed ({@link #packLongs}). Columns are encoded into
 * one reusable byte array and written with a single call, since per-value {@code DataOutput} calls would cost more
 * than the shuffle saved.
 */
abstract class RowBlock {
  static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  static final VarHandle LONGS_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  static final VarHandle FLOATS = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.BIG_ENDIAN);
  /** Most bytes a zigzag varint of a long takes. */
  static final int MAX_VARINT = 10;

  int file;
  int count;
  long[] rows = new long[0];
  byte[] flags = new byte[0];
  /** The encoded block (map side: built by {@code write}; reduce side: as read, rows still encoded). */
  byte[] bytes = new byte[0];
  /** Where {@link #bytes} is kept between writes: shared by all blocks of one router, or this block's own. */
  private final Scratch scratch;

  /**
   * An encode buffer the blocks of one map task share (they are written one at a time), so map-side memory holds
   * one encoded block, not one per owner and kind.
   */
  static final class Scratch {
    private byte[] bytes = new byte[0];
  }

  RowBlock(Scratch scratch) {
    this.scratch = scratch;
  }
  private int rowCodesAt;
  private boolean rowsDecoded = true;

  /** Empties the block for rows of {@code file}. */
  void clear(int file) {
    this.file = file;
    this.count = 0;
    this.rowsDecoded = true;
  }

  /** Sizes the block for {@code capacity} entries and empties it for rows of {@code file}. */
  final void reserve(int capacity, int file) {
    ensureCapacity(capacity);
    clear(file);
  }

  /** Table row of entry {@code i}. */
  final long row(int i) {
    decodeRows();
    return rows[i];
  }

  /** Flag bit of entry {@code i}. */
  final int flag(int i) {
    decodeRows();
    return flags[i];
  }

  /** Grows the row columns (and the subclass's) to hold {@code n} entries. */
  void ensureCapacity(int n) {
    if (rows.length < n) {
      rows = Arrays.copyOf(rows, n);
      flags = Arrays.copyOf(flags, n);
    }
  }

  /** An encode buffer of at least {@code n} bytes. */
  final byte[] bytes(int n) {
    byte[] b = scratch.bytes;
    if (b.length < n) {
      b = scratch.bytes = new byte[Math.max(n, b.length + (b.length >> 1))];
    }
    bytes = b;
    return b;
  }

  /**
   * Writes the block: int file, int count, the kind's header ({@link #writeHeader}), int length, then
   * {@code length} bytes: the kind's columns ({@link #encodeColumns}) followed by the rows.
   */
  final void write(DataOutput out) throws IOException {
    byte[] b = bytes(maxColumnBytes() + maxRowBytes());
    int end = encodeRows(encodeColumns(b));
    out.writeInt(file);
    out.writeInt(count);
    writeHeader(out);
    out.writeInt(end);
    out.write(b, 0, end);
  }

  /** Reads a block written by {@link #write}; its rows are decoded on first use. */
  final void readFields(DataInput in) throws IOException {
    file = in.readInt();
    int n = in.readInt();
    if (n < 0) {
      throw new IOException("corrupt " + getClass().getSimpleName() + ": " + n + " entries");
    }
    readHeader(in);
    count = n;
    ensureCapacity(n);
    int length = in.readInt();
    if (length < 0) {
      throw new IOException("corrupt " + getClass().getSimpleName() + " of " + length + " bytes");
    }
    in.readFully(bytes(length + 8), 0, length);
    rowCodesAt = decodeColumns(bytes);
    rowsDecoded = false;
  }

  /** The kind's fields written before the columns (none by default). */
  void writeHeader(DataOutput out) throws IOException {
  }

  void readHeader(DataInput in) throws IOException {
  }

  /** Most bytes {@link #encodeColumns} writes for the current entries. */
  abstract int maxColumnBytes();

  /** Encodes the kind's columns into {@code b} from 0; returns the end. */
  abstract int encodeColumns(byte[] b);

  /** Decodes {@code count} entries' columns from {@code b} at 0 (8 spare bytes follow); returns the rows' start. */
  abstract int decodeColumns(byte[] b) throws IOException;

  /** Most bytes {@link #encodeRows} writes for {@code count} entries. */
  final int maxRowBytes() {
    return count * MAX_VARINT + (count + 7) / 8;
  }

  /** Appends the row varints and flag bitmap to {@code bytes} at {@code pos}; returns the end. */
  final int encodeRows(int pos) {
    byte[] b = bytes;
    long prev = 0;
    for (int i = 0; i < count; i++) {
      long d = rows[i] - prev;
      prev = rows[i];
      long v = (d << 1) ^ (d >> 63);
      while ((v & ~0x7fL) != 0) {
        b[pos++] = (byte) ((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      b[pos++] = (byte) v;
    }
    Arrays.fill(b, pos, pos + (count + 7) / 8, (byte) 0);
    for (int i = 0; i < count; i++) {
      b[pos + (i >>> 3)] |= (byte) ((flags[i] & 1) << (i & 7));
    }
    return pos + (count + 7) / 8;
  }

  /** Most bytes {@link #packLongs} takes for {@code count} values, with the 8 spare bytes it writes into. */
  static int maxPackedBytes(int count) {
    return 9 + count * 8 + 8;
  }

  /**
   * Frame-of-reference bit packing: the column's minimum (int64), a bit width w (int8), then each value minus the
   * minimum in w bits, little-endian bit order. The ids of one block usually span far less than 2^64 (a range
   * owner's ids span 2^20 for a million nodes), so an id takes a few bytes instead of 8; a span wider than 2^56
   * falls back to whole longs. Writes up to 8 zero bytes past the end it returns.
   */
  static int packLongs(long[] v, int count, byte[] b, int pos) {
    long min = count == 0 ? 0 : Long.MAX_VALUE;
    long max = count == 0 ? 0 : Long.MIN_VALUE;
    for (int i = 0; i < count; i++) {
      min = Math.min(min, v[i]);
      max = Math.max(max, v[i]);
    }
    // max - min is the span as an unsigned number, even when it overflows a signed long.
    int bits = 64 - Long.numberOfLeadingZeros(max - min);
    bits = bits > 56 ? 64 : bits;
    LONGS.set(b, pos, min);
    b[pos + 8] = (byte) bits;
    pos += 9;
    if (bits == 64) {
      for (int i = 0; i < count; i++, pos += 8) {
        LONGS_LE.set(b, pos, v[i] - min);
      }
      return pos;
    }
    int bytes = (int) (((long) count * bits + 7) >>> 3);
    Arrays.fill(b, pos, pos + bytes + 8, (byte) 0);
    long bit = 0;
    for (int i = 0; i < count; i++, bit += bits) {
      int at = pos + (int) (bit >>> 3);
      LONGS_LE.set(b, at, (long) LONGS_LE.get(b, at) | ((v[i] - min) << (bit & 7)));
    }
    return pos + bytes;
  }

  /** Unpacks {@code count} values written by {@link #packLongs} at {@code pos} into {@code out}; returns the end. */
  static int unpackLongs(byte[] b, int pos, long[] out, int count) throws IOException {
    long min = (long) LONGS.get(b, pos);
    int bits = b[pos + 8];
    pos += 9;
    if (bits == 64) {
      for (int i = 0; i < count; i++, pos += 8) {
        out[i] = min + (long) LONGS_LE.get(b, pos);
      }
      return pos;
    }
    if (bits < 0 || bits > 56) {
      throw new IOException("corrupt block: ids packed in " + bits + " bits");
    }
    long mask = (1L << bits) - 1;
    long bit = 0;
    for (int i = 0; i < count; i++, bit += bits) {
      out[i] = min + (((long) LONGS_LE.get(b, pos + (int) (bit >>> 3)) >>> (bit & 7)) & mask);
    }
    return pos + (int) (((long) count * bits + 7) >>> 3);
  }

  private void decodeRows() {
    if (rowsDecoded) {
      return;
    }
    ensureCapacity(count);
    byte[] b = bytes;
    int pos = rowCodesAt;
    long prev = 0;
    for (int i = 0; i < count; i++) {
      long v = 0;
      int shift = 0;
      byte x;
      do {
        x = b[pos++];
        v |= (long) (x & 0x7f) << shift;
        shift += 7;
      } while (x < 0);
      prev += (v >>> 1) ^ -(v & 1);
      rows[i] = prev;
    }
    for (int i = 0; i < count; i++) {
      flags[i] = (byte) ((b[pos + (i >>> 3)] >>> (i & 7)) & 1);
    }
    rowsDecoded = true;
  }
}
