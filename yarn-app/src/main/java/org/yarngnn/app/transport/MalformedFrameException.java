package org.yarngnn.app.transport;

/** A frame whose bytes do not decode as the message its type byte names: the connection is closed with it. */
public final class MalformedFrameException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public MalformedFrameException(String message) {
    super(message);
  }

  public MalformedFrameException(String message, Throwable cause) {
    super(message, cause);
  }
}
