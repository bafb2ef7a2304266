package org.yarngnn.io.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.yarngnn.io.orc.OrcEdgeFile;
import org.yarngnn.io.parquet.ParquetEdgeFile;
import org.yarngnn.io.parquet.ParquetFile;
import org.yarngnn.io.text.TextEdgeFile;
import org.yarngnn.io.text.TextSizes;

/**
 * An edges table (a file or a directory of files) on any Hadoop FileSystem. Opening checks that it exists and
 * looks at its first file to learn its optional columns (weight, split); reading checks every row. Files may be read in
 * parallel through {@link #readFile}, or, finer, {@link #splits} (ranges of a Parquet file's row groups, so even
 * a single-file table is read on several threads) through {@link #readSplit}.
 */
public final class EdgeTable extends FileTable<EdgeSink> {
  private final EdgeColumns columns;
  /** Per Parquet file, its footer, read once (schema, row groups) for every split of the file. */
  private final ParquetMetadata[] footers;

  private EdgeTable(Configuration conf, TableFiles files, TableReadOptions opts, EdgeColumns columns) {
    super(conf, files, opts);
    this.columns = columns;
    this.footers = new ParquetMetadata[files.size()];
  }

  public static EdgeTable open(Configuration conf, Path path, TableReadOptions opts) {
    return open(conf, TableFiles.resolve(conf, path, opts.format()), opts);
  }

  /**
   * Opens a table given as a string: a comma-separated list of files, directories and globs (see the README's
   * Tables section); the string form keeps each element's own scheme and authority.
   */
  public static EdgeTable open(Configuration conf, String table, TableReadOptions opts) {
    return open(conf, TableFiles.resolve(conf, table, opts.format()), opts);
  }

  private static EdgeTable open(Configuration conf, TableFiles files, TableReadOptions opts) {
    // The first file that says: a Parquet or ORC file by its columns, a text file by its first data row (an
    // empty text file says nothing). A table of empty text files is a graph without edges.
    EdgeColumns columns = null;
    ParquetMetadata footer = null;
    int i = 0;
    for (; i < files.size() && columns == null; i++) {
      Path f = files.file(i);
      switch (files.format(i)) {
        case PARQUET:
          footer = ParquetFile.footer(conf, f);
          columns = ParquetEdgeFile.columns(conf, f, footer, opts);
          break;
        case ORC: columns = OrcEdgeFile.columns(conf, f, opts); break;
        default: columns = TextEdgeFile.columns(conf, f, files.format(i)); break;
      }
    }
    EdgeTable t = new EdgeTable(conf, files, opts, columns != null ? columns : EdgeColumns.PLAIN);
    if (footer != null) {
      t.footers[i - 1] = footer;
    }
    return t;
  }

  /** True when the table has a weight column (text: a third field in its first data row). */
  public boolean weighted() {
    return columns.weighted();
  }

  /**
   * True when the table has a {@code split} column (text: a split word as the last field of its first data row).
   * Only a sink that {@link EdgeSink#wantsSplit} receives it.
   */
  public boolean hasSplit() {
    return columns.split();
  }

  /** The table's optional columns. */
  public EdgeColumns columns() {
    return columns;
  }

  @Override
  public void readFile(int index, EdgeSink sink) {
    Path f = files.file(index);
    TableFormat format = files.format(index);
    sink.beginFile(f.toString());
    switch (format) {
      case PARQUET: ParquetEdgeFile.read(conf, f, footer(index), opts, columns, 0, Integer.MAX_VALUE, sink); break;
      case ORC: OrcEdgeFile.read(conf, f, opts, columns, sink); break;
      default: TextEdgeFile.read(conf, f, format, columns, sink); break;
    }
  }

  /**
   * A part of the table that can be read on its own: row groups {@code [firstRowGroup, firstRowGroup + rowGroups)}
   * of a Parquet file, or a whole file of another format ({@code rowGroups == -1}). {@code rows} is exact for
   * Parquet and ORC, estimated for text.
   */
  public record Split(int file, int firstRowGroup, int rowGroups, long rows) {}

  /**
   * The table cut into splits of about {@code targetRows} rows in table order (Parquet files at row group
   * boundaries; other files whole). Rows keep their numbering within their file in error messages.
   */
  public List<Split> splits(long targetRows) {
    List<Split> out = new ArrayList<>();
    for (int f = 0; f < files.size(); f++) {
      if (files.format(f) != TableFormat.PARQUET) {
        out.add(new Split(f, 0, -1, rowCount(f)));
        continue;
      }
      long[] groups = rowGroupRows(f);
      int first = 0;
      long rows = 0;
      for (int g = 0; g < groups.length; g++) {
        rows += groups[g];
        if (rows >= targetRows || g == groups.length - 1) {
          out.add(new Split(f, first, g + 1 - first, rows));
          first = g + 1;
          rows = 0;
        }
      }
      if (groups.length == 0) {
        out.add(new Split(f, 0, 0, 0));
      }
    }
    return out;
  }

  private synchronized ParquetMetadata footer(int f) {
    if (footers[f] == null) {
      footers[f] = ParquetFile.footer(conf, files.file(f));
    }
    return footers[f];
  }

  private long[] rowGroupRows(int f) {
    List<BlockMetaData> blocks = footer(f).getBlocks();
    long[] rows = new long[blocks.size()];
    for (int g = 0; g < rows.length; g++) {
      rows[g] = blocks.get(g).getRowCount();
    }
    return rows;
  }

  /** Reads one split; safe to call from several threads for different splits. */
  public void readSplit(Split split, EdgeSink sink) {
    if (split.rowGroups() < 0) {
      readFile(split.file(), sink);
      return;
    }
    Path f = files.file(split.file());
    sink.beginFile(f.toString());
    ParquetEdgeFile.read(conf, f, footer(split.file()), opts, columns, split.firstRowGroup(), split.rowGroups(),
        sink);
  }

  @Override
  long rowCount(int index) {
    Path f = files.file(index);
    switch (files.format(index)) {
      case PARQUET: return Arrays.stream(rowGroupRows(index)).sum();
      case ORC: return OrcEdgeFile.rowCount(conf, f);
      default: return TextSizes.estimateRows(conf, f, (columns.weighted() ? 20 : 14) + (columns.split() ? 6 : 0));
    }
  }
}
