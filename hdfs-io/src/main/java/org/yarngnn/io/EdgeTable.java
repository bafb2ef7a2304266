package org.yarngnn.io;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * An edges table (a file or a directory of files) on any Hadoop FileSystem. Opening checks that it exists and
 * looks at its first file to learn whether it is weighted; reading checks every row. Files may be read in
 * parallel through {@link #readFile}.
 */
public final class EdgeTable {
  private final Configuration conf;
  private final TableFiles files;
  private final TableReadOptions opts;
  private final boolean weighted;
  private long countHint = -1;

  private EdgeTable(Configuration conf, TableFiles files, TableReadOptions opts, boolean weighted) {
    this.conf = conf;
    this.files = files;
    this.opts = opts;
    this.weighted = weighted;
  }

  public static EdgeTable open(Configuration conf, Path path, TableReadOptions opts) {
    TableFiles files = TableFiles.resolve(conf, path, opts.format());
    Boolean weighted = null;
    for (int i = 0; i < files.size() && weighted == null; i++) {
      Path f = files.file(i);
      TableFormat format = files.format(i);
      switch (format) {
        case PARQUET: weighted = ParquetEdgeFile.weighted(conf, f, opts); break;
        case ORC: weighted = OrcEdgeFile.weighted(conf, f, opts); break;
        default: weighted = TextEdgeFile.weighted(conf, f, format); break;
      }
    }
    return new EdgeTable(conf, files, opts, weighted != null && weighted);
  }

  public List<Path> files() {
    return files.files();
  }

  /** True when the table has a weight column (text: a third field in its first data row). */
  public boolean weighted() {
    return weighted;
  }

  /** Reads every file in order. */
  public void read(EdgeSink sink) {
    for (int i = 0; i < files.size(); i++) {
      readFile(i, sink);
    }
  }

  /** Reads file {@code index} of {@link #files()}; safe to call from several threads for different files. */
  public void readFile(int index, EdgeSink sink) {
    Path f = files.file(index);
    TableFormat format = files.format(index);
    sink.beginFile(f.toString());
    switch (format) {
      case PARQUET: ParquetEdgeFile.read(conf, f, opts, weighted, sink); break;
      case ORC: OrcEdgeFile.read(conf, f, opts, weighted, sink); break;
      default: TextEdgeFile.read(conf, f, format, weighted, sink); break;
    }
  }

  /**
   * The number of edges: exact for Parquet and ORC (from file footers), an estimate for text (from byte sizes),
   * for presizing buffers.
   */
  public long countHint() {
    if (countHint < 0) {
      long n = 0;
      for (int i = 0; i < files.size(); i++) {
        Path f = files.file(i);
        switch (files.format(i)) {
          case PARQUET: n += ParquetEdgeFile.rowCount(conf, f); break;
          case ORC: n += OrcEdgeFile.rowCount(conf, f); break;
          default: n += TextSizes.estimateRows(conf, f, weighted ? 20 : 14); break;
        }
      }
      countHint = n;
    }
    return countHint;
  }
}
