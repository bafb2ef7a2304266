package org.yarngnn.app.transport;

import java.io.IOException;

/** A connection could not be made, was lost, or was closed while a send was waiting. */
public final class TransportException extends IOException {
  private static final long serialVersionUID = 1L;

  public TransportException(String message) {
    super(message);
  }

  public TransportException(String message, Throwable cause) {
    super(message, cause);
  }
}
