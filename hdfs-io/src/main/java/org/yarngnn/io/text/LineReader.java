package org.yarngnn.io.text;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads lines of bytes from a stream into one reused buffer: {@link #buf()}{@code [start(), end())} is the
 * current line without its terminator ({@code \n} or {@code \r\n}). Lines longer than the buffer grow it.
 */
final class LineReader implements Closeable {
  private final InputStream in;
  private byte[] buf;
  private int filled;
  private int next;
  private int start;
  private int end;
  private long lineNumber;
  private boolean eof;

  LineReader(InputStream in, int bufferSize) {
    this.in = in;
    this.buf = new byte[bufferSize];
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
      buf = Arrays.copyOf(buf, buf.length * 2);
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
