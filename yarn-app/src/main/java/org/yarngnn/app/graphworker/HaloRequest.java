package org.yarngnn.app.graphworker;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.Message;

/**
 * The rows a worker needs from the receiving owner at one layer: the ids of the owner's nodes that its sampled
 * in-edges reference, in the requester's halo-slot order. Sent once per layer at construction; the owner then
 * streams those nodes' message rows in that order every time the layer runs.
 */
record HaloRequest(int layer, long[] ids) implements Message {
  static final byte TYPE = 34;

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 16 + ids.length * 8;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVInt(layer);
    out.writeVInt(ids.length);
    for (long id : ids) {
      out.writeLong(id);
    }
  }

  /** Bounds: layer non-negative; n ids of 8 bytes need n * 8 at most the bytes left. */
  static HaloRequest read(FrameReader in) {
    int layer = FrameReader.nonNegative(in.readVInt(), "halo request layer");
    long[] ids = new long[in.readCount(Long.BYTES, "halo request ids")];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = in.readLong();
    }
    return new HaloRequest(layer, ids);
  }
}
