package org.yarngnn.io.table;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.ZipException;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.UnsupportedFileSystemException;
import org.apache.hadoop.security.AccessControlException;

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

  /**
   * An I/O failure on {@code file} as the exception to throw: an InputException (bad input, exit 2) when the
   * failure is the file's own (missing, truncated, not the format it claims, failing its checksum, not
   * readable to this user, an unknown file system), else an {@link UncheckedIOException} (the job failed).
   */
  public static RuntimeException wrap(Path file, String doing, IOException e) {
    Throwable t = inputProblem(e);
    if (t != null) {
      String what = t instanceof ChecksumException ? "checksum error (a stale or corrupt .crc file, or a corrupt file)"
          : t instanceof EOFException ? "truncated file"
          : t instanceof ZipException ? "not valid gzip data"
          : t instanceof FileNotFoundException ? "no such file or directory"
          : t instanceof AccessControlException ? "permission denied" : "no file system for this path";
      String detail = t.getMessage() == null ? "" : " (" + firstLine(t.getMessage()) + ")";
      return new InputException(file + ": " + what + detail, e);
    }
    return new UncheckedIOException(doing + " " + file + ": " + e.getMessage(), e);
  }

  /** {@code e} or the first of its causes that is a failure of the input itself (see {@link #wrap}), or null. */
  public static Throwable inputProblem(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof EOFException || t instanceof ZipException || t instanceof ChecksumException
          || t instanceof FileNotFoundException || t instanceof UnsupportedFileSystemException
          || t instanceof AccessControlException) {
        return t;
      }
    }
    return null;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
