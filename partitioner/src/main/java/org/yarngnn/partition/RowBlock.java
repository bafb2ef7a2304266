package org.yarngnn.partition;

import java.io.DataInput;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The part of a shuffled block that every kind shares: the table file its rows came from, and each entry's table
 * row and a one-bit flag (the column, or "reversed"), kept only for error messages. Rows go out as zigzag varint
 * deltas (a few bytes an entry, since a file's rows ascend) followed by a flag bitmap; the reducer decodes them
 * only when it has a finding to report. Columns are encoded into one reusable byte array and written with a
 * single call, since per-value {@code DataOutput} calls would cost more than the shuffle saved.
 */
abstract class RowBlock {
  static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  static final VarHandle FLOATS = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.BIG_ENDIAN);
  /** Most bytes a zigzag varint of a long takes. */
  static final int MAX_VARINT = 10;

  int file;
  int count;
  long[] rows = new long[0];
  byte[] flags = new byte[0];
  /** The encoded block (map side: built by {@link #encode}; reduce side: as read, rows still encoded). */
  byte[] bytes = new byte[0];
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
    if (bytes.length < n) {
      bytes = new byte[Math.max(n, bytes.length + (bytes.length >> 1))];
    }
    return bytes;
  }

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

  /** Reads {@code length} encoded bytes; the rows from {@code rowCodesAt} on are decoded on first use. */
  final void readBytes(DataInput in, int length, int rowCodesAt) throws IOException {
    in.readFully(bytes(length), 0, length);
    this.rowCodesAt = rowCodesAt;
    this.rowsDecoded = false;
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

  static void checkCount(int count, String what) throws IOException {
    if (count < 0) {
      throw new IOException("corrupt " + what + " block: " + count + " entries");
    }
  }
}
