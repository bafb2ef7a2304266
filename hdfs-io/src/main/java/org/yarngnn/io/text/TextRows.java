package org.yarngnn.io.text;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableFormat;

/**
 * The data rows of one TSV or CSV file (gzip when the name ends in .gz), split into fields in place. Skips
 * empty lines, lines starting with {@code #}, and a first data line whose first field is the table's header
 * name ({@code src} or {@code id}). TSV fields are separated by runs of tabs or spaces; CSV fields by commas,
 * a field may be double-quoted (the features field is).
 */
final class TextRows implements Closeable {
  private static final int MAX_FIELDS = 8;

  private final Path file;
  private final boolean csv;
  private final byte[] headerName;
  private final LineReader lines;
  private final int[] starts = new int[MAX_FIELDS];
  private final int[] ends = new int[MAX_FIELDS];
  private int count;
  private boolean sawData;

  private TextRows(Path file, boolean csv, String headerName, LineReader lines) {
    this.file = file;
    this.csv = csv;
    this.headerName = headerName.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    this.lines = lines;
  }

  static TextRows open(Configuration conf, Path file, TableFormat format, String headerName) {
    try {
      InputStream in = file.getFileSystem(conf).open(file, 1 << 16);
      if (TableFormat.isGzip(file.getName())) {
        in = new GZIPInputStream(in, 1 << 16);
      }
      return new TextRows(file, format == TableFormat.CSV, headerName, new LineReader(in, 1 << 20));
    } catch (IOException e) {
      throw new UncheckedIOException("opening " + file + ": " + e.getMessage(), e);
    }
  }

  /** Advances to the next data row; false at end of file. */
  boolean next() {
    try {
      while (lines.next()) {
        byte[] b = lines.buf();
        int s = skipBlanks(b, lines.start(), lines.end());
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
      throw new UncheckedIOException("reading " + file + ": " + e.getMessage(), e);
    }
  }

  private boolean isHeader(byte[] b) {
    if (ends[0] - starts[0] != headerName.length) {
      return false;
    }
    for (int i = 0; i < headerName.length; i++) {
      if ((b[starts[0] + i] | 0x20) != headerName[i]) {
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
      throw error("non-numeric " + what + " '" + e.getMessage() + "'");
    }
  }

  float parseFloat(int field, String what) {
    try {
      return NumberParser.parseFloat(buf(), starts[field], ends[field]);
    } catch (NumberFormatException e) {
      throw error("non-numeric " + what + " '" + e.getMessage() + "'");
    }
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
      throw new UncheckedIOException("closing " + file + ": " + e.getMessage(), e);
    }
  }
}
