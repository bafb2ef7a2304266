package org.yarngnn.io.table;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/** What edge and node tables share: the file list, per-file reading into a sink, and a cached row count. */
abstract class FileTable<S> {
  final Configuration conf;
  final TableFiles files;
  final TableReadOptions opts;
  private long countHint = -1;

  FileTable(Configuration conf, TableFiles files, TableReadOptions opts) {
    this.conf = conf;
    this.files = files;
    this.opts = opts;
  }

  public List<Path> files() {
    return files.files();
  }

  /** Reads every file in order. */
  public void read(S sink) {
    for (int i = 0; i < files.size(); i++) {
      readFile(i, sink);
    }
  }

  /** Reads file {@code index} of {@link #files()}; safe to call from several threads for different files. */
  public abstract void readFile(int index, S sink);

  /** Rows of file {@code index}: exact for Parquet and ORC, estimated from the byte size for text. */
  abstract long rowCount(int index);

  /**
   * Rows of {@code file}: from the footer for Parquet and ORC, else estimated from its bytes at about
   * {@code textRowBytes} a row.
   */
  static long rowCount(Configuration conf, Path file, TableFormat format, int textRowBytes) {
    switch (format) {
      case PARQUET: return org.yarngnn.io.parquet.ParquetNodeFile.rowCount(conf, file);
      case ORC: return org.yarngnn.io.orc.OrcNodeFile.rowCount(conf, file);
      default: return org.yarngnn.io.text.TextSizes.estimateRows(conf, file, textRowBytes);
    }
  }

  /** Rows of file {@code index} when its footer says exactly (Parquet, ORC), else -1 (text). */
  public long exactRows(int index) {
    TableFormat f = files.format(index);
    return f == TableFormat.PARQUET || f == TableFormat.ORC ? rowCount(index) : -1;
  }

  /** The number of rows: exact for Parquet and ORC (file footers), an estimate for text, for presizing. */
  public long countHint() {
    if (countHint < 0) {
      long n = 0;
      for (int i = 0; i < files.size(); i++) {
        n += rowCount(i);
      }
      countHint = n;
    }
    return countHint;
  }
}
