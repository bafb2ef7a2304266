package org.yarngnn.app;

import java.io.PrintStream;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.EdgeReading;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.infer.InferOptions;
import org.yarngnn.app.train.TrainOptions;
import org.yarngnn.compute.cost.CostEstimate;
import org.yarngnn.compute.cost.CostInputs;
import org.yarngnn.compute.cost.CostLayer;
import org.yarngnn.compute.cost.CostModel;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.Ownership;

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
    print(conf, command, o.job(), spec, out, extra, 0, o.get(InferOptions.FUSION), o.get(InferOptions.PIPELINING));
  }

  /**
   * {@link #print} of a job of {@code epochs} training epochs (0: inference), with or without fusion and
   * pipelining (training pipelines its exchange and fuses nothing).
   */
  static void print(Configuration conf, String command, GraphJobOptions g, ModelSpec spec, PrintStream out,
      String extra, int epochs, boolean fusion, boolean pipelining) {
    String p = "yarn-gnn " + command + ": ";
    out.println(p + "dry run: checked the tables and the model; nothing runs, nothing is written");
    Sizes sizes = null;
    if (g.get(GraphJobOptions.GRAPH) != null) {
      out.println(p + "  graph   " + g.get(GraphJobOptions.GRAPH) + " (partitioned)");
    } else {
      sizes = Sizes.of(conf, g);
      out.printf(Locale.ROOT, "%s  edges   %s: %s%,d rows%s%n", p, g.get(GraphJobOptions.EDGES),
          about(g.get(GraphJobOptions.EDGES), g.get(GraphJobOptions.EDGES_FORMAT)),
          sizes.edges(), g.get(GraphJobOptions.UNDIRECTED) ? " (x2: --undirected)" : "");
      out.printf(Locale.ROOT, "%s  nodes   %s: %s%,d rows of %d features%n", p, g.get(GraphJobOptions.NODES),
          about(g.get(GraphJobOptions.NODES), g.get(GraphJobOptions.NODES_FORMAT)), sizes.nodes(),
          sizes.featureWidth());
    }
    out.printf(Locale.ROOT, "%s  model   %d layers (%s), output width %d%n", p, spec.layers().size(),
        spec.layers().stream().map(l -> l.type().name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")),
        spec.outputWidth());
    int workers = Math.max(1, g.getInt(GraphJobOptions.WORKERS));
    out.println(p + "  workers " + (g.get(GraphJobOptions.LOCAL)
        ? workers + " graph workers as threads of this JVM (--local)"
        : workers + " graph-worker containers of " + g.getInt(GraphJobOptions.WORKER_MEMORY) + " MB and "
            + g.getInt(GraphJobOptions.WORKER_VCORES) + " vcores on YARN (queue " + g.get(GraphJobOptions.QUEUE)
            + ")") + "; output " + g.get(GraphJobOptions.OUTPUT) + " ("
        + g.get(GraphJobOptions.OUTPUT_FORMAT).extension() + ")");
    if (extra != null) {
      out.println(p + "  " + extra);
    }
    if (sizes != null && sizes.estimable()) {
      printEstimate(p, out, g, estimate(g, spec, sizes, epochs, fusion, pipelining));
    }
  }

  /**
   * What the estimate needs of the tables: rows (exact from Parquet and ORC footers, a guess from text; edges as
   * the table has them, before --undirected), the feature width, weights, the share of node rows routed.
   */
  private record Sizes(long nodes, long edges, int featureWidth, boolean weighted, double crossing) {
    static Sizes of(Configuration conf, GraphJobOptions g) {
      EdgeTable e = EdgeTable.open(conf, g.get(GraphJobOptions.EDGES), TableReadOptions.builder()
          .format(g.get(GraphJobOptions.EDGES_FORMAT)).build());
      NodeTable n = NodeTable.open(conf, g.get(GraphJobOptions.NODES), TableReadOptions.builder()
          .format(g.get(GraphJobOptions.NODES_FORMAT)).build());
      long nodes = n.countHint();
      return new Sizes(nodes, e.countHint(), n.featureWidth(), e.weighted(),
          DryRun.crossing(n, nodes, Math.max(1, g.getInt(GraphJobOptions.WORKERS))));
    }

    boolean estimable() {
      return nodes >= 0 && edges >= 0 && featureWidth >= 1;
    }
  }

  /**
   * How far beyond its heap a job's estimate may be before it is refused. The estimate is an estimate (a text
   * table's rows are guessed, its headroom is generous), so a job near its heap is left to run; one at twice
   * its heap or more would allocate until the JVM runs out, later and with a worse message.
   */
  static final double REFUSED_BEYOND_HEAP = 2.0;

  /**
   * Refuses a job whose graph workers' estimated heap ({@link #print}'s, {@link CostModel}) is more than
   * {@link #REFUSED_BEYOND_HEAP} times what they get: this JVM's -Xmx with {@code --local}, else 75% of
   * {@code --worker-memory}; naming the model's widest layer. Exit 2, as other input found wrong before anything
   * runs: the spec and the memory asked for are the user's to change, and a scheduler should not retry. Not for a
   * partitioned graph, whose sizes the estimate does not read. {@code defaultWorkers}: the job's workers when
   * {@code --workers} is not given.
   */
  static void requireHeap(Configuration conf, GraphJobOptions given, ModelSpec spec, int epochs,
      int defaultWorkers) {
    if (given.get(GraphJobOptions.GRAPH) != null) {
      return;
    }
    GraphJobOptions g = given.getInt(GraphJobOptions.WORKERS) != 0 ? given
        : given.toBuilder().set(GraphJobOptions.WORKERS, defaultWorkers).build();
    Sizes sizes = Sizes.of(conf, g);
    if (!sizes.estimable()) {
      return;
    }
    // Training: no fusion, its exchange pipelined.
    Heap h = heap(g, estimate(g, spec, sizes, epochs, false, true));
    if (h.neededMb() > REFUSED_BEYOND_HEAP * h.availableMb()) {
      int widest = 0;
      for (int k = 1; k < spec.layers().size(); k++) {
        if (width(spec.layers().get(k)) > width(spec.layers().get(widest))) {
          widest = k;
        }
      }
      LayerSpec l = spec.layers().get(widest);
      boolean local = g.get(GraphJobOptions.LOCAL);
      throw new UsageException(String.format(Locale.ROOT, "the model needs about %,d MB of "
          + "heap%s (the --dry-run estimate), far beyond the %,d MB %s: its widest layer is layer %d (%s, in %d, "
          + "out %d); use a narrower model, %s", h.neededMb(), local ? "" : " per graph worker", h.availableMb(),
          h.source(), widest, l.type().jsonName(), l.in(), l.outputWidth(), local
              ? "or more heap (YARN_GNN_OPTS=-Xmx...)" : "more --workers or more --worker-memory"));
    }
  }

  private static long width(LayerSpec l) {
    CostLayer c = CostLayer.of(l);
    return (long) c.in() + c.linearWidth() + c.outputWidth();
  }

  /** Heap the job's estimate needs against what it gets (MB), and what gives it. */
  private record Heap(long neededMb, long availableMb, String source) {}

  private static Heap heap(GraphJobOptions g, CostEstimate e) {
    int workers = Math.max(1, g.getInt(GraphJobOptions.WORKERS));
    if (g.get(GraphJobOptions.LOCAL)) {
      return new Heap((CostModel.JVM_BASE_HEAP + workers * e.heapBytesPerWorker()) >> 20,
          Runtime.getRuntime().maxMemory() >> 20, "this JVM's -Xmx gives");
    }
    return new Heap((CostModel.JVM_BASE_HEAP + e.heapBytesPerWorker()) >> 20,
        (long) g.getInt(GraphJobOptions.WORKER_MEMORY) * 3 / 4,
        "--worker-memory " + g.getInt(GraphJobOptions.WORKER_MEMORY) + " MB gives (-Xmx at 75%)");
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
  private static void printEstimate(String p, PrintStream out, GraphJobOptions g, CostEstimate e) {
    int workers = Math.max(1, g.getInt(GraphJobOptions.WORKERS));
    // On YARN the job also waits for its containers: allocated, localized, their JVMs started and the model read.
    double start = g.get(GraphJobOptions.LOCAL) ? 0 : CONTAINER_START_SECONDS;
    out.printf(Locale.ROOT, "%s  time    about %.0f s (%s%s; the reference machine's rates, "
        + "scripts/bench/cost-model)%n", p, e.seconds() + start, g.get(GraphJobOptions.LOCAL) ? ""
            : String.format(Locale.ROOT, "containers %.1f, ", start), e.phaseSeconds().entrySet().stream()
            .map(x -> String.format(Locale.ROOT, "%s %.1f", x.getKey(), x.getValue()))
            .collect(Collectors.joining(", ")));
    out.printf(Locale.ROOT, "%s  network about %s MB sent between workers per layer (%.0f halo rows per "
        + "worker)%n", p, e.bytesPerLayer().stream().map(b -> String.format(Locale.ROOT, "%,.0f", b / 1e6))
            .collect(Collectors.joining(", ")), e.haloRowsPerWorker());
    long heapMb = (CostModel.JVM_BASE_HEAP + e.heapBytesPerWorker()) >> 20;
    Heap h = heap(g, e);
    String fits;
    if (g.get(GraphJobOptions.LOCAL)) {
      fits = (h.neededMb() <= h.availableMb() ? "; all " + workers + " fit"
          : "; the workers need " + h.neededMb() + " MB, more than") + " this JVM's -Xmx " + h.availableMb()
          + " MB (YARN_GNN_OPTS=-Xmx...)";
    } else if (heapMb <= h.availableMb()) {
      fits = "; fits --worker-memory " + g.getInt(GraphJobOptions.WORKER_MEMORY) + " MB (-Xmx at 75%)";
    } else {
      fits = "; more than --worker-memory " + g.getInt(GraphJobOptions.WORKER_MEMORY)
          + " MB gives (-Xmx at 75%): add workers or memory";
    }
    out.printf(Locale.ROOT, "%s  memory  about %,d MB of heap per graph worker (the peak of its phases' arrays, "
        + "CostModel), RSS about %,d MB%s%n", p, heapMb, (CostModel.JVM_BASE_HEAP + e.rssBytesPerWorker()) >> 20,
        fits);
  }

  /** The cost model's estimate of {@code g}'s job over tables of {@code sizes}. */
  private static CostEstimate estimate(GraphJobOptions g, ModelSpec spec, Sizes sizes, int epochs, boolean fusion,
      boolean pipelining) {
    int workers = Math.max(1, g.getInt(GraphJobOptions.WORKERS));
    double cores = g.get(GraphJobOptions.LOCAL)
        ? Math.min((long) g.threads() * workers, Runtime.getRuntime().availableProcessors()) / (double) workers
        : Math.min(g.threads(), g.getInt(GraphJobOptions.WORKER_VCORES));
    CostInputs in = CostInputs.builder().nodes(Math.max(1, sizes.nodes()))
        .edges(g.get(GraphJobOptions.UNDIRECTED) ? 2 * sizes.edges() : sizes.edges())
        .featureWidth(sizes.featureWidth()).layers(spec.layers().stream().map(CostLayer::of).toList())
        .workers(workers).coresPerWorker(cores).weighted(sizes.weighted()).fused(fusion && epochs == 0)
        .epochs(epochs).nodeCrossing(g.get(GraphJobOptions.OWNERSHIP) == Ownership.Kind.HASH ? Double.NaN
        : sizes.crossing())
        .readAllEdges(g.get(GraphJobOptions.EDGE_READING).resolve(workers) == EdgeReading.ALL).pipelined(epochs > 0
        || pipelining).build();
    return CostModel.estimate(in);
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
    String epochs = o.getInt(TrainOptions.EPOCHS) + " epochs";
    if (o.get(TrainOptions.TENSOR_BACKEND) != TrainOptions.TensorBackend.REMOTE) {
      return "train   " + epochs + ", tensor work in the graph workers (--tensor-backend local), the parameter "
          + "server in the " + (o.get(GraphJobOptions.LOCAL) ? "client JVM" : "ApplicationMaster");
    }
    return "train   " + epochs + ", " + o.getInt(TrainOptions.TENSOR_WORKERS) + " tensor workers ("
        + o.getInt(TrainOptions.TENSOR_WORKERS_MIN) + ".."
        + o.getInt(TrainOptions.TENSOR_WORKERS_MAX) + (o.get(GraphJobOptions.LOCAL) ? ", threads" : ", containers of "
        + o.getInt(TrainOptions.TENSOR_WORKER_MEMORY) + " MB and "
        + o.getInt(TrainOptions.TENSOR_WORKER_VCORES) + " vcores") + "), " + o.getInt(TrainOptions.INTERVALS)
        + " intervals per partition, the parameter "
        + "server in the " + (o.get(GraphJobOptions.LOCAL) ? "client JVM" : "ApplicationMaster");
  }
}
