package org.yarngnn.app.transport;

/**
 * A message sent under the transport's per-stream credit: {@link RowBlock}s and application block types (e.g. a
 * job's construction blocks). A connection lets {@link TransportOptions#creditsPerStream()} of them be in flight
 * per stream and receiver; a sender with no credit on the stream queues the message unencoded, and the receiver
 * returns one credit per {@link #release()}. So whatever the sender's pace, a receiver holds at most that many
 * per stream and peer, and a sender encodes at most as many. Messages of other types are control messages: never
 * held back, and they may overtake credited messages waiting for credit (a send of a credited message that has
 * returned from {@link PeerConnection#sendBlocking} is on the wire before anything sent after it).
 *
 * <p>Implementations keep one {@code new Credit()} per instance and return it from {@link #credit()}; the stream
 * of a type must be the same on both ends (it is not on the wire unless the type writes it), and never
 * {@code -1}, which credit grants use for every stream.
 */
public interface StreamedMessage extends Message {
  /** The stream whose credit this message takes. */
  int stream();

  /** This instance's credit slot. */
  Credit credit();

  /**
   * Returns the credit to the sender: call once a received message has been consumed, on any thread, or its sender
   * runs out of credit on this stream. Extra calls, and calls on outbound messages, do nothing.
   */
  default void release() {
    credit().release(null);
  }

  /** Whether {@link #release()} has been called. */
  default boolean isReleased() {
    return credit().isReleased();
  }
}
