package org.yarngnn.io;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A nodes table (a file or a directory of files) on any Hadoop FileSystem. Opening looks at the first row of
 * the first non-empty file: that row sets the feature width every row must have; the first file's columns say
 * whether the table has labels and splits. Reading checks every row.
 */
public final class NodeTable {
  private final Configuration conf;
  private final TableFiles files;
  private final TableReadOptions opts;
  private final NodeLayout layout;
  private long countHint = -1;

  private NodeTable(Configuration conf, TableFiles files, TableReadOptions opts, NodeLayout layout) {
    this.conf = conf;
    this.files = files;
    this.opts = opts;
    this.layout = layout;
  }

  public static NodeTable open(Configuration conf, Path path, TableReadOptions opts) {
    TableFiles files = TableFiles.resolve(conf, path, opts.format());
    NodeLayout layout = null;
    for (int i = 0; i < files.size(); i++) {
      NodeLayout l = peek(conf, files.file(i), files.format(i), opts);
      if (l == null) {
        continue;
      }
      if (layout == null) {
        layout = l;
      } else if (layout.featureWidth() < 0) {
        layout = layout.withWidth(l.featureWidth());
      }
      if (layout.featureWidth() >= 0) {
        break;
      }
    }
    if (layout == null || layout.featureWidth() < 0) {
      throw InputException.in(path, "nodes table has no rows");
    }
    return new NodeTable(conf, files, opts, layout);
  }

  private static NodeLayout peek(Configuration conf, Path file, TableFormat format, TableReadOptions opts) {
    switch (format) {
      case PARQUET: return ParquetNodeFile.peek(conf, file, opts);
      case ORC: return OrcNodeFile.peek(conf, file, opts);
      default: return TextNodeFile.peek(conf, file, format);
    }
  }

  public List<Path> files() {
    return files.files();
  }

  /** The number of features per node, set by the first row. */
  public int featureWidth() {
    return layout.featureWidth();
  }

  public boolean hasLabels() {
    return layout.hasLabels();
  }

  public boolean hasSplits() {
    return layout.hasSplits();
  }

  /** Reads every file in order. */
  public void read(NodeSink sink) {
    for (int i = 0; i < files.size(); i++) {
      readFile(i, sink);
    }
  }

  /** Reads file {@code index} of {@link #files()}; safe to call from several threads for different files. */
  public void readFile(int index, NodeSink sink) {
    Path f = files.file(index);
    TableFormat format = files.format(index);
    sink.beginFile(f.toString());
    switch (format) {
      case PARQUET: ParquetNodeFile.read(conf, f, opts, layout, sink); break;
      case ORC: OrcNodeFile.read(conf, f, opts, layout, sink); break;
      default: TextNodeFile.read(conf, f, format, layout, opts.allowNonFinite(), sink); break;
    }
  }

  /** The number of nodes: exact for Parquet and ORC, an estimate for text (from byte sizes). */
  public long countHint() {
    if (countHint < 0) {
      long n = 0;
      for (int i = 0; i < files.size(); i++) {
        Path f = files.file(i);
        switch (files.format(i)) {
          case PARQUET: n += ParquetNodeFile.rowCount(conf, f); break;
          case ORC: n += OrcNodeFile.rowCount(conf, f); break;
          default: n += TextSizes.estimateRows(conf, f, 12 + 4 * Math.max(1, layout.featureWidth())); break;
        }
      }
      countHint = n;
    }
    return countHint;
  }
}
