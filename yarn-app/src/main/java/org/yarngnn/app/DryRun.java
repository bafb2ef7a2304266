package org.yarngnn.app;

import org.yarngnn.app.graphworker.EdgeReading;
import org.yarngnn.app.graphworker.GraphJobOptions;
import java.io.PrintStream;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.infer.InferOptions;
import org.yarngnn.app.train.TrainOptions;
import org.yarngnn.compute.cost.CostEstimate;
import org.yarngnn.compute.cost.CostInputs;
import org.yarngnn.compute.cost.CostLayer;
import org.yarngnn.compute.cost.CostModel;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;

/**
 * {@code --dry-run} (docs/commands.md, "Options every job shares") of infer and train: the command's checks have run
 * (tables' schemas and widths, the model; bad input exits 2 as in a real run); this prints what a run would do — the
 * tables' sizes (exact from Parquet and ORC footers, estimated from a text table's bytes), the model, the workers and
 * containers, and the cost model's estimate of the time per phase, the bytes exchanged and the heap per graph worker
 * ({@link CostModel}) — and runs nothing, writes nothing.
 */
final class DryRun {
  private DryRun() {}

  static void print(Configuration conf, String command, InferOptions o, ModelSpec spec, PrintStream out,
      String extra) {
    print(conf, command, o.job(), spec, out, extra, 0, o.fusion(), o.pipelining());
  }

  /**
   * {@link #print} of a job of {@code epochs} training epochs (0: inference), with or without fusion and
   * pipelining (training pipelines its exchange and fuses nothing).
   */
  static void print(Configuration conf, String command, GraphJobOptions g, ModelSpec spec, PrintStream out,
      String extra, int epochs, boolean fusion, boolean pipelining) {
    String p = "yarn-gnn " + command + ": ";
    out.println(p + "dry run: checked the tables and the model; nothing runs, nothing is written");
    long nodes = -1;
    long edges = -1;
    double crossing = Double.NaN;
    int featureWidth = -1;
    boolean weighted = false;
    if (g.graph() != null) {
      out.println(p + "  graph   " + g.graph() + " (partitioned)");
    } else {
      EdgeTable e = EdgeTable.open(conf, g.edges(), TableReadOptions.builder().format(g.edgesFormat()).build());
      NodeTable n = NodeTable.open(conf, g.nodes(), TableReadOptions.builder().format(g.nodesFormat()).build());
      edges = e.countHint();
      nodes = n.countHint();
      featureWidth = n.featureWidth();
      weighted = e.weighted();
      crossing = crossing(n, nodes, Math.max(1, g.workers()));
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
    if (nodes >= 0 && edges >= 0 && featureWidth >= 1) {
      printEstimate(p, out, g, spec, nodes, g.undirected() ? 2 * edges : edges, featureWidth, weighted, epochs,
          crossing, fusion, pipelining);
    }
  }

  /**
   * The share of node rows the workers will route, from the node files' id spans in their footers (NaN when
   * unknown: the model then assumes rows in no order). Under {@code --ownership hash} every row is routed but
   * those that hash to their reader.
   */
  static double crossing(NodeTable n, long nodes, int workers) {
    int files = n.files().size();
    long[] lo = new long[files];
    long[] hi = new long[files];
    long[] rows = new long[files];
    for (int f = 0; f < files; f++) {
      rows[f] = n.exactRows(f);
      long[] r = rows[f] > 0 ? n.idRange(f) : new long[] {0, -1};
      if (rows[f] < 0 || r == null) {
        return Double.NaN;
      }
      lo[f] = r[0];
      hi[f] = r[1];
    }
    return CostInputs.contiguousCrossing(nodes, workers, lo, hi, rows);
  }

  /**
   * What a YARN job's graph workers take before their first phase: the containers' allocation and localization,
   * their JVMs' start and the model's read (the job phase). The cost model's rates are calibrated on --local jobs,
   * which pay none of it. Measured on scripts/minicluster, 1M-node bench graph, gcn and sage, one graph-worker
   * container: the job's seconds less the sum of its phases but the job phase, median 3.7 s of 6 runs (2.6-6.2) of
   * scripts/bench/cluster on a loaded 2-core machine (docs/benchmarks.md, "The cluster path"). Containers start in
   * parallel on a cluster's nodes; two on one 2-core machine took 8.2 s. A real cluster's scheduler and its nodes'
   * disks move it either way.
   */
  static final double CONTAINER_START_SECONDS = 4.0;

  /**
   * The cost model's estimate ({@link CostModel}, with the rates measured on the reference machine): seconds per
   * phase and a graph worker's peak heap, against the heap its container gets.
   */
  private static void printEstimate(String p, PrintStream out, GraphJobOptions g, ModelSpec spec, long nodes,
      long edges, int featureWidth, boolean weighted, int epochs, double crossing, boolean fusion,
      boolean pipelining) {
    int workers = Math.max(1, g.workers());
    double cores = g.local()
        ? Math.min((long) g.threads() * workers, Runtime.getRuntime().availableProcessors()) / (double) workers
        : Math.min(g.threads(), g.workerVcores());
    CostInputs in = CostInputs.builder().nodes(Math.max(1, nodes)).edges(edges).featureWidth(featureWidth)
        .layers(spec.layers().stream().map(CostLayer::of).toList()).workers(workers).coresPerWorker(cores)
        .weighted(weighted).fused(fusion && epochs == 0).epochs(epochs)
        .nodeCrossing("hash".equals(g.ownership()) ? Double.NaN : crossing)
        .readAllEdges(g.edgeReadingKind(workers) == EdgeReading.ALL).pipelined(epochs > 0 || pipelining).build();
    CostEstimate e = CostModel.estimate(in);
    // On YARN the job also waits for its containers: allocated, localized, their JVMs started and the model read.
    double start = g.local() ? 0 : CONTAINER_START_SECONDS;
    out.printf(Locale.ROOT, "%s  time    about %.0f s (%s%s; the reference machine's rates, "
        + "scripts/bench/cost-model)%n", p, e.seconds() + start, g.local() ? ""
            : String.format(Locale.ROOT, "containers %.1f, ", start), e.phaseSeconds().entrySet().stream()
            .map(x -> String.format(Locale.ROOT, "%s %.1f", x.getKey(), x.getValue()))
            .collect(Collectors.joining(", ")));
    out.printf(Locale.ROOT, "%s  network about %s MB sent between workers per layer (%.0f halo rows per "
        + "worker)%n", p, e.bytesPerLayer().stream().map(b -> String.format(Locale.ROOT, "%,.0f", b / 1e6))
            .collect(Collectors.joining(", ")), e.haloRowsPerWorker());
    long heapMb = (CostModel.JVM_BASE_HEAP + e.heapBytesPerWorker()) >> 20;
    long jvmMb = (CostModel.JVM_BASE_HEAP + workers * e.heapBytesPerWorker()) >> 20;
    long maxMb = Runtime.getRuntime().maxMemory() >> 20;
    String fits;
    if (g.local()) {
      fits = (jvmMb <= maxMb ? "; all " + workers + " fit" : "; the workers need " + jvmMb + " MB, more than")
          + " this JVM's -Xmx " + maxMb + " MB (YARN_GNN_OPTS=-Xmx...)";
    } else if (heapMb <= (long) g.workerMemoryMb() * 3 / 4) {
      fits = "; fits --worker-memory " + g.workerMemoryMb() + " MB (-Xmx at 75%)";
    } else {
      fits = "; more than --worker-memory " + g.workerMemoryMb() + " MB gives (-Xmx at 75%): add workers or memory";
    }
    out.printf(Locale.ROOT, "%s  memory  about %,d MB of heap per graph worker (the peak of its phases' arrays, "
        + "CostModel), RSS about %,d MB%s%n", p, heapMb, (CostModel.JVM_BASE_HEAP + e.rssBytesPerWorker()) >> 20,
        fits);
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
