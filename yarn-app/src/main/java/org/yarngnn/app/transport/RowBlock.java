package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;

/**
 * A chunk of float32 rows with their int32 row indices: the unit of bulk data between workers (halo rows of one
 * layer, later training tensors). {@code stream} names the flow a block belongs to (credit is granted per
 * stream), {@code layer} and {@code chunk} place it, {@code last} marks the final chunk of the stream's current
 * exchange. Values are row-major, {@code rowCount() * width()} of them.
 *
 * <p>Outbound blocks wrap the caller's arrays without copying; they are encoded when credit allows, so the arrays
 * must stay unchanged until {@link PeerConnection#send} completes (or {@link PeerConnection#sendBlocking}
 * returns). Inbound blocks are views of a pooled direct buffer: read them with {@link #row}, {@link #copyRowTo} or
 * {@link #copyValuesTo}, then call {@link #release()} exactly once, which frees the buffer and returns the credit
 * to the sender. Extra release calls are ignored.
 */
public final class RowBlock implements StreamedMessage {
  /** Fixed header after the type byte: stream, layer, chunk (int32 each), flags (byte), width, count (int32). */
  static final int HEADER_BYTES = 3 * Integer.BYTES + 1 + 2 * Integer.BYTES;
  private static final int FLAG_LAST = 1;
  /**
   * Bytes of rows one block should carry at most: its frame then stays inside one of Netty's pooled 4 MiB chunks.
   * A larger frame is a fresh direct buffer on each side, zeroed and page-faulted in every time (with 8 MiB frames
   * this was 1.4 of the 20 CPU-seconds of a 2-worker gcn run, halved at 2 MiB).
   */
  public static final int FRAME_ROW_BYTES = 2 << 20;

  private final int stream;
  private final int layer;
  private final int chunk;
  private final boolean last;
  private final int width;
  private final int rowCount;

  // Outbound: rows[from..from+rowCount) with values packed row-major, or gathered from a matrix by row index.
  private final int[] rows;
  private final int from;
  private final float[] values;
  private final boolean gather;

  // Inbound: the frame buffer, where rows and values start in it, and what release() must do besides freeing it.
  private final ByteBuf body;
  private final int rowsIndex;
  private final FloatBuffer valuesView;
  private final Credit credit = new Credit();

  /** Rows of {@code width} floats that one block carries within {@link #FRAME_ROW_BYTES} (at least one). */
  public static int rowsPerFrame(int width) {
    return (int) Math.max(1, FRAME_ROW_BYTES / (4L * width + 4));
  }

  /** A block of {@code rows.length} rows whose values are packed row-major in {@code values}. */
  public RowBlock(int stream, int layer, int chunk, boolean last, int[] rows, float[] values, int width) {
    this(stream, layer, chunk, last, rows, 0, rows.length, values, width, false);
    if ((long) rows.length * width != values.length) {
      throw new IllegalArgumentException(values.length + " values for " + rows.length + " rows of width " + width);
    }
  }

  /**
   * A block of rows {@code rows[from..to)} whose values are gathered at encode time from row {@code rows[i]} of
   * the row-major {@code matrix} ({@code width} columns): the halo send path, no staging copy.
   */
  public static RowBlock gather(
      int stream, int layer, int chunk, boolean last, int[] rows, int from, int to, float[] matrix, int width) {
    if (from < 0 || to > rows.length || from > to) {
      throw new IndexOutOfBoundsException("rows [" + from + ", " + to + ") of " + rows.length);
    }
    long matrixRows = width == 0 ? Long.MAX_VALUE : matrix.length / width;
    for (int i = from; i < to; i++) {
      if (rows[i] < 0 || rows[i] >= matrixRows) {
        throw new IndexOutOfBoundsException("row " + rows[i] + " of a " + matrixRows + "-row matrix");
      }
    }
    return new RowBlock(stream, layer, chunk, last, rows, from, to - from, matrix, width, true);
  }

  private RowBlock(
      int stream, int layer, int chunk, boolean last, int[] rows, int from, int count, float[] values, int width,
      boolean gather) {
    if (width < 0) {
      throw new IllegalArgumentException("width " + width);
    }
    this.stream = stream;
    this.layer = layer;
    this.chunk = chunk;
    this.last = last;
    this.width = width;
    this.rowCount = count;
    this.rows = rows;
    this.from = from;
    this.values = values;
    this.gather = gather;
    this.body = null;
    this.rowsIndex = 0;
    this.valuesView = null;
    checkSize(count, width);
  }

  private RowBlock(int stream, int layer, int chunk, boolean last, int width, int count, ByteBuf body) {
    this.stream = stream;
    this.layer = layer;
    this.chunk = chunk;
    this.last = last;
    this.width = width;
    this.rowCount = count;
    this.rows = null;
    this.from = 0;
    this.values = null;
    this.gather = false;
    this.body = body;
    this.rowsIndex = body.readerIndex();
    int valuesIndex = rowsIndex + count * Integer.BYTES;
    this.valuesView = body.nioBuffer(valuesIndex, count * width * Float.BYTES)
        .order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
  }

  private static void checkSize(long count, long width) {
    if (HEADER_BYTES + count * Integer.BYTES + count * width * Float.BYTES > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException(count + " rows of width " + width + " do not fit one frame; chunk them");
    }
  }

  @Override
  public int stream() {
    return stream;
  }

  public int layer() {
    return layer;
  }

  public int chunk() {
    return chunk;
  }

  public boolean last() {
    return last;
  }

  public int width() {
    return width;
  }

  public int rowCount() {
    return rowCount;
  }

  /** The row index of the {@code i}-th row of this block. */
  public int row(int i) {
    if (i < 0 || i >= rowCount) {
      throw new IndexOutOfBoundsException("row " + i + " of " + rowCount);
    }
    return body == null ? rows[from + i] : body.getIntLE(rowsIndex + i * Integer.BYTES);
  }

  /** Copies the values of the {@code i}-th row to {@code dst[dstOffset..dstOffset+width)}. */
  public void copyRowTo(int i, float[] dst, int dstOffset) {
    if (i < 0 || i >= rowCount) {
      throw new IndexOutOfBoundsException("row " + i + " of " + rowCount);
    }
    if (body != null) {
      valuesView.get(i * width, dst, dstOffset, width);
    } else {
      int src = gather ? rows[from + i] * width : i * width;
      System.arraycopy(values, src, dst, dstOffset, width);
    }
  }

  /** Copies all values, row-major, to {@code dst[dstOffset..dstOffset+rowCount*width)}. */
  public void copyValuesTo(float[] dst, int dstOffset) {
    if (body != null) {
      valuesView.get(0, dst, dstOffset, rowCount * width);
    } else if (!gather) {
      System.arraycopy(values, 0, dst, dstOffset, rowCount * width);
    } else {
      for (int i = 0; i < rowCount; i++) {
        copyRowTo(i, dst, dstOffset + i * width);
      }
    }
  }

  /** A fresh copy of the row indices. */
  public int[] rows() {
    int[] out = new int[rowCount];
    if (body == null) {
      System.arraycopy(rows, from, out, 0, rowCount);
    } else {
      body.nioBuffer(rowsIndex, rowCount * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
    }
    return out;
  }

  /** A fresh copy of the values, row-major. */
  public float[] values() {
    float[] out = new float[rowCount * width];
    copyValuesTo(out, 0);
    return out;
  }

  /** Body bytes of this block on the wire (the frame adds 5: length and type). */
  public int bodyBytes() {
    return HEADER_BYTES + rowCount * Integer.BYTES + rowCount * width * Float.BYTES;
  }

  /**
   * Frees an inbound block's buffer and returns its credit to the sender; call once the rows have been consumed.
   * Extra calls, and calls on outbound blocks, do nothing.
   */
  @Override
  public void release() {
    if (body != null) {
      credit.release(body::release);
    }
  }

  /** Whether {@link #release()} has been called on this inbound block. */
  @Override
  public boolean isReleased() {
    return credit.isReleased();
  }

  @Override
  public Credit credit() {
    return credit;
  }

  @Override
  public byte type() {
    return MessageCodec.ROW_BLOCK;
  }

  @Override
  public int bodySizeHint() {
    return bodyBytes();
  }

  @Override
  public void writeBody(FrameWriter out) {
    if (body != null) {
      throw new IllegalStateException("an inbound block cannot be sent again; copy its rows into a new block");
    }
    out.writeInt(stream);
    out.writeInt(layer);
    out.writeInt(chunk);
    out.writeByte(last ? FLAG_LAST : 0);
    out.writeInt(width);
    out.writeInt(rowCount);
    out.writeInts(rows, from, rowCount);
    if (gather) {
      out.writeGatheredRows(values, width, rows, from, from + rowCount);
    } else {
      out.writeFloats(values, 0, rowCount * width);
    }
  }

  /**
   * Decodes a block that keeps {@code in}'s buffer: the caller hands its reference over to the block. Bounds:
   * stream not -1 (the every-stream grant), known flags, width and count non-negative, and the body exactly
   * {@code count * 4 + count * width * 4} bytes after the header (checked by division, no overflow); nothing is
   * allocated, the block is a view of the frame.
   */
  static RowBlock read(FrameReader in) {
    int stream = in.readInt();
    int layer = in.readInt();
    int chunk = in.readInt();
    byte flags = in.readByte();
    int width = in.readInt();
    int count = in.readInt();
    long left = in.remaining();
    boolean fits = width >= 0 && count >= 0 && (long) count * Integer.BYTES <= left
        && (count == 0 ? left == 0
            : (left - (long) count * Integer.BYTES) % ((long) count * Float.BYTES) == 0
                && (left - (long) count * Integer.BYTES) / ((long) count * Float.BYTES) == width);
    if ((flags & ~FLAG_LAST) != 0 || stream == CreditGrant.EVERY_STREAM || !fits) {
      throw new MalformedFrameException("row block on stream " + stream + " of " + count + " rows of width " + width
          + " (flags " + flags + ") in " + left + " bytes");
    }
    return new RowBlock(stream, layer, chunk, (flags & FLAG_LAST) != 0, width, count, in.buffer());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowBlock b && b.stream == stream && b.layer == layer && b.chunk == chunk && b.last == last
        && b.width == width && Arrays.equals(b.rows(), rows()) && Arrays.equals(b.values(), values());
  }

  @Override
  public int hashCode() {
    return ((stream * 31 + layer) * 31 + chunk) * 31 + rowCount;
  }

  @Override
  public String toString() {
    return "RowBlock[stream " + stream + ", layer " + layer + ", chunk " + chunk + (last ? " (last)" : "") + ", "
        + rowCount + " rows x " + width + "]";
  }
}
