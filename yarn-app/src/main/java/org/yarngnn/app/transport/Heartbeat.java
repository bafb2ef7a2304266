package org.yarngnn.app.transport;

/** Transport-internal: sent when a connection has been quiet, so the peer can tell "idle" from "gone". */
final class Heartbeat implements Message {
  static final Heartbeat INSTANCE = new Heartbeat();

  private Heartbeat() {}

  @Override
  public byte type() {
    return MessageCodec.HEARTBEAT;
  }

  @Override
  public void writeBody(FrameWriter out) {}

  @Override
  public int bodySizeHint() {
    return 0;
  }

  @Override
  public String toString() {
    return "Heartbeat";
  }
}
