package org.yarngnn.compute.cost;

import java.util.Map;

/**
 * Per-core rates the {@link CostModel} divides work by, each measured by a short calibration run
 * ({@code scripts/bench/cost-model}): the kernels by timing {@code SpMM} and {@code Gemm} on one thread, the phases
 * by a one-worker calibration job on a small graph (its {@code --metrics} phase seconds divided into the work the
 * model counts), the network by the transport's loopback throughput, the CPU cost of routing to peers by a
 * two-worker calibration job (its phases' seconds beyond what the one-worker rates predict, over the bytes its
 * workers sent and received).
 *
 * @param readBytes decoded node-table bytes (ids and feature floats) a reading thread reads per second
 * @param routeBytes node-row bytes one worker routes to their owners and assembles per second
 * @param buildEdges edges read, routed and built into the CSR per core-second
 * @param planEdges edges scanned per core-second to plan the halo (which rows move at each layer)
 * @param spmmEdgeFloats edge x width products aggregated per core-second, as the layers run them
 * @param gemmFlops dense flops per core-second, as the layers run them
 * @param writeBytes embedding bytes written as Parquet per second per part-writing thread
 * @param networkBytes bytes per second one worker sends to its peers (the wire)
 * @param peerBytes bytes a worker encodes and sends to peers, plus those it receives and decodes, per core-second:
 *     the CPU side of routing (framing, the transport's buffers and copies, the receiver's decoding and assembly),
 *     which a row routed to the worker itself does not pay
 * @param trainEpochFactor a steady training epoch's compute (forward, backward, evaluation; not the first, which
 *     also compiles) over one inference pass's
 * @param trainPeerBytes the same CPU rate for training's halo exchanges (dense rows both ways, three times a layer
 *     an epoch, overlapped with the backward pass), by a two-worker training calibration job: its epochs' seconds
 *     beyond what the one-worker rates and the wire predict, over the halo bytes its workers sent and received.
 *     Construction's rate overcharges them: it is fitted on routed records, decoded and assembled one by one
 * @param fixedSeconds seconds a phase takes whatever its size (JIT compilation of its kernels, thread pools, file
 *     opens), by phase name as {@link CostEstimate} names them; the calibration's two sizes separate them from
 *     the rates; "epochs" is what a training job's first epoch takes beyond a steady one; "train:NAME" a
 *     training job's own fixed cost of phase NAME (its plan also builds the training's sampling tables)
 */
public record CostRates(double readBytes, double routeBytes, double buildEdges, double planEdges,
    double spmmEdgeFloats, double gemmFlops, double writeBytes, double networkBytes, double peerBytes,
    double trainEpochFactor, double trainPeerBytes, Map<String, Double> fixedSeconds) {

  /**
   * Rates measured here by {@code scripts/bench/cost-model} (AMD EPYC Zen 4, 2 cores, a quiet machine: 0.0-0.1
   * other runnable threads; calibration jobs at a quarter and twice the checked size; each configuration's fastest
   * of 3 rounds; README "Cost model"): what {@code --dry-run} estimates with. Rerun the script on the cluster's
   * machines for their rates.
   */
  public static final CostRates REFERENCE = new CostRates(469e6, 6126e6, 7.90e6, 227e6, 2.91e9, 66.0e9, 355e6,
      770e6, 559e6, 13.28, 756e6, Map.ofEntries(Map.entry("read-nodes", 0.21), Map.entry("route-nodes", 0.029),
          Map.entry("edges", 0.29), Map.entry("plan", 0.016), Map.entry("layer0", 0.16), Map.entry("layer1", 0.023),
          Map.entry("write", 0.15), Map.entry("epochs", 1.81), Map.entry("train:plan", 0.51),
          Map.entry(CostModel.PEERS + "read-nodes", 0.16), Map.entry(CostModel.PEERS + "route-nodes", 0.005),
          Map.entry(CostModel.PEERS + "edges", 0.052), Map.entry(CostModel.PEERS + "write", 0.0)));

  /** These rates with {@code fixed} as the fixed seconds per phase. */
  public CostRates withFixedSeconds(Map<String, Double> fixed) {
    return new CostRates(readBytes, routeBytes, buildEdges, planEdges, spmmEdgeFloats, gemmFlops, writeBytes,
        networkBytes, peerBytes, trainEpochFactor, trainPeerBytes, fixed);
  }

  /** These rates with another per-byte CPU cost of routing to peers. */
  public CostRates withPeerBytes(double v) {
    return new CostRates(readBytes, routeBytes, buildEdges, planEdges, spmmEdgeFloats, gemmFlops, writeBytes,
        networkBytes, v, trainEpochFactor, trainPeerBytes, fixedSeconds);
  }

  /** These rates with another per-byte CPU cost of training's halo exchanges. */
  public CostRates withTrainPeerBytes(double v) {
    return new CostRates(readBytes, routeBytes, buildEdges, planEdges, spmmEdgeFloats, gemmFlops, writeBytes,
        networkBytes, peerBytes, trainEpochFactor, v, fixedSeconds);
  }

  /** These rates with another network (wire) rate. */
  public CostRates withNetworkBytes(double v) {
    return new CostRates(readBytes, routeBytes, buildEdges, planEdges, spmmEdgeFloats, gemmFlops, writeBytes, v,
        peerBytes, trainEpochFactor, trainPeerBytes, fixedSeconds);
  }

  /** Rates without fixed costs, training's exchanges at the routing rate. */
  public CostRates(double readBytes, double routeBytes, double buildEdges, double planEdges, double spmmEdgeFloats,
      double gemmFlops, double writeBytes, double networkBytes, double peerBytes, double trainEpochFactor) {
    this(readBytes, routeBytes, buildEdges, planEdges, spmmEdgeFloats, gemmFlops, writeBytes, networkBytes,
        peerBytes, trainEpochFactor, peerBytes, Map.of());
  }

  public CostRates {
    fixedSeconds = Map.copyOf(fixedSeconds);
    for (double s : fixedSeconds.values()) {
      if (!(s >= 0) || Double.isInfinite(s)) {
        throw new IllegalArgumentException("a fixed phase cost must be finite and not negative: " + s);
      }
    }
    double[] all = {readBytes, routeBytes, buildEdges, planEdges, spmmEdgeFloats, gemmFlops, writeBytes,
        networkBytes, peerBytes, trainEpochFactor, trainPeerBytes};
    for (double r : all) {
      if (!(r > 0) || Double.isInfinite(r)) {
        throw new IllegalArgumentException("a cost rate must be positive and finite: " + r);
      }
    }
  }
}
