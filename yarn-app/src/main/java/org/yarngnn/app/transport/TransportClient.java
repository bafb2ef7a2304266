package org.yarngnn.app.transport;

/**
 * Opens connections without accepting any, on its own small event loop: for a participant that only talks to
 * others (a client submitting work, a tool). A worker uses {@link TransportServer#connect} instead, sharing its
 * server's threads.
 */
public final class TransportClient extends TransportService {
  public TransportClient(TransportOptions options, TransportListener listener) {
    super(options, listener, "yarngnn-net-client");
  }

  @Override
  public String toString() {
    return "transport client";
  }
}
