package org.yarngnn.io.text;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.InputException;

/**
 * Reads lines of bytes from a stream into one reused buffer: {@link #buf()}{@code [start(), end())} is the
 * current line without its terminator ({@code \n} or {@code \r\n}). Lines longer than the buffer grow it, up
 * to {@link #MAX_LINE_BYTES}: a longer line (a file without newlines, say) is refused, naming the file and line,
 * rather than exhausting memory.
 */
final class LineReader implements Closeable {
  /** The longest line read, terminator included: 64 MiB. */
  static final int MAX_LINE_BYTES = 64 << 20;

  private final InputStream in;
  private final Path file;
  private final int maxLine;
  private byte[] buf;
  private int filled;
  private int next;
  private int start;
  private int end;
  private long lineNumber;
  private boolean eof;

  LineReader(InputStream in, int bufferSize, Path file) {
    this(in, bufferSize, file, MAX_LINE_BYTES);
  }

  LineReader(InputStream in, int bufferSize, Path file, int maxLine) {
    this.in = in;
    this.file = file;
    this.maxLine = maxLine;
    this.buf = new byte[Math.min(bufferSize, maxLine)];
  }

  /** Advances to the next line; false at end of input. */
  boolean next() throws IOException {
    int scan = next;
    while (true) {
      int nl = indexOfNewline(scan);
      if (nl >= 0) {
        setLine(next, nl);
        next = nl + 1;
        return true;
      }
      if (eof) {
        if (next < filled) {
          setLine(next, filled);
          next = filled;
          return true;
        }
        return false;
      }
      scan = filled - next;
      refill();
    }
  }

  private int indexOfNewline(int from) {
    byte[] b = buf;
    for (int i = from, n = filled; i < n; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void setLine(int from, int to) {
    int e = to;
    if (e > from && buf[e - 1] == '\r') {
      e--;
    }
    start = from;
    end = e;
    lineNumber++;
  }

  /** Moves the unread tail to the front (growing the buffer when one line fills it) and reads more. */
  private void refill() throws IOException {
    int tail = filled - next;
    if (next == 0 && tail == buf.length) {
      if (buf.length >= maxLine) {
        throw InputException.at(file, lineNumber + 1, "line longer than " + (maxLine >= 1 << 20
            ? (maxLine >> 20) + " MiB" : maxLine + " bytes") + " (is this a text table?)");
      }
      buf = Arrays.copyOf(buf, (int) Math.min(maxLine, buf.length * 2L));
    } else if (next > 0) {
      System.arraycopy(buf, next, buf, 0, tail);
    }
    next = 0;
    filled = tail;
    while (filled < buf.length) {
      int n = in.read(buf, filled, buf.length - filled);
      if (n < 0) {
        eof = true;
        return;
      }
      filled += n;
      if (n > 0 && filled - tail >= 65536) {
        return;
      }
    }
  }

  byte[] buf() {
    return buf;
  }

  int start() {
    return start;
  }

  int end() {
    return end;
  }

  /** The 1-based number of the current line. */
  long lineNumber() {
    return lineNumber;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
