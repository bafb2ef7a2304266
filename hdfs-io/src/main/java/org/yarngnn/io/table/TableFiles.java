package org.yarngnn.io.table;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The data files of a table (files, directories, globs, comma-separated lists of them) and the format of each. */
final class TableFiles {
  private final List<Path> files;
  private final List<TableFormat> formats;
  private final long totalBytes;

  private TableFiles(List<Path> files, List<TableFormat> formats, long totalBytes) {
    this.files = Collections.unmodifiableList(files);
    this.formats = Collections.unmodifiableList(formats);
    this.totalBytes = totalBytes;
  }

  /**
   * Lists a table given as FileInputFormat takes its input: a comma-separated list (commas inside a glob's
   * {@code {a,b}} do not separate) of paths, each a file, a directory or a glob ({@link FileSystem#globStatus}).
   * Directories are read recursively (Hive-style {@code key=value} partition directories included, the
   * {@code key=value} not being a column); names starting with {@code _} or {@code .} (Hadoop's markers and
   * temporary files) are skipped at every level below a named path and among glob matches; a file named
   * literally is taken whatever its name. Files are in path order, each once. Refused with
   * {@link InputException}, naming the path: a path that does not exist, a glob that matches nothing, an
   * unknown file system scheme, a table without data files, a file of unknown format.
   */
  static TableFiles resolve(Configuration conf, String table, TableFormat forced) {
    TreeMap<String, FileStatus> found = new TreeMap<>();
    List<String> parts = TablePaths.split(table);
    if (parts.isEmpty()) {
      throw new InputException("empty table path '" + table + "'");
    }
    for (String part : parts) {
      collect(conf, part, found);
    }
    List<Path> files = new ArrayList<>();
    List<TableFormat> formats = new ArrayList<>();
    long bytes = 0;
    for (FileStatus f : found.values()) {
      TableFormat format = forced != null ? forced : TableFormat.fromFileName(f.getPath().getName());
      if (format == null) {
        throw InputException.in(f.getPath(),
            "unknown table format (expected .parquet, .orc, .tsv, .csv or .txt, optionally .gz; or give the format option)");
      }
      files.add(f.getPath());
      formats.add(format);
      bytes += f.getLen();
    }
    if (files.isEmpty()) {
      throw new InputException(table + ": no data files (names starting with '_' or '.' are skipped)");
    }
    return new TableFiles(files, formats, bytes);
  }

  static TableFiles resolve(Configuration conf, Path path, TableFormat forced) {
    return resolve(conf, path.toString(), forced);
  }

  private static void collect(Configuration conf, String part, TreeMap<String, FileStatus> found) {
    Path path;
    try {
      path = new Path(part);
    } catch (IllegalArgumentException e) {
      throw new InputException(part + ": not a valid path (" + e.getMessage() + ")");
    }
    FileSystem fs;
    try {
      fs = path.getFileSystem(conf);
    } catch (IOException | RuntimeException e) {
      throw InputException.in(path, "no file system for this path (" + e.getMessage() + ")");
    }
    try {
      FileStatus[] matches = fs.globStatus(path);
      if (matches == null) {
        throw InputException.in(path, "no such file or directory");
      }
      boolean glob = part.matches(".*[*?\\[{\\\\].*");
      int kept = 0;
      for (FileStatus m : matches) {
        if (glob && hidden(m.getPath())) {
          continue;
        }
        kept++;
        if (m.isDirectory()) {
          listRecursively(fs, m.getPath(), found);
        } else {
          found.put(m.getPath().toString(), m);
        }
      }
      if (kept == 0) {
        throw InputException.in(path, "matches no files");
      }
    } catch (FileNotFoundException e) {
      throw InputException.in(path, "no such file or directory");
    } catch (IOException e) {
      throw InputException.wrap(path, "listing", e);
    }
  }

  private static void listRecursively(FileSystem fs, Path dir, TreeMap<String, FileStatus> found) throws IOException {
    for (FileStatus f : fs.listStatus(dir)) {
      if (hidden(f.getPath())) {
        continue;
      }
      if (f.isDirectory()) {
        listRecursively(fs, f.getPath(), found);
      } else {
        found.put(f.getPath().toString(), f);
      }
    }
  }

  private static boolean hidden(Path p) {
    String name = p.getName();
    return name.startsWith("_") || name.startsWith(".");
  }

  List<Path> files() {
    return files;
  }

  Path file(int index) {
    return files.get(index);
  }

  TableFormat format(int index) {
    return formats.get(index);
  }

  int size() {
    return files.size();
  }

  long totalBytes() {
    return totalBytes;
  }
}
