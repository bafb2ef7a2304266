package org.yarngnn.app.infer;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Credit;
import org.yarngnn.app.transport.StreamedMessage;

/**
 * Edges routed to the owner of their destination during construction, with the file and row they came from.
 * A {@code touch} block instead tells the owner of each {@code dst} id that the id occurs as an edge source
 * (under --missing-features zero the owner then adds it when it has no node row); its {@code src} is unused.
 *
 * <p>Wire form: ids as int32 arrays when every id of the block fits (node ids usually do: half the bytes), int64
 * otherwise; rows as vLong deltas (a block's rows come from one file in increasing order: a byte or two each),
 * packed into one byte array; all written and read in bulk. Credited by the transport on {@link #STREAM}: a
 * receiver releases each block once it has consumed it.
 */
final class EdgeBlock implements StreamedMessage {
  static final byte TYPE = 33;
  /** The credit stream of edge blocks (halo row blocks use the layer numbers, 0 and up). */
  static final int STREAM = -3;
  private static final int WEIGHTED = 1;
  private static final int TOUCH = 2;
  private static final int INT_IDS = 4;

  private final int file;
  private final int count;
  private final long[] src;
  private final long[] dst;
  private final long[] rows;
  private final float[] weights;
  private final boolean touch;
  private final Credit credit = new Credit();

  EdgeBlock(int file, int count, long[] src, long[] dst, long[] rows, float[] weights, boolean touch) {
    this.file = file;
    this.count = count;
    this.src = src;
    this.dst = dst;
    this.rows = rows;
    this.weights = weights;
    this.touch = touch;
  }

  int file() {
    return file;
  }

  int count() {
    return count;
  }

  long[] src() {
    return src;
  }

  long[] dst() {
    return dst;
  }

  long[] rows() {
    return rows;
  }

  float[] weights() {
    return weights;
  }

  boolean touch() {
    return touch;
  }

  @Override
  public int stream() {
    return STREAM;
  }

  @Override
  public Credit credit() {
    return credit;
  }

  @Override
  public String toString() {
    return "EdgeBlock[file " + file + ", " + count + (touch ? " touched ids" : " edges") + "]";
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 16 + count * (8 + 8 + 2 + (weights == null ? 0 : 4));
  }

  @Override
  public void writeBody(FrameWriter out) {
    boolean intIds = fitsInt(dst) && (touch || fitsInt(src));
    out.writeVInt(file);
    out.writeVInt(count);
    out.writeByte((weights != null ? WEIGHTED : 0) | (touch ? TOUCH : 0) | (intIds ? INT_IDS : 0));
    if (!touch) {
      writeIds(out, src, intIds);
    }
    writeIds(out, dst, intIds);
    out.writeBytes(packRows(rows, count));
    if (weights != null) {
      out.writeFloats(weights, 0, count);
    }
  }

  private boolean fitsInt(long[] ids) {
    for (int i = 0; i < count; i++) {
      if (ids[i] != (int) ids[i]) {
        return false;
      }
    }
    return true;
  }

  private void writeIds(FrameWriter out, long[] ids, boolean asInt) {
    if (asInt) {
      int[] narrow = new int[count];
      for (int i = 0; i < count; i++) {
        narrow[i] = (int) ids[i];
      }
      out.writeInts(narrow, 0, count);
    } else {
      for (int i = 0; i < count; i++) {
        out.writeLong(ids[i]);
      }
    }
  }

  private static long[] readIds(FrameReader in, int n, boolean asInt) {
    long[] ids = new long[n];
    if (asInt) {
      int[] narrow = new int[n];
      in.readInts(narrow, 0, n);
      for (int i = 0; i < n; i++) {
        ids[i] = narrow[i];
      }
    } else {
      for (int i = 0; i < n; i++) {
        ids[i] = in.readLong();
      }
    }
    return ids;
  }

  /** Rows {@code [0, n)} as vLong deltas (7 bits a byte, low group first), in an array of exactly their size. */
  static byte[] packRows(long[] rows, int n) {
    int size = 0;
    long prev = 0;
    for (int i = 0; i < n; i++) {
      long d = rows[i] - prev;
      prev = rows[i];
      size += d == 0 ? 1 : (64 - Long.numberOfLeadingZeros(d) + 6) / 7;
    }
    byte[] out = new byte[size];
    int p = 0;
    prev = 0;
    for (int i = 0; i < n; i++) {
      long d = rows[i] - prev;
      prev = rows[i];
      while ((d & ~0x7FL) != 0) {
        out[p++] = (byte) ((d & 0x7F) | 0x80);
        d >>>= 7;
      }
      out[p++] = (byte) d;
    }
    return out;
  }

  static long[] unpackRows(byte[] packed, int n) {
    long[] rows = new long[n];
    int p = 0;
    long prev = 0;
    for (int i = 0; i < n; i++) {
      long d = 0;
      int shift = 0;
      byte b;
      do {
        if (p == packed.length || shift > 63) {
          throw new MalformedFrameException("edge block rows end early or overflow");
        }
        b = packed[p++];
        d |= (long) (b & 0x7F) << shift;
        shift += 7;
      } while (b < 0);
      prev += d;
      rows[i] = prev;
    }
    if (p != packed.length) {
      throw new MalformedFrameException((packed.length - p) + " bytes left after the rows of an edge block");
    }
    return rows;
  }

  /**
   * Bounds: file index non-negative, known flags; n edges, each at least one or two ids (4 or 8 bytes each) + 1 row
   * byte + 4 if weighted, need n times that at most the bytes left, checked before anything is allocated; the
   * packed rows' byte count is at most the bytes left and must hold exactly n rows.
   */
  static EdgeBlock read(FrameReader in) {
    int file = FrameReader.nonNegative(in.readVInt(), "edge file index");
    int n = in.readVInt();
    int flags = in.readByte();
    if ((flags & ~(WEIGHTED | TOUCH | INT_IDS)) != 0) {
      throw new MalformedFrameException("edge block flags " + flags);
    }
    boolean touch = (flags & TOUCH) != 0;
    boolean intIds = (flags & INT_IDS) != 0;
    int idBytes = intIds ? Integer.BYTES : Long.BYTES;
    in.checkCount(n, (touch ? 1 : 2) * idBytes + 1 + ((flags & WEIGHTED) != 0 ? Float.BYTES : 0), "edges");
    long[] src = touch ? new long[n] : readIds(in, n, intIds);
    long[] dst = readIds(in, n, intIds);
    long[] rows = unpackRows(in.readBytes(), n);
    float[] w = null;
    if ((flags & WEIGHTED) != 0) {
      w = new float[n];
      in.readFloats(w, 0, n);
    }
    return new EdgeBlock(file, n, src, dst, rows, w, touch);
  }
}
