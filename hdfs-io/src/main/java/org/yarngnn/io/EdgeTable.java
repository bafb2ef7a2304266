package org.yarngnn.io;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * An edges table (a file or a directory of files) on any Hadoop FileSystem. Opening checks that it exists and
 * looks at its first file to learn whether it is weighted; reading checks every row. Files may be read in
 * parallel through {@link #readFile}.
 */
public final class EdgeTable extends FileTable<EdgeSink> {
  private final boolean weighted;

  private EdgeTable(Configuration conf, TableFiles files, TableReadOptions opts, boolean weighted) {
    super(conf, files, opts);
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

  /** True when the table has a weight column (text: a third field in its first data row). */
  public boolean weighted() {
    return weighted;
  }

  @Override
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

  @Override
  long rowCount(int index) {
    Path f = files.file(index);
    switch (files.format(index)) {
      case PARQUET: return ParquetEdgeFile.rowCount(conf, f);
      case ORC: return OrcEdgeFile.rowCount(conf, f);
      default: return TextSizes.estimateRows(conf, f, weighted ? 20 : 14);
    }
  }
}
