package org.yarngnn.io.table;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The {@code import} command's logic: converts a table (text, gzip allowed; any readable format) into a
 * Parquet table directory, one part file per input file, validating every row on the way (the same checks as
 * every other reader). The output is committed atomically ({@link OutputCommit}).
 */
public final class TableImport {
  private TableImport() {
  }

  /** Imports {@code input} as a table of {@code kind} into directory {@code output}; returns the rows written. */
  public static long importText(Configuration conf, TableKind kind, Path input, TableReadOptions opts, Path output,
      boolean overwrite) {
    return kind == TableKind.EDGES
        ? importEdges(conf, EdgeTable.open(conf, input, opts), output, overwrite)
        : importNodes(conf, NodeTable.open(conf, input, opts), output, overwrite);
  }

  private static long importEdges(Configuration conf, EdgeTable table, Path output, boolean overwrite) {
    OutputCommit commit = OutputCommit.begin(conf, output, overwrite);
    long rows = 0;
    try {
      for (int i = 0; i < table.files().size(); i++) {
        try (EdgeTableWriter w = EdgeTableWriter.create(conf, commit.partFile(i, TableFormat.PARQUET),
            TableFormat.PARQUET, table.columns())) {
          table.readFile(i, new EdgeSink() {
            @Override
            public boolean wantsSplit() {
              return true; // the split column is imported as it is, its values checked
            }

            @Override
            public void edge(long src, long dst, float weight, long row) {
              w.write(src, dst, weight);
            }

            @Override
            public void edge(long src, long dst, float weight, byte split, long row) {
              w.write(src, dst, weight, split);
            }
          });
          rows += w.rowsWritten();
        }
      }
      commit.commit();
      return rows;
    } catch (RuntimeException e) {
      commit.abort();
      throw e;
    }
  }

  private static long importNodes(Configuration conf, NodeTable table, Path output, boolean overwrite) {
    OutputCommit commit = OutputCommit.begin(conf, output, overwrite);
    boolean labelled = table.hasLabels() || table.hasSplits();
    long rows = 0;
    try {
      for (int i = 0; i < table.files().size(); i++) {
        try (NodeTableWriter w = NodeTableWriter.create(conf, commit.partFile(i, TableFormat.PARQUET),
            TableFormat.PARQUET, table.featureWidth(), labelled)) {
          table.readFile(i, (id, label, split, features, row) -> w.write(id, features, 0, label, split));
          rows += w.rowsWritten();
        }
      }
      commit.commit();
      return rows;
    } catch (RuntimeException e) {
      commit.abort();
      throw e;
    }
  }
}
