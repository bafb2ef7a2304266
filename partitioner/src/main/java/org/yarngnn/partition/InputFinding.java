package org.yarngnn.partition;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.table.InputException;

/**
 * A bad-input finding of a partition job task, ordered as a single-JVM build would meet it: nodes table before
 * edges table, then file, row and column (src before dst). A reader's own error (a malformed row) sorts after
 * every other finding in its file, since the reader stopped there. Tasks write their first finding to
 * {@code _errors/} and the driver reports the smallest. A finding is a value to compare and ship, not an error:
 * the one reported becomes an {@link InputException} ({@link #toException}), yarn-gnn's one bad-input error.
 */
public record InputFinding(int table, int file, long row, int column, String message, boolean formatted)
    implements Comparable<InputFinding> {
  public static final int NODES = 0;
  public static final int EDGES = 1;
  public static final String DIR = "_errors";

  @Override
  public int compareTo(InputFinding o) {
    int c = Integer.compare(table, o.table);
    c = c != 0 ? c : Integer.compare(file, o.file);
    c = c != 0 ? c : Long.compare(row, o.row);
    return c != 0 ? c : Integer.compare(column, o.column);
  }

  public static InputFinding min(InputFinding a, InputFinding b) {
    return a == null ? b : b == null ? a : a.compareTo(b) <= 0 ? a : b;
  }

  /** The exception the CLI reports, naming the file and row. */
  public InputException toException(List<Path> nodeFiles, List<Path> edgeFiles) {
    if (formatted) {
      return new InputException(message);
    }
    Path f = (table == NODES ? nodeFiles : edgeFiles).get(file);
    return InputException.at(f, row, message);
  }

  public void write(FileSystem fs, Path path) throws IOException {
    try (OutputStream out = fs.create(path, true)) {
      out.write((table + "\t" + file + "\t" + row + "\t" + column + "\t" + (formatted ? 1 : 0) + "\t" + message)
          .getBytes(StandardCharsets.UTF_8));
    }
  }

  public static InputFinding read(FileSystem fs, Path file) throws IOException {
    try (InputStream in = fs.open(file)) {
      String[] f = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\t", 6);
      return new InputFinding(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]),
          Integer.parseInt(f[3]), f[5], f[4].equals("1"));
    }
  }
}
