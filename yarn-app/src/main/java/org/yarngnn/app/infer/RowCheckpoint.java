package org.yarngnn.app.infer;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * One partition's output rows of one finished layer, as a replacement worker reads them back. Little-endian:
 * magic {@code YGNNROWS} (8 bytes), int32 version (1), int32 layer, int32 partition, int32 rows, int32 width,
 * float32 values[rows * width] row-major in the partition's local order, then int64 the CRC-32C of every byte
 * before it. Written under a temporary name and renamed, so a file under its real name is complete.
 *
 * <p>A file is trusted for nothing: the reader knows the layer, partition, rows and width it expects, checks the
 * header against them and the file's length against the header before it allocates, and the checksum before it
 * returns; any mismatch is an {@link IOException} naming the file.
 */
final class RowCheckpoint {
  static final byte[] MAGIC = "YGNNROWS".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 1;
  static final int HEADER_BYTES = 8 + 5 * 4;
  static final int TRAILER_BYTES = 8;
  private static final int CHUNK_FLOATS = 1 << 16;

  private RowCheckpoint() {}

  /** The file's length for {@code rows} rows of {@code width} floats. */
  static long length(long rows, long width) {
    return HEADER_BYTES + 4L * rows * width + TRAILER_BYTES;
  }

  /** Writes {@code m} as layer {@code layer}'s rows of partition {@code partition} at {@code file}. */
  public static void write(Configuration conf, Path file, int layer, int partition, DenseMatrix m)
      throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    Path tmp = tempFile(file);
    CRC32C crc = new CRC32C();
    try (FSDataOutputStream out = fs.create(tmp, true)) {
      ByteBuffer head = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      head.put(MAGIC).putInt(VERSION).putInt(layer).putInt(partition).putInt(m.rows()).putInt(m.cols());
      put(out, crc, head.array(), HEADER_BYTES);
      float[] data = m.data();
      long total = (long) m.rows() * m.cols();
      ByteBuffer buf = ByteBuffer.allocate(4 * CHUNK_FLOATS).order(ByteOrder.LITTLE_ENDIAN);
      for (long at = 0; at < total; at += CHUNK_FLOATS) {
        int n = (int) Math.min(CHUNK_FLOATS, total - at);
        buf.clear();
        buf.asFloatBuffer().put(data, (int) at, n);
        put(out, crc, buf.array(), 4 * n);
      }
      ByteBuffer tail = ByteBuffer.allocate(TRAILER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      tail.putLong(crc.getValue());
      out.write(tail.array());
    }
    fs.delete(file, false);
    if (!fs.rename(tmp, file)) {
      throw new IOException("could not rename " + tmp + " to " + file);
    }
  }

  /**
   * A temporary name beside {@code file}, unique to this write: a worker of a dead ApplicationMaster attempt that
   * still writes the same checkpoint never shares it with the attempt that replaced it.
   */
  static Path tempFile(Path file) {
    return new Path(file.getParent(), "." + file.getName() + "." + java.util.UUID.randomUUID() + ".tmp");
  }

  /**
   * Why {@code file} is not a whole checkpoint of layer {@code layer}'s rows of partition {@code partition}
   * (missing, not a row checkpoint, another layer's or partition's, or not the length its header promises), or
   * null when it is one. Reads the header only: the checksum is checked by {@link #read} when the rows are used.
   */
  public static String problem(Configuration conf, Path file, int layer, int partition) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    if (!fs.exists(file)) {
      return file + ": missing";
    }
    long length = fs.getFileStatus(file).getLen();
    if (length < HEADER_BYTES + TRAILER_BYTES) {
      return file + ": " + length + " bytes, shorter than a row checkpoint";
    }
    byte[] head = new byte[HEADER_BYTES];
    try (DataInputStream in = new DataInputStream(fs.open(file))) {
      readFully(in, head, head.length, file.toString());
    }
    ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[MAGIC.length];
    h.get(magic);
    int version = h.getInt();
    int fileLayer = h.getInt();
    int filePartition = h.getInt();
    long rows = h.getInt();
    long width = h.getInt();
    if (!java.util.Arrays.equals(magic, MAGIC) || version != VERSION) {
      return file + ": not a row checkpoint of version " + VERSION;
    }
    if (fileLayer != layer || filePartition != partition || rows < 0 || width < 0) {
      return file + ": holds layer " + fileLayer + " of partition " + filePartition;
    }
    if (length != length(rows, width)) {
      return file + ": " + length + " bytes, not the " + length(rows, width) + " of its " + rows + "x" + width
          + " rows";
    }
    return null;
  }

  private static void put(OutputStream out, CRC32C crc, byte[] b, int n) throws IOException {
    crc.update(b, 0, n);
    out.write(b, 0, n);
  }

  /**
   * Reads layer {@code layer}'s rows of partition {@code partition} from {@code file}: exactly {@code rows} rows
   * of {@code width} floats, or an {@link IOException} naming the file and what differs.
   */
  public static DenseMatrix read(Configuration conf, Path file, int layer, int partition, int rows, int width)
      throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    long length = fs.getFileStatus(file).getLen();
    try (InputStream in = fs.open(file)) {
      return read(in, length, file.toString(), layer, partition, rows, width);
    }
  }

  /** As {@link #read(Configuration, Path, int, int, int, int)} from a stream of {@code length} bytes. */
  static DenseMatrix read(InputStream raw, long length, String name, int layer, int partition, int rows, int width)
      throws IOException {
    if (rows < 0 || width < 0) {
      throw new IllegalArgumentException("expected " + rows + "x" + width);
    }
    DataInputStream in = new DataInputStream(raw);
    CRC32C crc = new CRC32C();
    if (length < HEADER_BYTES + TRAILER_BYTES) {
      throw new IOException(name + ": " + length + " bytes, shorter than a row checkpoint's header");
    }
    byte[] head = new byte[HEADER_BYTES];
    readFully(in, head, head.length, name);
    crc.update(head, 0, head.length);
    ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[MAGIC.length];
    h.get(magic);
    if (!java.util.Arrays.equals(magic, MAGIC)) {
      throw new IOException(name + ": not a row checkpoint (bad magic)");
    }
    int version = h.getInt();
    if (version != VERSION) {
      throw new IOException(name + ": row checkpoint version " + version + ", this reader knows " + VERSION);
    }
    int fileLayer = h.getInt();
    int filePartition = h.getInt();
    int fileRows = h.getInt();
    int fileWidth = h.getInt();
    if (fileLayer != layer || filePartition != partition || fileRows != rows || fileWidth != width) {
      throw new IOException(name + ": holds layer " + fileLayer + " of partition " + filePartition + ", "
          + fileRows + "x" + fileWidth + "; expected layer " + layer + " of partition " + partition + ", " + rows
          + "x" + width);
    }
    // Before anything is allocated: the length must be exactly what the (expected) header promises.
    long payload = length - HEADER_BYTES - TRAILER_BYTES;
    if (payload % 4 != 0 || payload / 4 != (long) rows * width) {
      throw new IOException(name + ": " + length + " bytes, not the size of a checkpoint of " + rows + "x" + width
          + " rows");
    }
    long total = (long) rows * width;
    if (total > Integer.MAX_VALUE - 8) {
      throw new IOException(name + ": " + rows + "x" + width + " rows do not fit one matrix");
    }
    float[] data = new float[(int) total];
    byte[] buf = new byte[4 * CHUNK_FLOATS];
    for (long at = 0; at < total; at += CHUNK_FLOATS) {
      int n = (int) Math.min(CHUNK_FLOATS, total - at);
      readFully(in, buf, 4 * n, name);
      crc.update(buf, 0, 4 * n);
      ByteBuffer.wrap(buf, 0, 4 * n).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(data, (int) at, n);
    }
    byte[] tail = new byte[TRAILER_BYTES];
    readFully(in, tail, tail.length, name);
    long stored = ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).getLong();
    if (stored != crc.getValue()) {
      throw new IOException(name + ": checksum mismatch (stored " + Long.toHexString(stored) + ", computed "
          + Long.toHexString(crc.getValue()) + ")");
    }
    return new DenseMatrix(rows, width, data);
  }

  private static void readFully(DataInputStream in, byte[] b, int n, String name) throws IOException {
    try {
      in.readFully(b, 0, n);
    } catch (EOFException e) {
      throw new IOException(name + ": truncated row checkpoint", e);
    }
  }
}
