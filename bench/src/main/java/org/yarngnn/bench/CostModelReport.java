package org.yarngnn.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.yarngnn.compute.cost.CostEstimate;
import org.yarngnn.compute.cost.CostInputs;
import org.yarngnn.compute.synth.RmatGenerator;
import org.yarngnn.compute.cost.CostLayer;
import org.yarngnn.compute.cost.CostModel;
import org.yarngnn.compute.cost.CostRates;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.kernel.Gemm;
import org.yarngnn.compute.kernel.PackedMatrix;
import org.yarngnn.compute.kernel.SpMM;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.model.LayerType;
import org.yarngnn.compute.model.ModelFormat;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * {@code scripts/bench/cost-model}'s calculations: calibrates the {@link CostRates} (the kernels timed here on one
 * thread; the phases from a one-worker calibration job's {@code --metrics}; the network from the transport's
 * loopback throughput; the CPU of routing to peers from a two-worker calibration job, that of training's halo
 * exchanges from a two-worker training calibration job), prints the model's
 * prediction next to every measured run (per phase, with the ratio), and projects to ogbn-papers100M and a
 * 10B-edge graph on 32 GB, 8-vcore containers.
 * <pre>
 * CostModelReport CORES NET_MIB_S FEATURES CALIB_INFER CALIB_INFER CALIB_TRAIN CALIB_TRAIN CALIB_PEER
 *     CALIB_TRAIN_PEER RUN...
 *   CALIB_INFER, CALIB_TRAIN (one worker, a smaller then a larger graph), CALIB_PEER, CALIB_TRAIN_PEER (two
 *   workers, the larger graphs) and RUN:
 *   KIND:MODEL_JSON:METRICS_JSON[,METRICS_JSON...] (KIND infer or train; train's epochs come from its metrics)
 * </pre>
 */
public final class CostModelReport {
  /** {@code --edge-reading auto}'s limit (yarn-app's EdgeReading.MAX_READING_ALL), which the jobs here run with. */
  private static final int READ_ALL_EDGES_WORKERS = 4;
  private static final String[] INFER_PHASES = {"read-nodes", "route-nodes", "edges", "plan", "layer0", "layer1",
      "write"};
  private static final String[] TRAIN_PHASES = {"read-nodes", "route-nodes", "edges", "plan", "epochs"};
  /** Where a worker sends and receives its peers' bytes (and the one-worker rates do not see it). */
  private static final String[] ROUTING_PHASES = {"route-nodes", "edges", "plan", "layer0", "layer1"};
  /** Each configuration's fastest round (the default), or the median of its rounds' phases (ROUNDS=median). */
  private static final boolean FASTEST = !"median".equals(System.getProperty("costmodel.rounds", "fastest"));
  /** A --local worker's cores shared with the other processes' runnable threads (default), or C/p (SHARES=0). */
  private static final boolean SHARES = !"0".equals(System.getProperty("costmodel.shares", "1"));
  /** A rate so high its term vanishes: "no CPU cost of routing to peers". */
  private static final double FREE = 1e300;
  /** Bytes a worker of the two-worker calibration job must route before its excess seconds give a CPU rate. */
  private static final double MIN_ROUTED_BYTES = 64e6;

  private CostModelReport() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 9) {
      System.err.println("usage: CostModelReport CORES NET_MIB_S FEATURES CALIB_INFER CALIB_INFER CALIB_TRAIN "
          + "CALIB_TRAIN CALIB_PEER CALIB_TRAIN_PEER [RUN...]");
      System.exit(2);
    }
    double cores = Double.parseDouble(args[0]);
    double net = Double.parseDouble(args[1]) * (1 << 20);
    int features = Integer.parseInt(args[2]);
    double[] kernels = kernels();
    System.out.printf(Locale.ROOT, "kernels (one thread, %s): SpMM %.0f M edges/s at width 128 (%.2f G edge-floats/s),"
        + " GEMM %.1f GFLOP/s; network (loopback, one stream) %.0f MiB/s%n", Gemm.kernelName(), kernels[0] / 128e6,
        kernels[0] / 1e9, kernels[1] / 1e9, net / (1 << 20));
    Run[] ci = {Run.parse(args[3]), Run.parse(args[4])};
    Run[] ct = {Run.parse(args[5]), Run.parse(args[6])};
    CostRates rates = calibrate(ci, ct, features, cores, kernels, net);
    Run peer = Run.parse(args[7]);
    rmatHaloSkew = haloSkew(peer, features, cores, rates);
    // costmodel.peerCpu=false: routing pays only its wire time, at the transport's own measured throughput (which
    // includes framing on its I/O threads), instead of a CPU rate fitted from one two-worker job's excess.
    boolean peerCpu = Boolean.parseBoolean(System.getProperty("costmodel.peerCpu", "true"));
    rates = peerCpu ? rates.withFixedSeconds(peerFixed(peer, features, cores, rates)) : rates;
    rates = peerCpu ? rates.withPeerBytes(peerRate(peer, features, cores, rates)) : rates;
    Run trainPeer = Run.parse(args[8]);
    rates = rates.withTrainPeerBytes(peerCpu ? trainPeerRate(trainPeer, features, cores, rates) : FREE);
    System.out.printf(Locale.ROOT, "calibrated rates per core: read %.0f MB/s, route %.0f MB/s, build %.2f M edges/s,"
        + " plan %.0f M edges/s, SpMM in layers %.2f G edge-floats/s, GEMM in layers %.1f GFLOP/s (layers at %.0f%%"
        + " of the kernels), write %.0f MB/s, network %.0f MB/s, routing to peers %s (sent + received, CPU),"
        + " train epoch = %.2f x an inference pass, training's halo exchanges %s (sent + received, CPU)%n",
        rates.readBytes() / 1e6, rates.routeBytes() / 1e6, rates.buildEdges() / 1e6, rates.planEdges() / 1e6,
        rates.spmmEdgeFloats() / 1e9, rates.gemmFlops() / 1e9, 100 * rates.gemmFlops() / kernels[1],
        rates.writeBytes() / 1e6, rates.networkBytes() / 1e6, mbPerSecond(rates.peerBytes()),
        rates.trainEpochFactor(), mbPerSecond(rates.trainPeerBytes()));
    System.out.println("CostRates(" + rates.readBytes() + ", " + rates.routeBytes() + ", " + rates.buildEdges() + ", "
        + rates.planEdges() + ", " + rates.spmmEdgeFloats() + ", " + rates.gemmFlops() + ", " + rates.writeBytes()
        + ", " + rates.networkBytes() + ", " + rates.peerBytes() + ", " + rates.trainEpochFactor() + ", "
        + rates.trainPeerBytes() + ", " + rates.fixedSeconds() + ")");
    System.out.printf(Locale.ROOT, "fixed seconds per phase: %s%n", rates.fixedSeconds());
    System.out.println();
    List<Run> runs = new ArrayList<>();
    for (int i = 9; i < args.length; i++) {
      runs.add(Run.parse(args[i]));
    }
    compare(runs, features, cores, rates);
    project(rates, "this run's per-core rates");
    // The machine's load sets this run's rates; the reference rates (--dry-run's) are the same projection at theirs.
    project(CostRates.REFERENCE, "CostRates.REFERENCE's rates");
  }

  /** One-thread kernel rates: {SpMM edge-floats/s at width 128, GEMM flops/s}, medians of 5 after warm-up. */
  static double[] kernels() {
    int n = 200_000;
    int e = 4_000_000;
    int w = 128;
    Csr g = RmatCsr.generate(n, e, 7);
    DenseMatrix x = new DenseMatrix(n, w, RandomFill.uniform((long) n * w, 1));
    DenseMatrix out = new DenseMatrix(n, w);
    double spmm = (double) e * w / median(() -> SpMM.multiplyRows(g, x, out, SpMM.Reduce.SUM, 0, n));
    PackedMatrix b = PackedMatrix.pack(new DenseMatrix(w, w, RandomFill.uniform((long) w * w, 2)));
    double gemm = 2.0 * n * w * w / median(() -> Gemm.multiply(x.data(), 0, w, n, b, out.data(), 0, w));
    return new double[] {spmm, gemm};
  }

  private static double median(Runnable r) {
    for (int i = 0; i < 3; i++) {
      r.run();
    }
    double[] s = new double[5];
    for (int i = 0; i < s.length; i++) {
      long t0 = System.nanoTime();
      r.run();
      s[i] = (System.nanoTime() - t0) / 1e9;
    }
    Arrays.sort(s);
    return s[2];
  }

  /**
   * Rates from the one-worker calibration jobs at two sizes: each phase's measured seconds fitted as
   * {@code fixed + work / rate}, its work counted as {@link CostModel} counts it (so the fit's slope is the rate and
   * its intercept the phase's fixed cost); the layers' kernel rates scaled by one factor, the fit of all layers'
   * seconds against the kernels' own; the train factor from the larger training job's steady epoch against the
   * model's inference pass over its graph, its first epoch's excess the fixed cost.
   */
  /**
   * The R-MAT graphs' {@link CostInputs#haloSkew}, from the two-worker calibration job (R-MAT, half the checked size);
   * the SBM graphs train on keep 1 (their sources are spread evenly). Set once in {@link #main}.
   */
  private static double rmatHaloSkew = 1;

  /** The calibration job's halo rows measured over the model's for sources spread evenly. */
  static double haloSkew(Run peer, int f, double cores, CostRates rates) {
    CostEstimate even = CostModel.estimate(peer.inputs(f, peer.cores(cores), rates));
    @SuppressWarnings("unchecked")
    Map<String, Object> g = (Map<String, Object>) peer.metrics().get("graph");
    double measured = ((Number) g.get("halo_rows")).doubleValue();
    double predicted = peer.workers() * even.haloRowsPerWorker();
    double skew = predicted > 0 ? Math.min(1, measured / predicted) : 1;
    System.out.printf(Locale.ROOT, "halo skew (%d-worker calibration job): %,.0f halo rows measured, %,.0f for "
        + "sources spread evenly: %.3f%n", peer.workers(), measured, predicted, skew);
    return skew > 0 ? skew : 1;
  }

  /** scripts/bench/cost-model generates every graph as this many node files, each a chunk of ids in order. */
  private static final int GENERATED_FILES = 8;

  /** The share of node rows routed for a graph `generate` wrote ({@link CostInputs#contiguousCrossing}). */
  static double generatedCrossing(long nodes, int workers) {
    long[] lo = new long[GENERATED_FILES];
    long[] hi = new long[GENERATED_FILES];
    long[] rows = new long[GENERATED_FILES];
    for (int f = 0; f < GENERATED_FILES; f++) {
      lo[f] = RmatGenerator.chunkStart(nodes, f, GENERATED_FILES);
      hi[f] = RmatGenerator.chunkStart(nodes, f + 1, GENERATED_FILES) - 1;
      rows[f] = hi[f] - lo[f] + 1;
    }
    return CostInputs.contiguousCrossing(nodes, workers, lo, hi, rows);
  }

  static CostRates calibrate(Run[] infer, Run[] train, int f, double cores, double[] kernels, double net) {
    CostRates unit = new CostRates(1, 1, 1, 1, kernels[0], kernels[1], 1, net, FREE, 1);
    CostEstimate[] m = new CostEstimate[2];
    for (int i = 0; i < 2; i++) {
      m[i] = CostModel.estimate(infer[i].inputs(f, infer[i].cores(cores), unit));
    }
    Map<String, Double> fixed = new LinkedHashMap<>();
    double[] rate = new double[5];
    String[] rated = {"read-nodes", "route-nodes", "edges", "plan", "write"};
    for (int k = 0; k < rated.length; k++) {
      double[] fit = fit(m[0].phaseSeconds().get(rated[k]), infer[0].phase(rated[k]),
          m[1].phaseSeconds().get(rated[k]), infer[1].phase(rated[k]));
      fixed.put(rated[k], fit[0]);
      rate[k] = 1 / fit[1];
    }
    int layers = infer[0].spec().layers().size();
    double[] mk = new double[2];
    double[] tk = new double[2];
    for (int i = 0; i < 2; i++) {
      for (int k = 0; k < layers; k++) {
        mk[i] += m[i].phaseSeconds().get("layer" + k);
        tk[i] += infer[i].phase("layer" + k);
      }
    }
    double slope = fit(mk[0], tk[0], mk[1], tk[1])[1];
    if (slope < 1) {
      // Layers faster than the one-thread kernels themselves: the two sizes' difference is noise, not a rate.
      slope = tk[1] / mk[1];
    }
    for (int k = 0; k < layers; k++) {
      fixed.put("layer" + k, Math.max(0, infer[0].phase("layer" + k) - slope * m[0].phaseSeconds().get("layer" + k)));
    }
    double eff = 1 / slope;
    CostRates layered = new CostRates(rate[0], rate[1], rate[2], rate[3], kernels[0] * eff, kernels[1] * eff,
        rate[4], net, FREE, 1);
    // Training: a steady epoch (the last) over the model's inference pass on the larger calibration graph is the
    // factor; what the first epoch takes beyond a steady one (JIT of the backward kernels, the optimiser's state)
    // is paid once per job, the "epochs" phase's fixed seconds. (A line through the two sizes' mean epochs, as
    // before, put that warm-up into the slope: 12.4, against 6.5 from the steady epochs.)
    Run big = train[1];
    CostInputs tin = big.inputs(f, big.cores(cores), layered);
    double pass = CostModel.estimate(tin.toBuilder().epochs(1).build()).phaseSeconds().get("epochs");
    double[] es = big.epochSeconds();
    double sum = 0;
    for (double s : es) {
      sum += s;
    }
    double all = big.phase("epochs");
    double steady = all * es[es.length - 1] / sum; // the epochs' phases, a steady epoch's share of them
    fixed.put("epochs", Math.max(0, all - es.length * steady));
    // Training's plan builds more than inference's (its sampling tables): the rest of it, a fixed cost.
    double plan = CostModel.estimate(tin).phaseSeconds().get("plan");
    fixed.put("train:plan", Math.max(0, big.phase("plan") - plan));
    return new CostRates(rate[0], rate[1], rate[2], rate[3], kernels[0] * eff, kernels[1] * eff, rate[4], net, FREE,
        steady / pass, FREE, fixed);
  }

  /**
   * {@code rates}' fixed seconds plus, per phase that sends nothing to peers in the model, what the two-worker
   * calibration job took in it beyond the one-worker rates' prediction ({@link CostModel#PEERS}): start-up and
   * compilation that a worker pays on fewer cores, which a one-worker job's intercept does not show.
   */
  static Map<String, Double> peerFixed(Run peer, int f, double cores, CostRates rates) {
    double c = peer.cores(cores);
    CostEstimate wire = CostModel.estimate(peer.inputs(f, c, rates.withPeerBytes(FREE)));
    Map<String, Double> fixed = new TreeMap<>(rates.fixedSeconds());
    for (String ph : INFER_PHASES) {
      if (wire.phaseSeconds().containsKey(ph) && wire.sentBytes().getOrDefault(ph, 0.0) == 0) {
        fixed.put(CostModel.PEERS + ph, Math.max(0, peer.phase(ph) - wire.phaseSeconds().get(ph)));
      }
    }
    System.out.printf(Locale.ROOT, "with peers (%d-worker calibration job), the phases that send nothing took beyond "
        + "the one-worker rates: %s%n", peer.workers(), fixed.entrySet().stream()
            .filter(e -> e.getKey().startsWith(CostModel.PEERS))
            .map(e -> String.format(Locale.ROOT, "%s %.2f s", e.getKey().substring(CostModel.PEERS.length()),
                e.getValue())).collect(Collectors.joining(", ")));
    return fixed;
  }

  /**
   * The CPU rate of routing to peers from the two-worker calibration job: the seconds of its phases that send
   * bytes beyond what the one-worker {@code rates} (with the wire's time but no routing CPU) predict for it, over
   * the bytes a worker sent and received there (as its {@code --metrics} count them), on the {@code min(2, c)}
   * cores the model gives that work.
   */
  static double peerRate(Run peer, int f, double cores, CostRates rates) {
    double c = peer.cores(cores);
    CostEstimate wire = CostModel.estimate(peer.inputs(f, c, rates.withPeerBytes(FREE)));
    double measured = 0;
    double predicted = 0;
    for (String ph : ROUTING_PHASES) {
      if (wire.phaseSeconds().containsKey(ph) && wire.sentBytes().getOrDefault(ph, 0.0) > 0) {
        measured += peer.phase(ph);
        predicted += wire.phaseSeconds().get(ph);
      }
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> bx = (Map<String, Object>) peer.metrics().get("bytes_exchanged");
    double bytes = (((Number) bx.get("sent")).doubleValue() + ((Number) bx.get("received")).doubleValue())
        / peer.workers();
    System.out.printf(Locale.ROOT, "routing to peers (%d-worker calibration job, %.2f cores each): its routing phases"
        + " took %.2f s, the one-worker rates predict %.2f s; %.0f MB sent + received per worker%n", peer.workers(),
        c, measured, predicted, bytes / 1e6);
    if (bytes < MIN_ROUTED_BYTES) {
      // Local workers read a whole edge table each and copy halo rows in memory: a few MB of requests and node
      // rows cross, and a rate fitted to them is the phases' noise over nothing.
      System.out.printf(Locale.ROOT, "routing to peers: under %.0f MB per worker is too little to fit its CPU rate;"
          + " left out%n", MIN_ROUTED_BYTES / 1e6);
      return FREE;
    }
    return excessRate("routing to peers: no time beyond the one-worker rates (noise?); its CPU cost left out",
        measured - predicted, bytes, c);
  }

  /**
   * The CPU rate of training's halo exchanges from the two-worker training calibration job: its epochs' seconds
   * beyond what {@code rates} (the one-worker train factor, the wire, no exchange CPU) predict, over the halo bytes a
   * worker sent and received in them (the model's count: the halo rows are predicted within 2% on these graphs),
   * on the {@code min(2, c)} cores the model gives that work.
   */
  static double trainPeerRate(Run peer, int f, double cores, CostRates rates) {
    double c = peer.cores(cores);
    CostEstimate wire = CostModel.estimate(peer.inputs(f, c, rates.withTrainPeerBytes(FREE)));
    double measured = peer.phase("epochs");
    double predicted = wire.phaseSeconds().get("epochs");
    double bytes = 2 * wire.sentBytes().get("epochs") / peer.workers();
    System.out.printf(Locale.ROOT, "training's exchanges (%d-worker training calibration job, %.2f cores each): its"
        + " epochs took %.2f s, the one-worker rates and the wire predict %.2f s; %.0f MB of halo rows sent +"
        + " received per worker%n", peer.workers(), c, measured, predicted, bytes / 1e6);
    return excessRate("training's exchanges: no time beyond the one-worker rates (noise?); their CPU cost left out",
        measured - predicted, bytes, c);
  }

  /** A calibrated byte rate for the report, or "not fitted" for one left out ({@link #FREE}). */
  private static String mbPerSecond(double bytesPerSecond) {
    return bytesPerSecond >= FREE ? "not fitted (no CPU cost)"
        : String.format(Locale.ROOT, "%.0f MB/s", bytesPerSecond / 1e6);
  }

  /**
   * {@code bytes} over the {@code excess} seconds on the {@code min(2, c)} cores the model gives routing to peers;
   * {@link #FREE} (after printing {@code none}) when the excess is not positive.
   */
  private static double excessRate(String none, double excess, double bytes, double c) {
    if (!(excess > 0)) {
      System.out.println(none);
      return FREE;
    }
    return bytes / (excess * Math.min(2, c));
  }

  /**
   * {fixed, slope} of the line through (work0, seconds0) and (work1, seconds1); a slope that noise made zero or
   * negative falls back to the larger run's seconds over its work, without a fixed part.
   */
  static double[] fit(double work0, double seconds0, double work1, double seconds1) {
    double slope = (seconds1 - seconds0) / (work1 - work0);
    if (!(slope > 0) || Double.isInfinite(slope)) {
      return new double[] {0, seconds1 / work1};
    }
    double fixed = seconds0 - slope * work0;
    if (fixed < 0 || fixed > seconds1 / 2) {
      // Twice the work not taking noticeably longer is the load's noise, not a fixed cost.
      return new double[] {0, seconds1 / work1};
    }
    return new double[] {fixed, slope};
  }

  private static void compare(List<Run> runs, int f, double cores, CostRates rates) {
    System.out.println("| job | workers | phase seconds, measured / predicted (ratio) | total measured | total "
        + "predicted | ratio | halo rows measured / predicted | MB sent measured / predicted | peak heap measured (JVM) | "
        + "heap predicted (JVM) | peak RSS measured | RSS predicted |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    double worst = 0;
    for (Run run : runs) {
      CostInputs in = run.inputs(f, run.cores(cores), rates);
      CostEstimate p = CostModel.estimate(in);
      StringBuilder cells = new StringBuilder();
      double measured = 0;
      for (String ph : run.train() ? TRAIN_PHASES : INFER_PHASES) {
        Double predicted = p.phaseSeconds().get(ph);
        if (predicted == null) {
          continue;
        }
        double m = run.phase(ph);
        cells.append(String.format(Locale.ROOT, "%s %.2f/%.2f (%.2f); ", ph, m, predicted, predicted / m));
      }
      for (double s : run.phases().values()) {
        measured += s;
      }
      double ratio = p.seconds() / measured;
      worst = Math.max(worst, Math.max(ratio, 1 / ratio));
      long jvmHeap = CostModel.JVM_BASE_HEAP + run.workers() * p.heapBytesPerWorker();
      long jvmRss = jvmHeap + CostModel.NATIVE_BYTES;
      // Sent: the node rows and edges routed to peers, the halo requests, every layer's halo rows (train: three
      // times an epoch).
      double sent = p.totalSentBytes();
      @SuppressWarnings("unchecked")
      Map<String, Object> g = (Map<String, Object>) run.metrics().get("graph");
      @SuppressWarnings("unchecked")
      Map<String, Object> bx = (Map<String, Object>) run.metrics().get("bytes_exchanged");
      System.out.printf(Locale.ROOT, "| %s %s | %s | %s | %.2f s | %.2f s | %.2f | %,d / %,.0f | %,.0f / %,.0f "
          + "| %.0f MB | %.0f MB | %.0f MB | %.0f MB |%n",
          run.kind(), run.modelName(), run.workers() + String.format(Locale.ROOT, " (%.2f cores each, %.1f other threads)",
          in.coresPerWorker(), run.others()), cells, measured, p.seconds(), ratio,
          ((Number) g.get("halo_rows")).longValue(), run.workers() * p.haloRowsPerWorker(),
          ((Number) bx.get("sent")).doubleValue() / 1e6, sent / 1e6,
          run.number("peak_heap_bytes") / 1e6, jvmHeap / 1e6, run.number("peak_rss_bytes") / 1e6, jvmRss / 1e6);
    }
    System.out.printf(Locale.ROOT, "worst total ratio: %.2f (target: within 1.25)%n%n", worst);
  }

  private static void project(CostRates measured, String ratesName) {
    // A cluster's network is not loopback: 10 GbE per container unless this machine measured less.
    CostRates r = measured.withNetworkBytes(Math.min(measured.networkBytes(), 1.25e9));
    System.out.println("Projections: 32 GB, 8-vcore graph-worker containers (-Xmx 24 GB), " + ratesName + ", "
        + "network " + Math.round(r.networkBytes() / 1e6) + " MB/s per container");
    System.out.println("| graph | model | containers | heap per container | bytes exchanged per layer | wall time "
        + "(read, route, edges, plan, layers, write) |");
    System.out.println("| --- | --- | --- | --- | --- | --- |");
    Object[][] graphs = {{"ogbn-papers100M (111M nodes, 1.6B edges, 128 features)", 111_059_956L, 1_615_685_872L},
        {"10B edges (500M nodes, 128 features)", 500_000_000L, 10_000_000_000L}};
    for (Object[] g : graphs) {
      for (String model : new String[] {"gcn", "sage"}) {
        List<CostLayer> layers = model.equals("gcn")
            ? List.of(new CostLayer(LayerType.GCN, 128, 128, 1, -1), new CostLayer(LayerType.GCN, 128, 128, 1, -1))
            : List.of(new CostLayer(LayerType.SAGE, 128, 128, 1, 10), new CostLayer(LayerType.SAGE, 128, 128, 1, 10));
        CostInputs in = CostInputs.builder().nodes((Long) g[1]).edges((Long) g[2]).featureWidth(128).layers(layers)
            .coresPerWorker(8).rates(r).build();
        int p = CostModel.containersNeeded(in, 32 * 1024, 10_000);
        CostEstimate e = CostModel.estimate(in.toBuilder().workers(p).build());
        StringBuilder bytes = new StringBuilder();
        for (long b : e.bytesPerLayer()) {
          bytes.append(bytes.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f GB", b / 1e9));
        }
        Map<String, Double> t = e.phaseSeconds();
        System.out.printf(Locale.ROOT, "| %s | %s 2x128 | %d | %.1f GB | %s | %.0f s (%.0f, %.0f, %.0f, %.0f, %.0f, %.0f) |%n",
            g[0], model, p, (CostModel.JVM_BASE_HEAP + e.heapBytesPerWorker()) / 1e9, bytes, e.seconds(),
            t.get("read-nodes"), t.get("route-nodes"), t.get("edges"), t.get("plan"),
            t.get("layer0") + t.get("layer1"), t.get("write"));
      }
    }
    System.out.println();
  }

  /**
   * A measured configuration: its kind, its model, its {@code --metrics} summary, each phase's seconds and each
   * epoch's (its fastest round's, or the medians over its rounds), and the other processes' runnable threads
   * while it ran.
   */
  record Run(String kind, String modelName, ModelSpec spec, Map<String, Object> metrics, Map<String, Double> phases,
      double[] epochSeconds, double others) {
    @SuppressWarnings("unchecked")
    static Run parse(String arg) throws IOException {
      String[] p = arg.split(":", 3);
      String json = Files.readString(Path.of(p[1]));
      String name = Path.of(p[1]).getParent().getFileName().toString().replace("model-", "");
      List<Map<String, Object>> rounds = new ArrayList<>();
      for (String file : p[2].split(",")) {
        rounds.add((Map<String, Object>) Json.parse(Files.readString(Path.of(file))));
      }
      boolean train = p[0].equals("train");
      if (FASTEST) {
        // Load from other processes only slows a run down: its fastest round is the nearest to a quiet machine.
        Map<String, Object> best = rounds.get(0);
        String bestFile = p[2].split(",")[0];
        for (int i = 0; i < rounds.size(); i++) {
          if (total(phasesOf(rounds.get(i), train)) < total(phasesOf(best, train))) {
            best = rounds.get(i);
            bestFile = p[2].split(",")[i];
          }
        }
        rounds = List.of(best);
        p[2] = bestFile;
      }
      Map<String, List<Double>> each = new LinkedHashMap<>();
      for (Map<String, Object> m : rounds) {
        for (Map.Entry<String, Double> e : phasesOf(m, train).entrySet()) {
          each.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
        }
      }
      Map<String, Double> medians = new LinkedHashMap<>();
      each.forEach((k, v) -> medians.put(k, median(v)));
      // Peaks: the median round's too.
      Map<String, Object> first = new LinkedHashMap<>(rounds.get(0));
      for (String key : new String[] {"peak_heap_bytes", "peak_rss_bytes", "seconds"}) {
        List<Double> v = new ArrayList<>();
        rounds.forEach(m -> v.add(((Number) m.get(key)).doubleValue()));
        first.put(key, median(v));
      }
      // Train: each epoch's seconds (metrics.json's), the median over the rounds.
      double[] epochs = new double[0];
      if (train) {
        List<List<Double>> byEpoch = new ArrayList<>();
        for (Map<String, Object> m : rounds) {
          List<Object> es = (List<Object>) ((Map<String, Object>) m.get("training")).get("epochs");
          for (int i = 0; i < es.size(); i++) {
            if (byEpoch.size() <= i) {
              byEpoch.add(new ArrayList<>());
            }
            byEpoch.get(i).add(((Number) ((Map<String, Object>) es.get(i)).get("seconds")).doubleValue());
          }
        }
        epochs = byEpoch.stream().mapToDouble(Run::median).toArray();
      }
      // Other processes' runnable threads while it ran (the script's NAME.load beside NAME.json: sum, samples).
      List<Double> load = new ArrayList<>();
      for (String file : p[2].split(",")) {
        Path l = Path.of(file.replaceAll("\\.json$", ".load"));
        if (Files.exists(l)) {
          String[] v = Files.readString(l).trim().split("\\s+");
          double n = Double.parseDouble(v[1]);
          load.add(n > 0 ? Double.parseDouble(v[0]) / n : 0);
        }
      }
      return new Run(p[0], name.startsWith("spec") ? "sage" : name, ModelFormat.parse(json, p[1]), first, medians,
          epochs, load.isEmpty() ? 0 : median(load));
    }

    private static double total(Map<String, Double> phases) {
      double t = 0;
      for (double v : phases.values()) {
        t += v;
      }
      return t;
    }

    private static double median(List<Double> v) {
      List<Double> sorted = new ArrayList<>(v);
      sorted.sort(null);
      int n = sorted.size();
      return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Phase seconds as the model names them: train's forward, backward, gradients and evaluate are "epochs". */
    @SuppressWarnings("unchecked")
    private static Map<String, Double> phasesOf(Map<String, Object> metrics, boolean train) {
      Map<String, Double> out = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : ((Map<String, Object>) metrics.get("phase_seconds")).entrySet()) {
        String k = e.getKey();
        String as = train && (k.equals("forward") || k.equals("backward") || k.equals("gradients")
            || k.equals("evaluate")) ? "epochs" : k;
        out.merge(as, ((Number) e.getValue()).doubleValue(), Double::sum);
      }
      return out;
    }

    boolean train() {
      return kind.equals("train");
    }

    /**
     * Cores a worker of this run got: its {@code --local} JVM's {@code workers x machineCores} compute threads
     * (--threads defaults to all cores) share the machine's cores with the other processes' runnable threads,
     * thread for thread; {@code machineCores / workers} on a quiet machine.
     */
    double cores(double machineCores) {
      return machineCores * machineCores / (workers() * machineCores + (SHARES ? others : 0));
    }

    int workers() {
      return (int) number("workers");
    }

    double number(String key) {
      return ((Number) metrics.get(key)).doubleValue();
    }

    double phase(String name) {
      Double s = phases.get(name);
      if (s == null) {
        throw new IllegalArgumentException("no phase " + name + " in the metrics of a " + kind + " run");
      }
      return s;
    }

    @SuppressWarnings("unchecked")
    int epochs() {
      return ((List<Object>) ((Map<String, Object>) metrics.get("training")).get("epochs")).size();
    }

    @SuppressWarnings("unchecked")
    CostInputs inputs(int features, double coresPerWorker, CostRates rates) {
      Map<String, Object> g = (Map<String, Object>) metrics.get("graph");
      List<CostLayer> layers = new ArrayList<>();
      spec.layers().forEach(l -> layers.add(CostLayer.of(l)));
      long nodes = ((Number) g.get("nodes")).longValue();
      CostInputs.Builder b = CostInputs.builder().nodes(nodes)
          .edges(((Number) g.get("edges")).longValue()).featureWidth(features).layers(layers).workers(workers())
          .coresPerWorker(coresPerWorker).fused(!train()).epochs(train() ? epochs() : 0)
          .nodeCrossing(generatedCrossing(nodes, workers())).haloSkew(train() ? 1 : rmatHaloSkew)
          // The jobs run with --edge-reading auto: every worker reads every edge file up to 4 workers (EdgeReading).
          .readAllEdges(workers() <= READ_ALL_EDGES_WORKERS)
          // --local: inference's --pipelining auto is off between local workers.
          .pipelined(train());
      return rates == null ? b.build() : b.rates(rates).build();
    }
  }
}
