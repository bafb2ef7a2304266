package org.yarngnn.app.transport;

/**
 * A worker registers with the driver: its index and the endpoint its own transport server listens on; a worker
 * that outlived the driver it served (an ApplicationMaster attempt that died) and now registers with a newer one
 * also says so ({@link Survivor}).
 */
public record Hello(int workerIndex, String host, int port, Survivor survivor) implements Message {
  /** The longest container id a survivor may name. */
  static final int MAX_CONTAINER_CHARS = 128;

  /**
   * What a surviving worker carries over: the ApplicationMaster attempt it served last, the mesh generation it
   * last connected at, and its container's id (so the new attempt knows which old containers came back).
   */
  public record Survivor(int attempt, int generation, String container) {
    public Survivor {
      if (attempt < 1 || generation < 0 || container == null || container.length() > MAX_CONTAINER_CHARS) {
        throw new IllegalArgumentException("survivor of attempt " + attempt + " at generation " + generation);
      }
    }
  }

  public Hello(int workerIndex, String host, int port) {
    this(workerIndex, host, port, null);
  }

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
    out.writeBoolean(survivor != null);
    if (survivor != null) {
      out.writeVInt(survivor.attempt());
      out.writeVInt(survivor.generation());
      out.writeString(survivor.container());
    }
  }

  /**
   * Bounds as {@link Endpoint#read}; then whether a survivor speaks (a boolean byte) and if so its attempt (at
   * least 1), generation and container id (at most {@value #MAX_CONTAINER_CHARS} characters); nothing may follow.
   */
  static Hello read(FrameReader in) {
    Endpoint e = Endpoint.read(in);
    if (!in.readBoolean()) {
      return new Hello(e);
    }
    int attempt = FrameReader.nonNegative(in.readVInt(), "attempt");
    int generation = FrameReader.nonNegative(in.readVInt(), "mesh generation");
    String container = in.readString();
    if (attempt < 1 || container.length() > MAX_CONTAINER_CHARS) {
      throw new MalformedFrameException("survivor of attempt " + attempt + " with a container id of "
          + container.length() + " characters");
    }
    return new Hello(e.workerIndex(), e.host(), e.port(), new Survivor(attempt, generation, container));
  }
}
