package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Appends the primitives of the wire format to a Netty {@link ByteBuf}, in the spirit of Lucene's DataOutput.
 * Fixed-width numbers are little-endian (the byte order of the hosts we run on, so bulk copies of int and float
 * arrays are plain memory copies); vInt/vLong use 7 bits per byte, low group first, high bit = more follows.
 *
 * <p>Bulk int[]/float[] copies go through one NIO view of the buffer's writable region rather than a per-element
 * loop: on a pooled direct buffer that is a single intrinsic copy (see {@code BulkCopyTest} for the measurement).
 */
public final class FrameWriter {
  private final ByteBuf buf;

  public FrameWriter(ByteBuf buf) {
    this.buf = buf;
  }

  /** The buffer written to; its writer index advances as values are written. */
  public ByteBuf buffer() {
    return buf;
  }

  public void writeByte(int v) {
    buf.writeByte(v);
  }

  public void writeBoolean(boolean v) {
    buf.writeByte(v ? 1 : 0);
  }

  public void writeInt(int v) {
    buf.writeIntLE(v);
  }

  public void writeLong(long v) {
    buf.writeLongLE(v);
  }

  public void writeFloat(float v) {
    buf.writeFloatLE(v);
  }

  /** 1-5 bytes; negative values take 5 (they are legal, just not compact). */
  public void writeVInt(int v) {
    while ((v & ~0x7F) != 0) {
      buf.writeByte((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf.writeByte(v);
  }

  /** 1-10 bytes; negative values take 10. */
  public void writeVLong(long v) {
    while ((v & ~0x7FL) != 0) {
      buf.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    buf.writeByte((int) v);
  }

  /** vInt byte length, then UTF-8 bytes. A null string is not representable: callers encode absence themselves. */
  public void writeString(String s) {
    writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }

  /** vInt length, then the bytes. */
  public void writeBytes(byte[] b) {
    writeVInt(b.length);
    buf.writeBytes(b);
  }

  /** vInt length, then the values (4 bytes each). */
  public void writeIntArray(int[] a) {
    writeVInt(a.length);
    writeInts(a, 0, a.length);
  }

  /** vInt length, then the values (4 bytes each). */
  public void writeFloatArray(float[] a) {
    writeVInt(a.length);
    writeFloats(a, 0, a.length);
  }

  /** {@code len} raw values, no length prefix. */
  public void writeInts(int[] a, int off, int len) {
    int bytes = Math.multiplyExact(len, Integer.BYTES);
    buf.ensureWritable(bytes);
    int at = buf.writerIndex();
    IntBuffer view = buf.nioBuffer(at, bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    view.put(a, off, len);
    buf.writerIndex(at + bytes);
  }

  /** {@code len} raw values, no length prefix. */
  public void writeFloats(float[] a, int off, int len) {
    int bytes = Math.multiplyExact(len, Float.BYTES);
    buf.ensureWritable(bytes);
    int at = buf.writerIndex();
    FloatBuffer view = buf.nioBuffer(at, bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
    view.put(a, off, len);
    buf.writerIndex(at + bytes);
  }

  /**
   * Gathers rows {@code rows[from..to)} of a row-major matrix ({@code width} values per row) as raw values, one
   * bulk copy per row into one view of the buffer: the halo-exchange send path, with no intermediate array.
   */
  public void writeGatheredRows(float[] matrix, int width, int[] rows, int from, int to) {
    int bytes = Math.multiplyExact(Math.multiplyExact(to - from, width), Float.BYTES);
    buf.ensureWritable(bytes);
    int at = buf.writerIndex();
    FloatBuffer view = buf.nioBuffer(at, bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
    int pos = 0;
    for (int i = from; i < to; i++) {
      view.put(pos, matrix, rows[i] * width, width);
      pos += width;
    }
    buf.writerIndex(at + bytes);
  }
}
