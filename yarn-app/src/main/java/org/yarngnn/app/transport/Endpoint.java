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

  static Endpoint read(FrameReader in) {
    return new Endpoint(in.readVInt(), in.readString(), in.readVInt());
  }

  @Override
  public String toString() {
    return "worker " + workerIndex + " at " + host + ":" + port;
  }
}
