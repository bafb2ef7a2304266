package org.yarngnn.app;

import java.io.PrintStream;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.infer.InferOptions;
import org.yarngnn.app.train.TrainOptions;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;

/**
 * {@code --dry-run} (CONTRACT.md "Other options") of infer and train: the command's checks have run (tables'
 * schemas and widths, the model; bad input exits 2 as in a real run); this prints what a run would do — the
 * tables' sizes (exact from Parquet and ORC footers, estimated from a text table's bytes), the model, the workers
 * and containers, and a rough memory figure per graph worker — and runs nothing, writes nothing.
 */
final class DryRun {
  /** Rough bytes per edge a graph worker holds: CSR column and row share, the source's slot, the weight. */
  static final long BYTES_PER_EDGE = 16;

  private DryRun() {}

  static void print(Configuration conf, String command, InferOptions g, ModelSpec spec, PrintStream out,
      String extra) {
    String p = "yarn-gnn " + command + ": ";
    out.println(p + "dry run: checked the tables and the model; nothing runs, nothing is written");
    long nodes = -1;
    long edges = -1;
    if (g.graph() != null) {
      out.println(p + "  graph   " + g.graph() + " (partitioned)");
    } else {
      EdgeTable e = EdgeTable.open(conf, g.edges(), TableReadOptions.builder().format(g.edgesFormat()).build());
      NodeTable n = NodeTable.open(conf, g.nodes(), TableReadOptions.builder().format(g.nodesFormat()).build());
      edges = e.countHint();
      nodes = n.countHint();
      out.printf(Locale.ROOT, "%s  edges   %s: %s%,d rows%s%n", p, g.edges(), about(g.edges(), g.edgesFormat()),
          edges, g.undirected() ? " (x2: --undirected)" : "");
      out.printf(Locale.ROOT, "%s  nodes   %s: %s%,d rows of %d features%n", p, g.nodes(),
          about(g.nodes(), g.nodesFormat()), nodes, n.featureWidth());
    }
    out.printf(Locale.ROOT, "%s  model   %d layers (%s), output width %d%n", p, spec.layers().size(),
        spec.layers().stream().map(l -> l.type().name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")),
        spec.outputWidth());
    int workers = Math.max(1, g.workers());
    out.println(p + "  workers " + (g.local()
        ? workers + " graph workers as threads of this JVM (--local)"
        : workers + " graph-worker containers of " + g.workerMemoryMb() + " MB and " + g.workerVcores()
            + " vcores on YARN (queue " + g.queue() + ")") + "; output " + g.output() + " ("
        + g.outputFormat().extension() + ")");
    if (extra != null) {
      out.println(p + "  " + extra);
    }
    if (nodes >= 0) {
      long edgeRows = g.undirected() ? 2 * edges : edges;
      int widest = spec.layers().get(0).in();
      for (LayerSpec l : spec.layers()) {
        widest = Math.max(widest, l.outputWidth());
      }
      // Features of its nodes, three node rows of the widest layer (messages, outputs, a work row), its edges.
      double mb = ((double) nodes / workers * 4 * (spec.layers().get(0).in() + 3L * widest)
          + (double) edgeRows / workers * BYTES_PER_EDGE) / (1 << 20);
      out.printf(Locale.ROOT, "%s  memory  about %,.0f MB of heap per graph worker (features + 3 rows of the widest "
          + "layer per node + %d bytes per edge; a rough figure, halo rows not counted)%n", p, mb, BYTES_PER_EDGE);
    }
  }

  /**
   * "" for a Parquet or ORC table (its footers count exactly), else the caveat of a text table's count (a guess
   * from its bytes: compressed text counts far too few).
   */
  private static String about(String table, org.yarngnn.io.table.TableFormat format) {
    String t = table.toLowerCase(Locale.ROOT);
    boolean columnar = format != null ? format == org.yarngnn.io.table.TableFormat.PARQUET
        || format == org.yarngnn.io.table.TableFormat.ORC : t.endsWith(".parquet") || t.endsWith(".orc")
        || !(t.endsWith(".tsv") || t.endsWith(".csv") || t.endsWith(".txt") || t.endsWith(".gz"));
    return columnar ? "" : "(a text table: guessed from its bytes) ~";
  }

  /** The remote tensor backend's part of a training plan, or null. */
  static String trainPlan(TrainOptions o) {
    String epochs = o.epochs() + " epochs";
    if (o.tensorBackend() != TrainOptions.TensorBackend.REMOTE) {
      return "train   " + epochs + ", tensor work in the graph workers (--tensor-backend local), the parameter "
          + "server in the " + (o.local() ? "client JVM" : "ApplicationMaster");
    }
    return "train   " + epochs + ", " + o.tensorWorkers() + " tensor workers (" + o.tensorWorkersMin() + ".."
        + o.tensorWorkersMax() + (o.local() ? ", threads" : ", containers of " + o.tensorWorkerMemoryMb() + " MB and "
        + o.tensorWorkerVcores() + " vcores") + "), " + o.intervals() + " intervals per partition, the parameter "
        + "server in the " + (o.local() ? "client JVM" : "ApplicationMaster");
  }
}
