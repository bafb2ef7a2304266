package org.yarngnn.io.table;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.orc.OrcNodeFile;
import org.yarngnn.io.parquet.ParquetNodeFile;
import org.yarngnn.io.text.TextNodeFile;

/**
 * A nodes table (a file or a directory of files) on any Hadoop FileSystem. Opening looks at the first row of
 * the first non-empty file: that row sets the feature width every row must have; the first file's columns say
 * whether the table has labels and splits. Reading checks every row.
 */
public final class NodeTable extends FileTable<NodeSink> {
  private final NodeLayout layout;

  private NodeTable(Configuration conf, TableFiles files, TableReadOptions opts, NodeLayout layout) {
    super(conf, files, opts);
    this.layout = layout;
  }

  public static NodeTable open(Configuration conf, Path path, TableReadOptions opts) {
    return open(conf, path.toString(), TableFiles.resolve(conf, path, opts.format()), opts);
  }

  /**
   * Opens a table given as a string: a comma-separated list of files, directories and globs (see the README's
   * Tables section); the string form keeps each element's own scheme and authority.
   */
  public static NodeTable open(Configuration conf, String table, TableReadOptions opts) {
    return open(conf, table, TableFiles.resolve(conf, table, opts.format()), opts);
  }

  private static NodeTable open(Configuration conf, String path, TableFiles files, TableReadOptions opts) {
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
      throw new InputException(path + ": nodes table has no rows");
    }
    return new NodeTable(conf, files, opts, layout);
  }

  private static NodeLayout peek(Configuration conf, Path file, TableFormat format, TableReadOptions opts) {
    switch (format) {
      case PARQUET: return ParquetNodeFile.peek(conf, file, opts);
      case ORC: return OrcNodeFile.peek(conf, file, opts);
      default: return TextNodeFile.peek(conf, file, format, opts.allowNonFinite());
    }
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

  @Override
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

  /**
   * The smallest and largest id of file {@code index} from its footer's statistics (Parquet), or null when they are
   * not known without reading the file (ORC and text here, or a Parquet writer that kept no statistics).
   */
  public long[] idRange(int index) {
    return files.format(index) == TableFormat.PARQUET
        ? ParquetNodeFile.idRange(conf, files.file(index), opts) : null;
  }

  @Override
  long rowCount(int index) {
    return rowCount(conf, files.file(index), files.format(index), 12 + 4 * Math.max(1, layout.featureWidth()));
  }
}
