package org.yarngnn.partition.format;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Little-endian primitive arrays streamed through a 1 MiB buffer with a running CRC-32C, for the partition
 * files. Whole arrays go through {@link ByteBuffer} views, never one value at a time through a DataOutput.
 */
final class BlockFiles {
  private static final int BUF = 1 << 20;

  private BlockFiles() {}

  /** Writes primitives to a stream, tracking the byte count and CRC-32C of everything written. */
  static final class Out implements AutoCloseable {
    private final OutputStream out;
    private final ByteBuffer buf = ByteBuffer.allocate(BUF).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private long bytes;
    private boolean closed;

    Out(OutputStream out) {
      this.out = out;
    }

    Out magic(String magic) throws IOException {
      byte[] b = magic.getBytes(StandardCharsets.US_ASCII);
      room(b.length);
      buf.put(b);
      return this;
    }

    Out i32(int v) throws IOException {
      room(4);
      buf.putInt(v);
      return this;
    }

    Out i64(long v) throws IOException {
      room(8);
      buf.putLong(v);
      return this;
    }

    Out i8(int v) throws IOException {
      room(1);
      buf.put((byte) v);
      return this;
    }

    void longs(long[] a, int n) throws IOException {
      for (int off = 0; off < n;) {
        room(8);
        int k = Math.min(n - off, buf.remaining() / 8);
        buf.asLongBuffer().put(a, off, k);
        buf.position(buf.position() + 8 * k);
        off += k;
      }
    }

    void ints(int[] a, int n) throws IOException {
      for (int off = 0; off < n;) {
        room(4);
        int k = Math.min(n - off, buf.remaining() / 4);
        buf.asIntBuffer().put(a, off, k);
        buf.position(buf.position() + 4 * k);
        off += k;
      }
    }

    void floats(float[] a, int n) throws IOException {
      for (int off = 0; off < n;) {
        room(4);
        int k = Math.min(n - off, buf.remaining() / 4);
        buf.asFloatBuffer().put(a, off, k);
        buf.position(buf.position() + 4 * k);
        off += k;
      }
    }

    void bytes(byte[] a, int n) throws IOException {
      for (int off = 0; off < n;) {
        room(1);
        int k = Math.min(n - off, buf.remaining());
        buf.put(a, off, k);
        off += k;
      }
    }

    private void room(int n) throws IOException {
      if (buf.remaining() < n) {
        flush();
      }
    }

    private void flush() throws IOException {
      crc.update(buf.array(), 0, buf.position());
      out.write(buf.array(), 0, buf.position());
      bytes += buf.position();
      buf.clear();
    }

    long bytes() {
      return bytes + buf.position();
    }

    /** Flushes and closes; afterwards {@link #crc()} covers the whole file. */
    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        flush();
        out.close();
      }
    }

    long crc() {
      return crc.getValue();
    }
  }

  /** Reads what {@link Out} wrote, checking the CRC-32C at {@link #finish}. */
  static final class In implements AutoCloseable {
    private final InputStream in;
    private final String name;
    private final ByteBuffer buf = ByteBuffer.allocate(BUF).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private long bytes;

    In(InputStream in, String name) {
      this.in = in;
      this.name = name;
      buf.limit(0);
    }

    void magic(String magic) throws IOException {
      byte[] b = new byte[magic.length()];
      need(b.length);
      buf.get(b);
      if (!new String(b, StandardCharsets.US_ASCII).equals(magic)) {
        throw new IOException(name + ": not a " + magic + " file");
      }
    }

    int i32() throws IOException {
      need(4);
      return buf.getInt();
    }

    long i64() throws IOException {
      need(8);
      return buf.getLong();
    }

    int i8() throws IOException {
      need(1);
      return buf.get();
    }

    long[] longs(int n) throws IOException {
      long[] a = new long[n];
      for (int off = 0; off < n;) {
        need(8);
        int k = Math.min(n - off, buf.remaining() / 8);
        buf.asLongBuffer().get(a, off, k);
        buf.position(buf.position() + 8 * k);
        off += k;
      }
      return a;
    }

    int[] ints(int n) throws IOException {
      int[] a = new int[n];
      for (int off = 0; off < n;) {
        need(4);
        int k = Math.min(n - off, buf.remaining() / 4);
        buf.asIntBuffer().get(a, off, k);
        buf.position(buf.position() + 4 * k);
        off += k;
      }
      return a;
    }

    float[] floats(int n) throws IOException {
      float[] a = new float[n];
      for (int off = 0; off < n;) {
        need(4);
        int k = Math.min(n - off, buf.remaining() / 4);
        buf.asFloatBuffer().get(a, off, k);
        buf.position(buf.position() + 4 * k);
        off += k;
      }
      return a;
    }

    byte[] bytes(int n) throws IOException {
      byte[] a = new byte[n];
      for (int off = 0; off < n;) {
        need(1);
        int k = Math.min(n - off, buf.remaining());
        buf.get(a, off, k);
        off += k;
      }
      return a;
    }

    /** Refills so at least {@code n} bytes are buffered. */
    private void need(int n) throws IOException {
      if (buf.remaining() >= n) {
        return;
      }
      buf.compact();
      while (buf.position() < n) {
        int r = in.read(buf.array(), buf.position(), buf.capacity() - buf.position());
        if (r < 0) {
          throw new EOFException(name + ": truncated");
        }
        crc.update(buf.array(), buf.position(), r);
        bytes += r;
        buf.position(buf.position() + r);
      }
      buf.flip();
    }

    /** Checks that the file ends here with the expected size and CRC-32C. */
    void finish(long expectedBytes, long expectedCrc) throws IOException {
      if (buf.remaining() > 0 || in.read() >= 0) {
        throw new IOException(name + ": unexpected bytes after the data");
      }
      if (bytes != expectedBytes || crc.getValue() != expectedCrc) {
        throw new IOException(name + ": checksum mismatch (" + bytes + " bytes, crc32c "
            + Long.toHexString(crc.getValue()) + "; manifest says " + expectedBytes + " bytes, crc32c "
            + Long.toHexString(expectedCrc) + ")");
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
