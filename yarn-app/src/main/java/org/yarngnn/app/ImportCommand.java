package org.yarngnn.app;

import java.io.PrintStream;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.PathOverlap;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.io.table.TableImport;
import org.yarngnn.io.table.TableKind;
import org.yarngnn.io.table.TableReadOptions;

/**
 * {@code import}: text tables (TSV/CSV, gzip allowed) to Parquet, {@code OUT/edges} and {@code OUT/nodes},
 * committed together: when either table has a bad row, nothing is written.
 */
public final class ImportCommand implements Command {
  @Override
  public OptionSpec options() {
    return new OptionSpec("import", "[--edges PATH] [--nodes PATH] --output DIR")
        .value("edges", "PATH", "edges table to convert (written to DIR/edges)")
        .value("nodes", "PATH", "nodes table to convert (written to DIR/nodes)")
        .value("edges-format", "FORMAT", "tsv|csv|parquet|orc when the file names do not say")
        .value("nodes-format", "FORMAT", "tsv|csv|parquet|orc when the file names do not say")
        .value("output", "DIR", "output directory")
        .flag("overwrite", "replace an existing output directory");
  }

  @Override
  public int run(CommandLine cl, PrintStream out) {
    if (!cl.has("edges") && !cl.has("nodes")) {
      throw new UsageException("import needs --edges, --nodes or both");
    }
    Path output = new Path(cl.require("output"));
    PathOverlap.check(cl.conf(), "--output", output, "--edges", cl.get("edges"), "--nodes", cl.get("nodes"));
    // Runs wholly in this JVM: SIGTERM or Ctrl-C removes the work directory as the JVM exits.
    OutputCommit commit = OutputCommit.begin(cl.conf(), output, cl.flag("overwrite")).abortOnExit();
    try {
      long edges = importTable(cl, TableKind.EDGES, "edges", commit);
      long nodes = importTable(cl, TableKind.NODES, "nodes", commit);
      commit.commit();
      out.printf("yarn-gnn import: wrote %,d edges and %,d nodes as Parquet under %s%n", edges, nodes, output);
      return Main.OK;
    } catch (RuntimeException e) {
      commit.abort();
      throw e;
    }
  }

  private static long importTable(CommandLine cl, TableKind kind, String name, OutputCommit commit) {
    String input = cl.get(name);
    if (input == null) {
      return 0;
    }
    TableReadOptions opts = TableReadOptions.builder().format(format(cl, name + "-format")).build();
    return TableImport.importText(cl.conf(), kind, new Path(input), opts, new Path(commit.workDir(), name), false);
  }

  static TableFormat format(CommandLine cl, String option) {
    String v = cl.get(option);
    if (v == null) {
      return null;
    }
    try {
      return TableFormat.fromName(v);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + option + ": unknown format '" + v + "' (parquet, orc, tsv, csv)");
    }
  }
}
