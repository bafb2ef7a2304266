package org.yarngnn.compute.cost;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cost model of {@code infer} and {@code train} (README "Cost model"): each phase's seconds on the slowest
 * worker, the bytes exchanged per layer and a worker's memory, from the graph's size, the layers, the workers and
 * the per-core {@link CostRates}. Per worker w of p: {@code n_w = n/p} nodes, {@code E_w = E/p * balance} edges,
 * {@code q = (p-1)/p} of what it routes goes to peers, {@code c} cores; one-thread phases get {@code min(1, c)},
 * the CPU of routing to peers {@code c' = min(2, c)} (the sending thread and the transport's two I/O threads).
 * A byte sent to a peer costs {@code 1/networkBytes} of wire time and, sent and again received,
 * {@code 2/(peerBytes c')} of CPU: {@code peer(B) = B/networkBytes + 2B/(peerBytes c')}.
 * <pre>
 *   read-nodes  n_w (8 + 4f) / (readBytes min(1,c))                  [+ fused: 2 n_w f lin / (gemmFlops c)]
 *   route-nodes n_w (16 + 4r) / (routeBytes min(1,c)) + peer(x n_w (16 + 4r))
 *   edges       E_w / (buildEdges c) + peer(12 q E_w)
 *               reading all edges: (a E + (1 - a) E_w) / (buildEdges c), nothing sent
 *   plan        E_w / (planEdges min(1,c)) + sum_k 16 h_k / (peerBytes c')   (8-byte ids asked and answered)
 *   layer k     2 n_w in_k lin_k / (gemmFlops c) + S_k msg_k / (spmmEdgeFloats c) + peer(4 h_k msg_k)
 *   write       n_w (8 + 4 out) / (writeBytes min(parts, c))
 *   train       epochs (trainEpochFactor * (sum of the layers' compute) + 3 sum_k peer'(4 h_k msg_k)), as "epochs"
 *               (instead of the layers and write: forward, backward and evaluation each exchange every layer;
 *               peer' is peer with trainPeerBytes, training's own CPU rate for its dense halo rows)
 * </pre>
 * Each phase adds its {@link CostRates#fixedSeconds} (what it takes whatever the size; with peers also its
 * {@link #PEERS} fixed seconds; for "epochs" once per job,
 * the first epoch's warm-up; a training job's phase {@code x} takes "train:x" where the rates have one).
 * {@code a} ({@link #EDGE_READING_SHARE}) is the share of a lone worker's edge phase spent reading the rows (the rest
 * builds the CSR of the ones it keeps), which every worker pays for the whole table when each reads it all.
 * {@code x} is the share of node rows read by a non-owner: q for rows in no order, less for a table written in id
 * order (0 when each worker's run of files is its range of ids; {@link CostInputs#contiguousCrossing}).
 * {@code r} is the routed row width (the first layer's linear width when fused and narrower, else f), {@code lin}
 * a layer's dense output width (sage {@code 2 out}, gat heads x out), {@code msg} the width aggregated and
 * exchanged (gat adds a score per head; gat aggregates twice: scores and rows), {@code S_k} the sampled in-edges
 * ({@code n_w f_k (1 - exp(-d / f_k))} for a fanout f_k, d = E/n), {@code h_k} the halo rows a worker receives:
 * with sources spread over the graph, the distinct remote sources of {@code q S_k} edges among {@code n - n_w}
 * nodes, {@code (n - n_w)(1 - exp(-q S_k / (n - n_w)))}, times the graph's {@link CostInputs#haloSkew}. Bytes
 * exchanged at layer k: {@code 4 p h_k msg_k}.
 * Memory: {@link #heapBytesPerWorker}.
 */
public final class CostModel {
  /** Heap a JVM holds before any graph: classes' statics, Hadoop's configuration, Parquet and transport state. */
  public static final long JVM_BASE_HEAP = 48L << 20;
  /** Heap of a worker beside its graph: read and send buffers, the transport's windows, layer scratch. */
  public static final long WORKER_BASE_HEAP = 24L << 20;
  /**
   * Heap beyond the live arrays that G1 needs to allocate them: large arrays take contiguous regions and live
   * beside the previous phase's garbage until it is collected.
   */
  public static final double HEAP_HEADROOM = 1.25;
  /** Resident memory beyond the heap: metaspace, code cache, thread stacks, Netty's direct buffers. */
  public static final long NATIVE_BYTES = 256L << 20;
  /** The memory target per edge and feature rows per node (issue 13, point 3). */
  public static final long TARGET_BYTES_PER_EDGE = 100;
  public static final int TARGET_FEATURE_ROWS_PER_NODE = 3;
  /**
   * The share of a lone worker's edge phase that reads the edge rows (decoding, checking, keeping); the rest builds
   * the CSR. Measured here, 1M-node gcn {@code infer --local} on one worker: its stats' edgesRouteSeconds over
   * edgesRouteSeconds + edgesBuildSeconds, 0.44-0.48 in three runs (README "Cost model").
   */
  public static final double EDGE_READING_SHARE = 0.45;
  /**
   * The prefix of a phase's fixed seconds that a worker with peers pays on top of a lone worker's, for a phase that
   * sends nothing to them (read-nodes, edges read whole, write): compilation and start-up on the cores it shares,
   * calibrated from the two-worker calibration job ({@code scripts/bench/cost-model}).
   */
  public static final String PEERS = "peers:";

  private CostModel() {}

  /** The estimate of {@code infer} (or, with {@code epochs > 0}, of {@code train}: its construction, then epochs). */
  public static CostEstimate estimate(CostInputs in) {
    CostRates r = in.rates();
    int p = in.workers();
    double q = (p - 1) / (double) p;
    double nw = in.nodesPerWorker();
    double ew = in.edgesPerWorker();
    double c = in.coresPerWorker();
    double one = Math.min(1, c);
    int f = in.featureWidth();
    int rw = in.rowWidth();
    Map<String, Double> t = new LinkedHashMap<>();
    double read = nw * (8 + 4.0 * f) / (r.readBytes() * one);
    if (rw != f) {
      read += 2 * nw * f * rw / (r.gemmFlops() * c);
    }
    t.put("read-nodes", read);
    double peerCores = Math.min(2, c);
    Map<String, Double> sent = new LinkedHashMap<>();
    double rowBytes = nw * (16 + 4.0 * rw);
    double rowsSent = in.crossing() * rowBytes;
    t.put("route-nodes", rowBytes / (r.routeBytes() * one) + peer(rowsSent, r, peerCores));
    sent.put("route-nodes", p * rowsSent);
    double edgesSent = in.readAllEdges() ? 0 : 12 * q * ew;
    double edgesRead = in.readAllEdges() ? EDGE_READING_SHARE * in.edges() + (1 - EDGE_READING_SHARE) * ew : ew;
    t.put("edges", edgesRead / (r.buildEdges() * c) + peer(edgesSent, r, peerCores));
    sent.put("edges", p * edgesSent);
    t.put("plan", 0.0); // set below, from the layers' halo; in phase order here
    sent.put("plan", 0.0);
    List<Long> bytes = new ArrayList<>();
    double layers = 0;
    double trainExchanges = 0;
    double firstHalo = 0;
    double requests = 0;
    for (int k = 0; k < in.layers().size(); k++) {
      CostLayer l = in.layers().get(k);
      double sampled = sampledEdges(in, l);
      double halo = haloRows(in, sampled);
      firstHalo = k == 0 ? halo : firstHalo;
      requests += 8 * halo;
      boolean fusedHere = k == 0 && rw != f;
      double gemm = fusedHere ? 0 : 2 * nw * l.in() * l.linearWidth() / (r.gemmFlops() * c);
      double passes = l.type() == org.yarngnn.compute.model.LayerType.GAT ? 2 : 1;
      double agg = passes * sampled * l.messageWidth() / (r.spmmEdgeFloats() * c);
      double haloBytes = 4 * halo * l.messageWidth();
      double exchange = peer(haloBytes, r, peerCores);
      t.put("layer" + k, gemm + agg + exchange);
      sent.put("layer" + k, p * haloBytes);
      layers += gemm + agg; // compute only: training scales it and adds its own exchanges
      trainExchanges += peer(haloBytes, r.trainPeerBytes(), r, peerCores);
      bytes.add(Math.round(p * haloBytes));
    }
    // The plan asks each owner for its halo rows by id, once per layer (HaloRequest: 8 bytes an id).
    t.put("plan", ew / (r.planEdges() * one) + 2 * requests / (r.peerBytes() * peerCores));
    sent.put("plan", p * requests);
    int outW = in.layers().get(in.layers().size() - 1).outputWidth();
    double parts = Math.max(1, Math.min(8, Math.ceil(nw / 65536)));
    t.put("write", nw * (8 + 4.0 * outW) / (r.writeBytes() * Math.min(parts, c)));
    if (in.epochs() > 0) {
      t.remove("write");
      // Each epoch exchanges every layer's halo rows three times: forward, backward (in reverse), evaluation.
      t.put("epochs", in.epochs() * (r.trainEpochFactor() * layers + 3 * trainExchanges));
      double epochBytes = 0;
      for (int k = 0; k < in.layers().size(); k++) {
        t.remove("layer" + k);
        epochBytes += sent.remove("layer" + k);
      }
      sent.put("epochs", 3.0 * in.epochs() * epochBytes);
    }
    double total = 0;
    for (Map.Entry<String, Double> e : t.entrySet()) {
      String train = "train:" + e.getKey(); // a training job's own fixed cost of a phase, where it differs
      String key = in.epochs() > 0 && r.fixedSeconds().containsKey(train) ? train : e.getKey();
      e.setValue(e.getValue() + r.fixedSeconds().getOrDefault(key, 0.0)
          + (p > 1 ? r.fixedSeconds().getOrDefault(PEERS + e.getKey(), 0.0) : 0.0));
      total += e.getValue();
    }
    long heap = heapBytesPerWorker(in, firstHalo);
    return new CostEstimate(t, total, bytes, sent, firstHalo, heap, heap + NATIVE_BYTES);
  }

  /**
   * Seconds a worker spends on {@code bytes} sent to its peers (and as many received from them): the wire, and
   * the CPU of encoding and sending them and of receiving and decoding as many.
   */
  private static double peer(double bytes, CostRates r, double peerCores) {
    return peer(bytes, r.peerBytes(), r, peerCores);
  }

  /** {@link #peer} at CPU rate {@code cpuBytes} (training's exchanges have their own). */
  private static double peer(double bytes, double cpuBytes, CostRates r, double peerCores) {
    return bytes / r.networkBytes() + 2 * bytes / (cpuBytes * peerCores);
  }

  /** In-edges a worker aggregates over at layer {@code l}: all its edges, or for sage their fanout's sample. */
  static double sampledEdges(CostInputs in, CostLayer l) {
    double degree = (double) in.edges() / in.nodes();
    return Math.min(in.edgesPerWorker(), in.nodesPerWorker() * l.sampledDegree(degree) * in.edgeBalance());
  }

  /** Distinct remote sources of a worker's {@code edges} (halo rows), sources spread evenly over the graph. */
  static double haloRows(CostInputs in, double edges) {
    double remote = in.nodes() - in.nodesPerWorker();
    if (in.workers() == 1 || remote <= 0) {
      return 0;
    }
    double q = (in.workers() - 1) / (double) in.workers();
    return in.haloSkew() * remote * -Math.expm1(-q * edges / remote);
  }

  /**
   * A graph worker's peak heap, from the arrays each phase holds at once (n = its nodes, E = its edges, r = the
   * routed row width, h = its halo rows), times {@link #HEAP_HEADROOM}, plus {@link #WORKER_BASE_HEAP}:
   * <pre>
   *   route-nodes  (1 + x) n (16 + 4r)  the rows as read (its own among them, kept as read), the copies of the
   *                                     x n rows routed to it
   *   edges        8 r n + 48 n + 30 E  the assembler's rows and their gathered matrix (4 r n for x = 0: the rows
   *                                     read into one array are the matrix); ids and index; edges held
   *                (40 E weighted)      as int dst + long src (+ float) with 1.5x growth, then the slot and sort
   *                                     keys and the CSR columns built from them
   *   layer k      4 (n + E) [+4E] + 4 S_k + 4 n in_k + 4 n lin_k + 4 h msg_k + 4 n out_k + U
   *                                     CSR (weights), the layer's sample, input rows, linear products (the
   *                                     local messages among them), the halo's messages, output rows, and
   *                                     U = sum over the distinct in-edge blocks of 4 n + 4 q E_b, the halo users
   *                                     the exchanges count down (kept from the plan to the last layer; E_b the
   *                                     block's edges, q = (p-1)/p of them from a remote source; none alone
   *                                     or unpipelined)
   *   write        4 (n + E) + 4 n out  the CSR and the embeddings (their Parquet pages go to the file as they
   *                                     fill, from a few MiB of reused buffers)
   * </pre>
   * The JVM adds {@link #JVM_BASE_HEAP} once (a container has one worker; {@code --local} holds all of them).
   */
  public static long heapBytesPerWorker(CostInputs in, double halo) {
    double n = in.nodesPerWorker();
    double e = in.edgesPerWorker();
    int rw = in.rowWidth();
    double x = in.crossing();
    double route = (1 + x) * n * (16 + 4.0 * rw);
    double build = (x == 0 ? 4.0 : 8.0) * rw * n + 48 * n + (in.weighted() ? 40 : 30) * e;
    double peak = Math.max(route, build);
    double csr = 4 * (n + e) + (in.weighted() ? 4 * e : 0);
    double users = haloUsersBytes(in);
    for (int k = 0; k < in.layers().size(); k++) {
      CostLayer l = in.layers().get(k);
      double layer = csr + (l.fanout() >= 0 ? 4 * sampledEdges(in, l) : 0) + 4 * n * l.in()
          + 4 * n * l.linearWidth() + 4 * halo * l.messageWidth() + 4 * n * l.outputWidth() + users;
      peak = Math.max(peak, layer);
    }
    int outW = in.layers().get(in.layers().size() - 1).outputWidth();
    peak = Math.max(peak, csr + 4 * n * outW);
    return Math.round(HEAP_HEADROOM * peak) + WORKER_BASE_HEAP;
  }

  /**
   * Bytes of the halo users a worker keeps through the layers: per distinct in-edge block (one for all layers
   * without a fanout, one per layer with one), its rows' wait counts and its remote-source edges' rows; none for
   * a worker alone or an exchange that is not pipelined.
   */
  static double haloUsersBytes(CostInputs in) {
    if (in.workers() == 1 || !in.pipelined()) {
      return 0;
    }
    double q = (in.workers() - 1) / (double) in.workers();
    double n = in.nodesPerWorker();
    double bytes = 0;
    boolean whole = false;
    for (CostLayer l : in.layers()) {
      if (l.fanout() >= 0) {
        bytes += 4 * n + 4 * q * sampledEdges(in, l);
      } else if (!whole) {
        whole = true;
        bytes += 4 * n + 4 * q * in.edgesPerWorker();
      }
    }
    return bytes;
  }

  /** Heap of one JVM running {@code in}'s workers all at once ({@code --local}). */
  public static long localJvmHeapBytes(CostInputs in) {
    return JVM_BASE_HEAP + in.workers() * estimate(in).heapBytesPerWorker();
  }

  /**
   * The target for a worker: {@value #TARGET_BYTES_PER_EDGE} bytes per edge plus
   * {@value #TARGET_FEATURE_ROWS_PER_NODE} rows of features per node, plus the same bases as the model.
   */
  public static long targetHeapBytesPerWorker(CostInputs in) {
    return Math.round(TARGET_BYTES_PER_EDGE * in.edgesPerWorker()
        + TARGET_FEATURE_ROWS_PER_NODE * 4.0 * in.featureWidth() * in.nodesPerWorker()) + WORKER_BASE_HEAP;
  }

  /**
   * The fewest graph-worker containers of {@code containerMb} MB whose heap ({@code -Xmx} at 75% of it, as the
   * launcher sets) holds a worker's peak; at most {@code maxWorkers}, -1 when even that does not fit.
   */
  public static int containersNeeded(CostInputs in, long containerMb, int maxWorkers) {
    long heap = containerMb * 3 / 4 << 20;
    for (int p = 1; p <= maxWorkers; p = p < 8 ? p + 1 : p + Math.max(1, p / 16)) {
      CostInputs at = in.toBuilder().workers(p).build();
      if (JVM_BASE_HEAP + estimate(at).heapBytesPerWorker() <= heap) {
        return p;
      }
    }
    return -1;
  }
}
