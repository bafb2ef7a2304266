package org.yarngnn.app.transport;

/**
 * A registered peer sent a well-formed message that the protocol does not allow at that point (a second end
 * marker of a phase, data after its end, a row chunk that was not asked for or came twice): the receiver stops
 * with this, which names the peer.
 */
public final class ProtocolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ProtocolException(String message) {
    super(message);
  }
}
