package org.yarngnn.app.infer;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.Message;

/**
 * Edges routed to the owner of their destination during construction, with the file and row they came from.
 * A {@code touch} block instead tells the owner of each {@code dst} id that the id occurs as an edge source
 * (under --missing-features zero the owner then adds it when it has no node row).
 */
record EdgeBlock(int file, int count, long[] src, long[] dst, long[] rows, float[] weights, boolean touch)
    implements Message {
  static final byte TYPE = 33;

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 16 + count * (8 + 8 + 5 + (weights == null ? 0 : 4));
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVInt(file);
    out.writeVInt(count);
    out.writeByte((weights != null ? 1 : 0) | (touch ? 2 : 0));
    long prev = 0;
    for (int i = 0; i < count; i++) {
      out.writeLong(src[i]);
      out.writeLong(dst[i]);
      // Rows of one block come from one file in increasing order: the delta takes a byte or two.
      out.writeVLong(rows[i] - prev);
      prev = rows[i];
    }
    if (weights != null) {
      out.writeFloats(weights, 0, count);
    }
  }

  static EdgeBlock read(FrameReader in) {
    int file = in.readVInt();
    int n = in.readVInt();
    int flags = in.readByte();
    boolean weighted = (flags & 1) != 0;
    long[] src = new long[n];
    long[] dst = new long[n];
    long[] rows = new long[n];
    long prev = 0;
    for (int i = 0; i < n; i++) {
      src[i] = in.readLong();
      dst[i] = in.readLong();
      prev += in.readVLong();
      rows[i] = prev;
    }
    float[] w = null;
    if (weighted) {
      w = new float[n];
      in.readFloats(w, 0, n);
    }
    return new EdgeBlock(file, n, src, dst, rows, w, (flags & 2) != 0);
  }
}
