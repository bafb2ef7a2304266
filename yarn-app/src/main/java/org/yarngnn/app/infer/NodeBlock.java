package org.yarngnn.app.infer;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Credit;
import org.yarngnn.app.transport.StreamedMessage;

/**
 * Node rows routed from the worker that read them to their owner during construction: ids, where they were
 * read (file index and row, to name a bad row), optional label and split, and {@code width} floats per node —
 * raw features, or with fusion the first layer's row-local transform of them. Credited by the transport on
 * {@link #STREAM}: a receiver releases each block once it has consumed it.
 */
final class NodeBlock implements StreamedMessage {
  static final byte TYPE = 32;
  /** The credit stream of node blocks (halo row blocks use the layer numbers, 0 and up). */
  static final int STREAM = -2;

  private final int file;
  private final long[] ids;
  private final long[] rows;
  private final int[] labels;
  private final byte[] splits;
  private final int width;
  private final float[] values;
  private final Credit credit = new Credit();

  NodeBlock(int file, long[] ids, long[] rows, int[] labels, byte[] splits, int width, float[] values) {
    this.file = file;
    this.ids = ids;
    this.rows = rows;
    this.labels = labels;
    this.splits = splits;
    this.width = width;
    this.values = values;
  }

  int file() {
    return file;
  }

  long[] ids() {
    return ids;
  }

  long[] rows() {
    return rows;
  }

  int[] labels() {
    return labels;
  }

  byte[] splits() {
    return splits;
  }

  int width() {
    return width;
  }

  float[] values() {
    return values;
  }

  int count() {
    return ids.length;
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
    return "NodeBlock[file " + file + ", " + ids.length + " rows x " + width + "]";
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

  /**
   * Bounds: file index and width non-negative; n rows, each at least 8 (id) + 1 (row delta) + 2 if labelled (label,
   * split) + 4 * width bytes, need n times that at most the bytes left (so the n * width values fit), checked
   * before anything is allocated; labels at least -1 (none).
   */
  static NodeBlock read(FrameReader in) {
    int file = FrameReader.nonNegative(in.readVInt(), "node file index");
    int n = in.readVInt();
    int width = FrameReader.nonNegative(in.readVInt(), "node row width");
    boolean labelled = in.readBoolean();
    in.checkCount(n, Long.BYTES + 1 + (labelled ? 2 : 0) + (long) Float.BYTES * width, "node rows");
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
        if (labels[i] < -1) {
          throw new MalformedFrameException("node label " + labels[i]);
        }
        splits[i] = in.readByte();
      }
    }
    float[] values = new float[n * width];
    in.readFloats(values, 0, values.length);
    return new NodeBlock(file, ids, rows, labels, splits, width, values);
  }
}
