package org.yarngnn.app.transport;

/**
 * Transport-internal: the receiver allows {@code credits} more {@link RowBlock}s on {@code stream}. The first
 * frame on every connection is a grant on {@link #EVERY_STREAM}: the window each stream starts with.
 */
record CreditGrant(int stream, int credits) implements Message {
  static final int EVERY_STREAM = -1;

  @Override
  public byte type() {
    return MessageCodec.CREDIT;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeInt(stream);
    out.writeVInt(credits);
  }

  @Override
  public int bodySizeHint() {
    return 9;
  }

  /** Bounds: credits positive; a fixed-size body. */
  static CreditGrant read(FrameReader in) {
    CreditGrant g = new CreditGrant(in.readInt(), in.readVInt());
    if (g.credits <= 0) {
      throw new MalformedFrameException("credit grant of " + g.credits);
    }
    return g;
  }
}
