package org.yarngnn.app;

import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.options.Option;
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
  private static final Option<String> EDGES = GraphJobOptions.EDGES.withHelp(
      "edges table to convert (written to DIR/edges)");
  private static final Option<String> NODES = GraphJobOptions.NODES.withHelp(
      "nodes table to convert (written to DIR/nodes)");
  private static final Option<TableFormat> EDGES_FORMAT = GraphJobOptions.EDGES_FORMAT.withHelp(
      "tsv|csv|parquet|orc when the file names do not say");
  private static final Option<TableFormat> NODES_FORMAT = GraphJobOptions.NODES_FORMAT.withHelp(
      "tsv|csv|parquet|orc when the file names do not say");

  @Override
  public OptionSpec options() {
    return CommandOptions.declare(new OptionSpec("import", "[--edges PATH] [--nodes PATH] --output DIR"),
        List.of(EDGES, NODES, EDGES_FORMAT, NODES_FORMAT, GraphJobOptions.OUTPUT.withHelp("output directory"),
            GraphJobOptions.OVERWRITE));
  }

  @Override
  public int run(CommandLine cl, PrintStream out) {
    if (!cl.has("edges") && !cl.has("nodes")) {
      throw new UsageException("import needs --edges, --nodes or both");
    }
    Path output = new Path(cl.require("output"));
    PathOverlap.check(cl.conf(), "--output", output, "--edges", EDGES.read(cl), "--nodes", NODES.read(cl));
    // Runs wholly in this JVM: SIGTERM or Ctrl-C removes the work directory as the JVM exits.
    OutputCommit commit = OutputCommit.begin(cl.conf(), output, GraphJobOptions.OVERWRITE.read(cl)).abortOnExit();
    try {
      long edges = importTable(cl, TableKind.EDGES, EDGES, EDGES_FORMAT, commit);
      long nodes = importTable(cl, TableKind.NODES, NODES, NODES_FORMAT, commit);
      commit.commit();
      out.printf("yarn-gnn import: wrote %,d edges and %,d nodes as Parquet under %s%n", edges, nodes, output);
      return Main.OK;
    } catch (RuntimeException e) {
      commit.abort();
      throw e;
    }
  }

  private static long importTable(CommandLine cl, TableKind kind, Option<String> table,
      Option<TableFormat> format, OutputCommit commit) {
    String input = table.read(cl);
    if (input == null) {
      return 0;
    }
    TableReadOptions opts = TableReadOptions.builder().format(format.read(cl)).build();
    return TableImport.importText(cl.conf(), kind, new Path(input), opts, new Path(commit.workDir(), table.name()),
        false);
  }
}
