package org.yarngnn.app.cli;

/** Bad usage (unknown option, missing or malformed value): the CLI prints the message and exits 2. */
public final class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message);
  }
}
