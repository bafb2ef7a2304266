package org.yarngnn.app.transport;

/** A worker registers with the driver: its index and the endpoint its own transport server listens on. */
public record Hello(int workerIndex, String host, int port) implements Message {
  public Hello(Endpoint e) {
    this(e.workerIndex(), e.host(), e.port());
  }

  public Endpoint endpoint() {
    return new Endpoint(workerIndex, host, port);
  }

  @Override
  public byte type() {
    return MessageCodec.HELLO;
  }

  @Override
  public void writeBody(FrameWriter out) {
    endpoint().write(out);
  }

  /** Bounds as {@link Endpoint#read}; nothing may follow. */
  static Hello read(FrameReader in) {
    return new Hello(Endpoint.read(in));
  }
}
