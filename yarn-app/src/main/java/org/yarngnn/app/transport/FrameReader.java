package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads what {@link FrameWriter} wrote, from a Netty {@link ByteBuf}. Every read checks that its bytes are left in
 * the frame, so a truncated frame fails with a {@link MalformedFrameException} (never Netty's
 * IndexOutOfBoundsException), and every length or count read from the wire is checked against the bytes left
 * before anything is allocated for it ({@link #readCount}, {@link #checkCount}), so a corrupt or hostile frame
 * cannot make the reader allocate more than the frame could hold.
 */
public final class FrameReader {
  private final ByteBuf buf;

  public FrameReader(ByteBuf buf) {
    this.buf = buf;
  }

  /** The buffer read from; its reader index advances as values are read. */
  public ByteBuf buffer() {
    return buf;
  }

  public int remaining() {
    return buf.readableBytes();
  }

  public byte readByte() {
    need(1);
    return buf.readByte();
  }

  public boolean readBoolean() {
    byte b = readByte();
    if (b != 0 && b != 1) {
      throw new MalformedFrameException("boolean byte " + b);
    }
    return b == 1;
  }

  public int readInt() {
    need(Integer.BYTES);
    return buf.readIntLE();
  }

  public long readLong() {
    need(Long.BYTES);
    return buf.readLongLE();
  }

  public float readFloat() {
    need(Float.BYTES);
    return buf.readFloatLE();
  }

  /**
   * A float64 written as its int64 bits, refused unless finite: for a figure (a loss) that a NaN or an infinity
   * would poison once summed, and that a sender checks before sending.
   */
  public double readFiniteDouble(String what) {
    double v = Double.longBitsToDouble(readLong());
    if (!Double.isFinite(v)) {
      throw new MalformedFrameException(what + " " + v);
    }
    return v;
  }

  public int readVInt() {
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      byte b = readByte();
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new MalformedFrameException("vInt longer than 5 bytes");
  }

  public long readVLong() {
    long v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      byte b = readByte();
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new MalformedFrameException("vLong longer than 10 bytes");
  }

  /** vInt byte count (at most the bytes left), then UTF-8. */
  public String readString() {
    int n = readCount(1, "string bytes");
    String s = buf.toString(buf.readerIndex(), n, StandardCharsets.UTF_8);
    buf.skipBytes(n);
    return s;
  }

  /** vInt count (at most the bytes left), then the bytes. */
  public byte[] readBytes() {
    byte[] b = new byte[readCount(1, "bytes")];
    buf.readBytes(b);
    return b;
  }

  /** vInt count n (n * 4 at most the bytes left), then the values. */
  public int[] readIntArray() {
    int[] a = new int[readCount(Integer.BYTES, "ints")];
    readInts(a, 0, a.length);
    return a;
  }

  /** vInt count n (n * 4 at most the bytes left), then the values. */
  public float[] readFloatArray() {
    float[] a = new float[readCount(Float.BYTES, "floats")];
    readFloats(a, 0, a.length);
    return a;
  }

  /** {@code len} raw values into {@code dst[off..off+len)}. */
  public void readInts(int[] dst, int off, int len) {
    int bytes = need((long) len * Integer.BYTES);
    int at = buf.readerIndex();
    buf.nioBuffer(at, bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(dst, off, len);
    buf.readerIndex(at + bytes);
  }

  /** {@code len} raw values into {@code dst[off..off+len)}. */
  public void readFloats(float[] dst, int off, int len) {
    int bytes = need((long) len * Float.BYTES);
    int at = buf.readerIndex();
    buf.nioBuffer(at, bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(dst, off, len);
    buf.readerIndex(at + bytes);
  }

  /** Skips {@code bytes} bytes, checking they are there. */
  public void skip(long bytes) {
    buf.skipBytes(need(bytes));
  }

  /**
   * Reads a vInt count of {@code what} (for messages) whose elements take at least {@code minBytesEach} bytes each
   * on the wire, refusing a negative count and one whose elements could not fit in the bytes left: the bound to
   * check before allocating anything per element.
   */
  public int readCount(long minBytesEach, String what) {
    int n = readVInt();
    checkCount(n, minBytesEach, what);
    return n;
  }

  /**
   * Refuses a negative {@code count} and one whose elements, {@code minBytesEach} bytes each at least (0 or more),
   * exceed the bytes left in the frame. Overflow-free: compares {@code count} with {@code remaining / minBytesEach}.
   */
  public void checkCount(long count, long minBytesEach, String what) {
    if (count < 0) {
      throw new MalformedFrameException("negative " + what + " " + count);
    }
    if (minBytesEach < 0) {
      throw new IllegalArgumentException("minBytesEach " + minBytesEach);
    }
    if (minBytesEach > 0 && count > remaining() / minBytesEach) {
      throw new MalformedFrameException(count + " " + what + " of at least " + minBytesEach + " bytes each in a frame"
          + " with " + remaining() + " bytes left");
    }
  }

  /** Refuses a negative value of a field that must not be negative (a width, an index). */
  public static int nonNegative(int value, String what) {
    if (value < 0) {
      throw new MalformedFrameException("negative " + what + " " + value);
    }
    return value;
  }

  private int need(long bytes) {
    if (bytes < 0 || bytes > buf.readableBytes()) {
      throw new MalformedFrameException("needs " + bytes + " bytes, frame has " + buf.readableBytes() + " left");
    }
    return (int) bytes;
  }
}
