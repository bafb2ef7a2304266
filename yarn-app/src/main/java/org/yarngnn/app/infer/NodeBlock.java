package org.yarngnn.app.infer;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.Message;

/**
 * Node rows routed from the worker that read them to their owner during construction: ids, where they were
 * read (file index and row, to name a bad row), optional label and split, and {@code width} floats per node —
 * raw features, or with fusion the first layer's row-local transform of them.
 */
record NodeBlock(int file, long[] ids, long[] rows, int[] labels, byte[] splits, int width, float[] values)
    implements Message {
  static final byte TYPE = 32;

  int count() {
    return ids.length;
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 32 + ids.length * (8 + 8 + 5) + values.length * 4;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVInt(file);
    out.writeVInt(ids.length);
    out.writeVInt(width);
    out.writeBoolean(labels != null);
    long prev = 0;
    for (int i = 0; i < ids.length; i++) {
      out.writeLong(ids[i]);
      out.writeVLong(rows[i] - prev);
      prev = rows[i];
      if (labels != null) {
        out.writeVInt(labels[i] + 1);
        out.writeByte(splits[i]);
      }
    }
    out.writeFloats(values, 0, ids.length * width);
  }

  static NodeBlock read(FrameReader in) {
    int file = in.readVInt();
    int n = in.readVInt();
    int width = in.readVInt();
    boolean labelled = in.readBoolean();
    long[] ids = new long[n];
    long[] rows = new long[n];
    int[] labels = labelled ? new int[n] : null;
    byte[] splits = labelled ? new byte[n] : null;
    long prev = 0;
    for (int i = 0; i < n; i++) {
      ids[i] = in.readLong();
      prev += in.readVLong();
      rows[i] = prev;
      if (labelled) {
        labels[i] = in.readVInt() - 1;
        splits[i] = in.readByte();
      }
    }
    float[] values = new float[n * width];
    in.readFloats(values, 0, values.length);
    return new NodeBlock(file, ids, rows, labels, splits, width, values);
  }
}
