package org.yarngnn.io.table;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.orc.OrcIdFile;
import org.yarngnn.io.parquet.ParquetIdFile;
import org.yarngnn.io.text.TextIdFile;

/**
 * A table of node ids (a file or a directory of files, any format a nodes table may have): Parquet and ORC
 * files are read for their {@code id} column only (so a nodes table is a valid id table), text files for their
 * first field (a line is {@code id} or a nodes table's row). Ids are checked as a nodes table's are (null, not
 * an integer, an overflow); opening refuses a table without any row.
 */
public final class IdTable extends FileTable<IdSink> {
  private final String path;

  private IdTable(Configuration conf, String path, TableFiles files, TableReadOptions opts) {
    super(conf, files, opts);
    this.path = path;
  }

  /** Opens the table given as a string (comma-separated files, directories and globs); {@code what} names it. */
  public static IdTable open(Configuration conf, String table, TableReadOptions opts, String what) {
    IdTable t = new IdTable(conf, table, TableFiles.resolve(conf, table, opts.format()), opts);
    for (int i = 0; i < t.files.size(); i++) {
      if (t.firstRow(i)) {
        return t;
      }
    }
    throw new InputException(table + ": " + what + " table has no rows");
  }

  /** Writes {@code ids} as a one-column ({@code id} INT64) table file in {@code format}. */
  public static void write(Configuration conf, Path file, TableFormat format, long[] ids) {
    try (TableWriter w = TableWriter.create(conf, file, format, "ids", java.util.List.of(ColumnSpec.int64("id")))) {
      for (long id : ids) {
        w.setLong(0, id);
        w.endRow();
      }
    }
  }

  /** The table as given. */
  public String path() {
    return path;
  }

  /** Whether file {@code index} has a row (reading stops at it). */
  private boolean firstRow(int index) {
    boolean[] found = new boolean[1];
    try {
      readFile(index, (id, file, row) -> {
        found[0] = true;
        throw new FirstRow();
      });
    } catch (FirstRow stop) {
      // Only whether there is a row matters here.
    }
    return found[0];
  }

  /** Ends a read at its first row. */
  private static final class FirstRow extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FirstRow() {
      super(null, null, false, false);
    }
  }

  @Override
  public void readFile(int index, IdSink sink) {
    Path f = files.file(index);
    switch (files.format(index)) {
      case PARQUET: ParquetIdFile.read(conf, f, opts.idColumn(), index, sink); break;
      case ORC: OrcIdFile.read(conf, f, opts.idColumn(), index, sink); break;
      default: TextIdFile.read(conf, f, files.format(index), index, sink); break;
    }
  }

  @Override
  long rowCount(int index) {
    return rowCount(conf, files.file(index), files.format(index), 8);
  }
}
