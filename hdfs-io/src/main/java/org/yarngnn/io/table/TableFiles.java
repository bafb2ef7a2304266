package org.yarngnn.io.table;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The data files of a table (a file, or a directory of files) and the format of each. */
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
   * Lists {@code path}: a file, or a directory whose files (not subdirectories) are taken in name order,
   * skipping names starting with {@code _} or {@code .} (Hadoop's convention for markers and temp files).
   */
  static TableFiles resolve(Configuration conf, Path path, TableFormat forced) {
    try {
      FileSystem fs = path.getFileSystem(conf);
      FileStatus status;
      try {
        status = fs.getFileStatus(path);
      } catch (FileNotFoundException e) {
        throw InputException.in(path, "no such file or directory");
      }
      FileStatus[] listed = status.isDirectory() ? fs.listStatus(path) : new FileStatus[] {status};
      Arrays.sort(listed, (a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
      List<Path> files = new ArrayList<>();
      List<TableFormat> formats = new ArrayList<>();
      long bytes = 0;
      for (FileStatus f : listed) {
        String name = f.getPath().getName();
        if (f.isDirectory() || (status.isDirectory() && (name.startsWith("_") || name.startsWith(".")))) {
          continue;
        }
        TableFormat format = forced != null ? forced : TableFormat.fromFileName(name);
        if (format == null) {
          throw InputException.in(f.getPath(),
              "unknown table format (expected .parquet, .orc, .tsv, .csv or .txt, optionally .gz; or give the format option)");
        }
        files.add(f.getPath());
        formats.add(format);
        bytes += f.getLen();
      }
      if (files.isEmpty()) {
        throw InputException.in(path, "directory has no data files");
      }
      return new TableFiles(files, formats, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + path + ": " + e.getMessage(), e);
    }
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
