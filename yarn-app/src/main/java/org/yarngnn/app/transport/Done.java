package org.yarngnn.app.transport;

import java.util.Arrays;

/**
 * A worker acknowledges a command or reports a round finished, with an opaque payload (e.g. a loss, a count of
 * rows written). Also used as a plain acknowledgement with an empty payload.
 */
public record Done(long round, byte[] payload) implements Message {
  private static final byte[] EMPTY = new byte[0];

  public Done {
    payload = payload == null ? EMPTY : payload;
  }

  public Done(long round) {
    this(round, EMPTY);
  }

  @Override
  public byte type() {
    return MessageCodec.DONE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVLong(round);
    out.writeBytes(payload);
  }

  @Override
  public int bodySizeHint() {
    return 16 + payload.length;
  }

  /** Bounds: the payload's byte count at most the bytes left ({@link FrameReader}). */
  static Done read(FrameReader in) {
    return new Done(in.readVLong(), in.readBytes());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Done d && d.round == round && Arrays.equals(d.payload, payload);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(round) * 31 + Arrays.hashCode(payload);
  }

  @Override
  public String toString() {
    return "Done[" + round + ", " + payload.length + " payload bytes]";
  }
}
