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
abstract class ShuffleBlock {
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
  /**
   * The encoded block (map side: built by {@code write}; reduce side: as read, rows still encoded; or the caller's
   * array that {@link #decode} decoded in place).
   */
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

  ShuffleBlock(Scratch scratch) {
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

  /** Copies the shared columns (file, count, rows, flags) into {@code c}, sized to the entries. */
  final <T extends ShuffleBlock> T copyRowsTo(T c) {
    decodeRows();
    c.file = file;
    c.count = count;
    c.rows = Arrays.copyOf(rows, count);
    c.flags = Arrays.copyOf(flags, count);
    return c;
  }

  /** A copy of the block that owns its arrays (the router reuses its blocks after emitting them). */
  abstract ShuffleBlock copy();

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

  private int scratchCapacity() {
    return scratch.bytes.length;
  }

  /** An encode buffer of at least {@code n} bytes (its contents kept when it grows). */
  final byte[] bytes(int n) {
    byte[] b = scratch.bytes;
    if (b.length < n) {
      b = scratch.bytes = Arrays.copyOf(b, Math.max(n, b.length + (b.length >> 1)));
    }
    bytes = b;
    return b;
  }

  /**
   * Writes the block: int file, int count, the kind's header ({@link #writeHeader}), int length, then
   * {@code length} bytes: the kind's columns ({@link #encodeColumns}) followed by the rows.
   */
  final void write(DataOutput out) throws IOException {
    decodeRows();
    byte[] b = bytes(maxColumnBytes() + maxRowBytes());
    int end = encodeRows(b, encodeColumns(b, 0));
    out.writeInt(file);
    out.writeInt(count);
    writeHeader(out);
    out.writeInt(end);
    out.write(b, 0, end);
  }

  /**
   * The block in the form {@link #write} writes, encoded straight into an array of exactly its length (sized by
   * {@link #columnBytes} and {@link #rowBytes} first), so that nothing is copied on the way to a peer.
   */
  final byte[] encode() {
    decodeRows();
    int head = headerBytes();
    int length = Math.addExact(columnBytes(), rowBytes());
    byte[] b = new byte[Math.addExact(head, length)];
    INTS.set(b, 0, file);
    INTS.set(b, 4, count);
    putHeader(b, 8);
    INTS.set(b, head - 4, length);
    int end = encodeRows(b, encodeColumns(b, head));
    if (end != b.length) {
      throw new IllegalStateException(getClass().getSimpleName() + " of " + b.length + " bytes encoded in " + end);
    }
    return b;
  }

  /**
   * Decodes a block encoded by {@link #encode} (or {@link #write}) from exactly {@code b[off, off + len)}, in
   * place: the columns are decoded from {@code b} itself, and the block keeps {@code b} for its rows, decoded on
   * first use, so the caller must leave it unchanged. Every count and length is checked against {@code len}
   * before anything is sized by it, and the block must use all {@code len} bytes; corrupt bytes fail with an
   * {@link IOException}.
   */
  final void decode(byte[] b, int off, int len) throws IOException {
    int head = headerBytes();
    if (off < 0 || len < 0 || off > b.length - len) {
      throw new IndexOutOfBoundsException(len + " bytes at " + off + " of " + b.length);
    }
    if (len < head) {
      throw corrupt("it ends early, " + len + " bytes");
    }
    file = (int) INTS.get(b, off);
    int n = (int) INTS.get(b, off + 4);
    if (n < 0) {
      throw corrupt(n + " entries");
    }
    readHeader(b, off + 8);
    int length = (int) INTS.get(b, off + head - 4);
    if (length < 0 || length > len - head) {
      throw corrupt("length " + length + (length < 0 ? "" : " beyond the " + (len - head) + " bytes left"));
    }
    if (length != len - head) {
      throw corrupt((len - head - length) + " bytes past its end");
    }
    if (n > length || (long) n * minEntryBytes() > length) {
      throw corrupt(n + " entries in " + length + " bytes");
    }
    count = n;
    ensureCapacity(n);
    bytes = b;
    int start = off + head;
    rowCodesAt = decodeColumns(b, start, start + length);
    checkRows(start + length);
    rowsDecoded = false;
  }

  /** Reads a block written by {@link #write}; its rows are decoded on first use. */
  final void readFields(DataInput in) throws IOException {
    readFields(in, Long.MAX_VALUE);
  }

  /**
   * Reads a block written by {@link #write} from input that holds at most {@code limit} more bytes (unknown:
   * {@code Long.MAX_VALUE}). Every count and length is checked against the bytes that can hold it before anything
   * is sized by it: an entry takes at least one byte (its row), so a count larger than the block's length is
   * refused, and a length larger than {@code limit} too; when the limit is unknown, a long block is read in
   * growing pieces, so input that ends early fails before the claimed length is allocated. Columns and rows are
   * checked to end within the length. Corrupt input fails with an {@link IOException}.
   */
  final void readFields(DataInput in, long limit) throws IOException {
    file = in.readInt();
    int n = in.readInt();
    if (n < 0) {
      throw corrupt(n + " entries");
    }
    readHeader(in);
    int length = in.readInt();
    if (length < 0 || length > limit - headerBytes()) {
      throw corrupt("length " + length + (length < 0 ? "" : " beyond the " + (limit - headerBytes())
          + " bytes left"));
    }
    if (n > length || (long) n * minEntryBytes() > length) {
      throw corrupt(n + " entries in " + length + " bytes");
    }
    readPayload(in, length, limit != Long.MAX_VALUE);
    count = n;
    ensureCapacity(n);
    rowCodesAt = decodeColumns(bytes, 0, length);
    checkRows(length);
    rowsDecoded = false;
  }

  /** Bytes of the fixed fields before the payload: file, count, the kind's header and the length. */
  private int headerBytes() {
    return 12 + kindHeaderBytes();
  }

  /** Fewest payload bytes an entry of the kind takes, as read in its header: its row's varint at least. */
  long minEntryBytes() {
    return 1;
  }

  /** Bytes the kind's header takes ({@link #writeHeader}). */
  int kindHeaderBytes() {
    return 0;
  }

  private void readPayload(DataInput in, int length, boolean bounded) throws IOException {
    final int piece = 1 << 20;
    if (bounded || length <= piece || scratchCapacity() >= length + 8) {
      in.readFully(bytes(length + 8), 0, length);
      return;
    }
    // The length is only a claim until its bytes arrive: grow with them.
    int done = 0;
    while (done < length) {
      int next = (int) Math.min(length, Math.max(piece, 2L * done));
      byte[] b = bytes(next + 8);
      in.readFully(b, done, next - done);
      done = next;
    }
  }

  final IOException corrupt(String what) {
    return new IOException("corrupt " + getClass().getSimpleName() + ": " + what);
  }

  static IOException corruptBlock(String what) {
    return new IOException("corrupt block: " + what);
  }

  /** Checks that {@code need} bytes from {@code pos} end within {@code end}; returns where they end. */
  static int within(int pos, long need, int end) throws IOException {
    if (need < 0 || pos + need > end) {
      throw corruptBlock(need + " bytes at " + pos + " past the end at " + end);
    }
    return (int) (pos + need);
  }

  /** The row varints from {@link #rowCodesAt}: exactly {@code count} of them, then the flag bitmap, then the end. */
  private void checkRows(int end) throws IOException {
    int flagsAt = end - (count + 7) / 8;
    if (flagsAt < rowCodesAt) {
      throw corrupt("rows past the end at " + end);
    }
    byte[] b = bytes;
    int ends = 0;
    int run = 0;
    for (int pos = rowCodesAt; pos < flagsAt; pos++) {
      if (b[pos] >= 0) {
        ends++;
        run = 0;
      } else if (++run >= MAX_VARINT) {
        throw corrupt("row varint longer than " + MAX_VARINT + " bytes");
      }
    }
    if (ends != count || (flagsAt > rowCodesAt && b[flagsAt - 1] < 0)) {
      throw corrupt(ends + " rows for " + count + " entries");
    }
  }

  /** The kind's fields written before the columns (none by default): {@link #kindHeaderBytes} bytes. */
  void writeHeader(DataOutput out) throws IOException {
  }

  void readHeader(DataInput in) throws IOException {
  }

  /** Puts the kind's header ({@link #writeHeader}) into {@code b} at {@code pos}. */
  void putHeader(byte[] b, int pos) {
  }

  /** Reads the kind's header ({@link #readHeader}) from {@code b} at {@code pos}. */
  void readHeader(byte[] b, int pos) throws IOException {
  }

  /** Most bytes {@link #encodeColumns} writes for the current entries. */
  abstract int maxColumnBytes();

  /** Exactly the bytes {@link #encodeColumns} writes for the current entries. */
  abstract int columnBytes();

  /** Encodes the kind's columns into {@code b} from {@code pos}, writing nothing past their end; returns the end. */
  abstract int encodeColumns(byte[] b, int pos);

  /**
   * Decodes {@code count} entries' columns from {@code b} at {@code pos}, checking they end within {@code end};
   * returns the rows' start.
   */
  abstract int decodeColumns(byte[] b, int pos, int end) throws IOException;

  /** Most bytes {@link #encodeRows} writes for {@code count} entries. */
  final int maxRowBytes() {
    return count * MAX_VARINT + (count + 7) / 8;
  }

  /** Exactly the bytes {@link #encodeRows} writes: each row's varint, then the flag bitmap. */
  final int rowBytes() {
    long n = (count + 7) / 8;
    long prev = 0;
    for (int i = 0; i < count; i++) {
      long d = rows[i] - prev;
      prev = rows[i];
      long v = (d << 1) ^ (d >> 63);
      n += 1 + (63 - Long.numberOfLeadingZeros(v | 1)) / 7;
    }
    return Math.toIntExact(n);
  }

  /** Appends the row varints and flag bitmap to {@code b} at {@code pos}; returns the end. */
  final int encodeRows(byte[] b, int pos) {
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

  /** Most bytes {@link #packLongs} takes for {@code count} values. */
  static int maxPackedBytes(int count) {
    return 9 + count * 8;
  }

  /** Bits per value that {@link #packLongs} uses for values spanning {@code max - min} (unsigned). */
  private static int packBits(long min, long max) {
    int bits = 64 - Long.numberOfLeadingZeros(max - min);
    return bits > 56 ? 64 : bits;
  }

  /** Exactly the bytes {@link #packLongs} takes for {@code v[0, count)}. */
  static int packedBytes(long[] v, int count) {
    long min = count == 0 ? 0 : Long.MAX_VALUE;
    long max = count == 0 ? 0 : Long.MIN_VALUE;
    for (int i = 0; i < count; i++) {
      min = Math.min(min, v[i]);
      max = Math.max(max, v[i]);
    }
    return Math.toIntExact(9 + (((long) count * packBits(min, max) + 7) >>> 3));
  }

  /**
   * Frame-of-reference bit packing: the column's minimum (int64), a bit width w (int8), then each value minus the
   * minimum in w bits, little-endian bit order. The ids of one block usually span far less than 2^64 (a range
   * owner's ids span 2^20 for a million nodes), so an id takes a few bytes instead of 8; a span wider than 2^56
   * falls back to whole longs. Writes exactly {@link #packedBytes} bytes, nothing past the end it returns.
   */
  static int packLongs(long[] v, int count, byte[] b, int pos) {
    long min = count == 0 ? 0 : Long.MAX_VALUE;
    long max = count == 0 ? 0 : Long.MIN_VALUE;
    for (int i = 0; i < count; i++) {
      min = Math.min(min, v[i]);
      max = Math.max(max, v[i]);
    }
    // max - min is the span as an unsigned number, even when it overflows a signed long.
    int bits = packBits(min, max);
    LONGS.set(b, pos, min);
    b[pos + 8] = (byte) bits;
    pos += 9;
    if (bits == 64) {
      for (int i = 0; i < count; i++, pos += 8) {
        LONGS_LE.set(b, pos, v[i] - min);
      }
      return pos;
    }
    // Values gather in a 64-bit word, stored whole when full; the last word's used bytes one by one.
    long word = 0;
    int fill = 0;
    for (int i = 0; i < count; i++) {
      long x = v[i] - min;
      word |= x << fill;
      fill += bits;
      if (fill >= 64) {
        LONGS_LE.set(b, pos, word);
        pos += 8;
        fill -= 64;
        word = fill == 0 ? 0 : x >>> (bits - fill);
      }
    }
    for (; fill > 0; fill -= 8, word >>>= 8) {
      b[pos++] = (byte) word;
    }
    return pos;
  }

  /**
   * Unpacks {@code count} values written by {@link #packLongs} at {@code pos} into {@code out}, checking they end
   * within {@code end}; returns the end. Reads nothing past the end of {@code b}.
   */
  static int unpackLongs(byte[] b, int pos, long[] out, int count, int end) throws IOException {
    within(pos, 9, end);
    long min = (long) LONGS.get(b, pos);
    int bits = b[pos + 8];
    pos += 9;
    if (bits == 64) {
      within(pos, 8L * count, end);
      for (int i = 0; i < count; i++, pos += 8) {
        out[i] = min + (long) LONGS_LE.get(b, pos);
      }
      return pos;
    }
    if (bits < 0 || bits > 56) {
      throw corruptBlock("ids packed in " + bits + " bits");
    }
    int stop = within(pos, ((long) count * bits + 7) >>> 3, end);
    long mask = (1L << bits) - 1;
    long bit = 0;
    int i = 0;
    // A value is read as the 8 bytes from its first; near the end of the array, byte by byte up to the stop.
    for (int last = b.length - 8; i < count; i++, bit += bits) {
      int at = pos + (int) (bit >>> 3);
      if (at > last) {
        break;
      }
      out[i] = min + (((long) LONGS_LE.get(b, at) >>> (bit & 7)) & mask);
    }
    for (; i < count; i++, bit += bits) {
      int at = pos + (int) (bit >>> 3);
      long word = 0;
      for (int k = 0; at + k < stop && k < 8; k++) {
        word |= (b[at + k] & 0xffL) << (8 * k);
      }
      out[i] = min + ((word >>> (bit & 7)) & mask);
    }
    return stop;
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
