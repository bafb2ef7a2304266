package org.yarngnn.app.transport;

import java.net.InetSocketAddress;

/** Where a worker listens: its index in the job (0-based) and the host and port of its transport server. */
public record Endpoint(int workerIndex, String host, int port) {
  public Endpoint {
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("endpoint of worker " + workerIndex + " has no host");
    }
    if (port < 0 || port > 0xFFFF) {
      throw new IllegalArgumentException("endpoint of worker " + workerIndex + " has port " + port);
    }
  }

  /** An unresolved address: resolution happens when connecting, so a stale name fails there with its name. */
  public InetSocketAddress address() {
    return InetSocketAddress.createUnresolved(host, port);
  }

  void write(FrameWriter out) {
    out.writeVInt(workerIndex);
    out.writeString(host);
    out.writeVInt(port);
  }

  /**
   * Bounds: a non-negative worker index, a host of at most the bytes left (non-empty), a port in 0..65535; at least
   * 3 bytes on the wire ({@link #MIN_WIRE_BYTES}).
   */
  static Endpoint read(FrameReader in) {
    int index = FrameReader.nonNegative(in.readVInt(), "worker index");
    String host = in.readString();
    int port = in.readVInt();
    if (host.isEmpty() || port < 0 || port > 0xFFFF) {
      throw new MalformedFrameException("endpoint of worker " + index + " with host '" + host + "' port " + port);
    }
    return new Endpoint(index, host, port);
  }

  /** The fewest bytes an endpoint takes: three one-byte vInts (index, host length, port). */
  static final int MIN_WIRE_BYTES = 3;

  @Override
  public String toString() {
    return "worker " + workerIndex + " at " + host + ":" + port;
  }
}
