package org.yarngnn.app.transport;

/**
 * Receives what arrives on connections. Callbacks run on the connection's event-loop thread, in arrival order per
 * connection: they must not block (hand work to another thread, e.g. with {@link InboundQueue}).
 */
public interface TransportListener {
  /** The connection is established (before any message of it is delivered). */
  default void onOpened(PeerConnection connection) {}

  /**
   * A message arrived. A credited message ({@link StreamedMessage}, e.g. a {@link RowBlock}) must be
   * {@link StreamedMessage#release() released} once consumed, on any thread, or its sender runs out of credit on
   * that stream.
   */
  void onMessage(PeerConnection connection, Message message);

  /**
   * The connection is closed; called once per opened connection. {@code cause} is null when this side closed it
   * (or the transport stopped), otherwise it says what happened: the peer closed or reset it, it went silent
   * past the heartbeat timeout, or a frame was malformed.
   */
  void onClosed(PeerConnection connection, Throwable cause);
}
