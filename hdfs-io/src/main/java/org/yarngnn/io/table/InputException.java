package org.yarngnn.io.table;

import org.apache.hadoop.fs.Path;

/**
 * Bad user input (a malformed row, a wrong schema, a missing table): the CLI reports the message and exits 2.
 * Messages name the file and, when known, the row: {@code <file>:<row>: <reason>} or {@code <file>: <reason>}.
 */
public class InputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InputException(String message) {
    super(message);
  }

  public InputException(String message, Throwable cause) {
    super(message, cause);
  }

  public static InputException at(Path file, long row, String reason) {
    return at(String.valueOf(file), row, reason);
  }

  public static InputException at(String file, long row, String reason) {
    return new InputException(file + ":" + row + ": " + reason);
  }

  public static InputException in(Path file, String reason) {
    return new InputException(file + ": " + reason);
  }
}
