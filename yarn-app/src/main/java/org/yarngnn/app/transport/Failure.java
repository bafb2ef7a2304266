package org.yarngnn.app.transport;

/** A participant gives up and says why; the receiver fails the job with this reason. */
public record Failure(String reason) implements Message {
  public Failure {
    reason = reason == null ? "" : reason;
  }

  @Override
  public byte type() {
    return MessageCodec.FAILURE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeString(reason);
  }

  @Override
  public int bodySizeHint() {
    return 8 + reason.length() * 3;
  }

  /** Bounds: the reason's byte count at most the bytes left ({@link FrameReader}). */
  static Failure read(FrameReader in) {
    return new Failure(in.readString());
  }
}
