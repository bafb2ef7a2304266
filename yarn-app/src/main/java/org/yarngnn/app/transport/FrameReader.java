package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads what {@link FrameWriter} wrote, from a Netty {@link ByteBuf}. Every length read from the wire is checked
 * against the bytes left in the frame before anything is allocated, so a corrupt or hostile frame fails with a
 * {@link MalformedFrameException} instead of an out-of-memory error.
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

  public String readString() {
    int n = readLength(1);
    String s = buf.toString(buf.readerIndex(), n, StandardCharsets.UTF_8);
    buf.skipBytes(n);
    return s;
  }

  public byte[] readBytes() {
    byte[] b = new byte[readLength(1)];
    buf.readBytes(b);
    return b;
  }

  public int[] readIntArray() {
    int[] a = new int[readLength(Integer.BYTES)];
    readInts(a, 0, a.length);
    return a;
  }

  public float[] readFloatArray() {
    float[] a = new float[readLength(Float.BYTES)];
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

  /** Reads a vInt element count and checks that many elements of {@code elementBytes} bytes remain. */
  private int readLength(int elementBytes) {
    int n = readVInt();
    if (n < 0) {
      throw new MalformedFrameException("negative length " + n);
    }
    need((long) n * elementBytes);
    return n;
  }

  private int need(long bytes) {
    if (bytes < 0 || bytes > buf.readableBytes()) {
      throw new MalformedFrameException("needs " + bytes + " bytes, frame has " + buf.readableBytes() + " left");
    }
    return (int) bytes;
  }
}
