package org.yarngnn.io.text;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.TableFormat;

/**
 * The data rows of one TSV or CSV file (gzip when the name ends in .gz), split into fields in place. A UTF-8
 * byte order mark at the start of the file is dropped. Skips empty (or blank) lines, lines starting with
 * {@code #}, and the header: the first line that is not skipped so, when its first field is {@code id} or
 * {@code src} in any case (in any table: a header names columns, no id looks like it). TSV fields are separated
 * by runs of tabs or spaces; CSV fields by commas, a field may be double-quoted (the features field is).
 * Read failures of the file itself (not gzip, truncated, a checksum error) are {@link InputException}s.
 */
final class TextRows implements Closeable {
  private static final int MAX_FIELDS = 8;

  private final Path file;
  private final boolean csv;
  private final LineReader lines;
  private final int[] starts = new int[MAX_FIELDS];
  private final int[] ends = new int[MAX_FIELDS];
  private int count;
  private boolean sawData;

  private TextRows(Path file, boolean csv, LineReader lines) {
    this.file = file;
    this.csv = csv;
    this.lines = lines;
  }

  static TextRows open(Configuration conf, Path file, TableFormat format) {
    InputStream in = null;
    try {
      in = file.getFileSystem(conf).open(file, 1 << 16);
      if (TableFormat.isGzip(file.getName())) {
        in = new GZIPInputStream(in, 1 << 16);
      }
      return new TextRows(file, format == TableFormat.CSV, new LineReader(in, 1 << 20, file));
    } catch (IOException e) {
      if (in != null) {
        try {
          in.close();
        } catch (IOException ignored) {
          // the open failure is the one to report
        }
      }
      throw InputException.wrap(file, "opening", e);
    }
  }

  /** Advances to the next data row; false at end of file. */
  boolean next() {
    try {
      while (lines.next()) {
        byte[] b = lines.buf();
        int from = lines.start();
        if (lines.lineNumber() == 1 && lines.end() - from >= 3 && b[from] == (byte) 0xEF && b[from + 1] == (byte) 0xBB
            && b[from + 2] == (byte) 0xBF) {
          from += 3;
        }
        int s = skipBlanks(b, from, lines.end());
        if (s == lines.end() || b[s] == '#') {
          continue;
        }
        split(b, s, lines.end());
        if (!sawData) {
          sawData = true;
          if (isHeader(b)) {
            continue;
          }
        }
        return true;
      }
      return false;
    } catch (IOException e) {
      throw InputException.wrap(file, "reading", e);
    }
  }

  /** True when the current row's first field is {@code id} or {@code src}, in any case. */
  private boolean isHeader(byte[] b) {
    return fieldIs(b, "id") || fieldIs(b, "src");
  }

  private boolean fieldIs(byte[] b, String word) {
    if (ends[0] - starts[0] != word.length()) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      int c = b[starts[0] + i];
      if (c != word.charAt(i) && c != Character.toUpperCase(word.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static int skipBlanks(byte[] b, int i, int end) {
    while (i < end && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    return i;
  }

  private void split(byte[] b, int i, int end) {
    while (end > i && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
      end--;
    }
    count = 0;
    if (csv) {
      splitCsv(b, i, end);
    } else {
      while (i < end) {
        int s = i;
        while (i < end && b[i] != '\t' && b[i] != ' ') {
          i++;
        }
        add(s, i);
        i = skipBlanks(b, i, end);
      }
    }
  }

  private void splitCsv(byte[] b, int i, int end) {
    while (true) {
      i = skipBlanks(b, i, end);
      int s = i;
      int e;
      if (i < end && b[i] == '"') {
        s = ++i;
        while (i < end && b[i] != '"') {
          i++;
        }
        if (i == end) {
          throw error("unterminated quote");
        }
        e = i++;
        i = skipBlanks(b, i, end);
        if (i < end && b[i] != ',') {
          throw error("text after closing quote");
        }
      } else {
        while (i < end && b[i] != ',') {
          i++;
        }
        e = i;
        while (e > s && (b[e - 1] == ' ' || b[e - 1] == '\t')) {
          e--;
        }
      }
      add(s, e);
      if (i >= end) {
        return;
      }
      i++; // the comma
    }
  }

  private void add(int s, int e) {
    if (count < MAX_FIELDS) {
      starts[count] = s;
      ends[count] = e;
    }
    count++;
  }

  int fieldCount() {
    return count;
  }

  byte[] buf() {
    return lines.buf();
  }

  int start(int field) {
    return starts[field];
  }

  int end(int field) {
    return ends[field];
  }

  /** The 1-based line number of the current row. */
  long row() {
    return lines.lineNumber();
  }

  Path file() {
    return file;
  }

  InputException error(String reason) {
    return InputException.at(file, lines.lineNumber(), reason);
  }

  long parseLong(int field, String what) {
    try {
      return NumberParser.parseLong(buf(), starts[field], ends[field]);
    } catch (NumberFormatException e) {
      if (NumberParser.isInteger(buf(), starts[field], ends[field])) {
        throw error(what + " " + e.getMessage() + " overflows int64");
      }
      throw error("non-numeric " + what + " '" + e.getMessage() + "'");
    }
  }

  /**
   * Parses a float field; a finite number beyond float range is refused ("outside float range"), while
   * {@code nan}/{@code inf} come back as NaN/infinity for the caller to refuse or allow.
   */
  /** The split code of a field (train, val, test, none in any case); a bad one is refused naming the row. */
  byte parseSplit(int field) {
    byte split = NodeSplit.parse(buf(), starts[field], ends[field]);
    if (split < 0) {
      throw error(NodeSplit.bad(NumberParser.text(buf(), starts[field], ends[field])));
    }
    return split;
  }

  float parseFloat(int field, String what) {
    return parseFloat(buf(), starts[field], ends[field], what);
  }

  float parseFloat(byte[] b, int start, int end, String what) {
    float v;
    try {
      v = NumberParser.parseFloat(b, start, end);
    } catch (NumberFormatException e) {
      throw error("non-numeric " + what + " '" + e.getMessage() + "'");
    }
    if (Float.isInfinite(v) && !NumberParser.isSpecial(b, start, end)) {
      throw error(what + " " + NumberParser.text(b, start, end) + " is outside float range (beyond +-"
          + Float.MAX_VALUE + ")");
    }
    return v;
  }

  /** Column-count error text, e.g. "expected 2 columns (src, dst), found 5". */
  InputException wrongColumns(String expected) {
    return error("expected " + expected + ", found " + count + " column" + (count == 1 ? "" : "s")
        + (csv && count > 4 ? " (quote the features field in CSV)" : ""));
  }

  @Override
  public void close() {
    try {
      lines.close();
    } catch (IOException e) {
      throw InputException.wrap(file, "closing", e);
    }
  }
}
