package org.yarngnn.compute.cost;

import java.util.List;

/**
 * What a job's cost depends on: the graph's nodes and edges (after {@code --undirected}), the feature width, the
 * layers, the graph workers and the cores each one has, whether edges carry weights, whether the first layer is
 * fused with feature loading, the epochs (train), and the rates. Immutable; built with {@link #builder()}.
 *
 * @param coresPerWorker cores a worker's threads actually get: its vcores on YARN, the machine's cores over the
 *     workers with {@code --local} (they share one JVM; on a machine other processes load too, the workers'
 *     threads' share of the cores among all runnable ones), never more than its compute threads
 * @param edgeBalance the largest partition's edges over the mean (1 = even); the slowest worker sets a phase's time
 * @param nodeCrossing the share of node rows read by a worker that does not own them, NaN when the layout is not
 *     known ({@link #crossing})
 * @param haloSkew a worker's distinct remote sources over the estimate for sources spread evenly over the graph
 *     (1, the default and the most there can be): a power-law graph's edges keep coming from its hubs, so it has
 *     fewer (R-MAT: about 0.5 at 2 workers); measured on a graph of the same kind ({@code scripts/bench/cost-model})
 * @param readAllEdges every worker reads the whole edge table and keeps its share, nothing routed
 *     ({@code --edge-reading all}, the default up to 4 workers), rather than a share of it routed to the owners
 * @param pipelined halo rows are aggregated as they arrive, which keeps the halo users through the layers
 *     ({@code infer --pipelining}: on between containers, off between {@code --local} workers; train: always)
 */
public record CostInputs(long nodes, long edges, int featureWidth, List<CostLayer> layers, int workers,
    double coresPerWorker, boolean weighted, boolean fused, int epochs, double edgeBalance, double nodeCrossing,
    double haloSkew, boolean readAllEdges, boolean pipelined, CostRates rates) {

  public CostInputs {
    if (nodes < 1 || edges < 0 || featureWidth < 1 || workers < 1 || !(coresPerWorker > 0) || epochs < 0
        || !(edgeBalance >= 1) || !(Double.isNaN(nodeCrossing) || (nodeCrossing >= 0 && nodeCrossing <= 1))
        || !(haloSkew > 0 && haloSkew <= 1)) {
      throw new IllegalArgumentException("cost inputs out of range: nodes " + nodes + ", edges " + edges
          + ", width " + featureWidth + ", workers " + workers + ", cores " + coresPerWorker + ", epochs " + epochs
          + ", balance " + edgeBalance + ", node crossing " + nodeCrossing + ", halo skew " + haloSkew);
    }
    if (layers.isEmpty()) {
      throw new IllegalArgumentException("a model has at least one layer");
    }
    layers = List.copyOf(layers);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().nodes(nodes).edges(edges).featureWidth(featureWidth).layers(layers).workers(workers)
        .coresPerWorker(coresPerWorker).weighted(weighted).fused(fused).epochs(epochs).edgeBalance(edgeBalance)
        .nodeCrossing(nodeCrossing).haloSkew(haloSkew).readAllEdges(readAllEdges).pipelined(pipelined).rates(rates);
  }

  /**
   * The share of node rows read by a worker that does not own them and routed: the layout's ({@link
   * #contiguousCrossing}) when known, else {@code (p-1)/p}, as for rows in no order.
   */
  double crossing() {
    return Double.isNaN(nodeCrossing) ? (workers - 1) / (double) workers : nodeCrossing;
  }

  /**
   * The share of {@code nodes} rows (ids exactly {@code 0..nodes-1}, so owned in ranges: worker p owns
   * {@code [floor(p n / W), floor((p+1) n / W))}) read by a non-owner when file f, whose ids span
   * {@code [lo[f], hi[f]]} with {@code rows[f]} rows spread evenly over them, is read by worker
   * {@code floor(f W / F)} (a contiguous run of files per worker, as graph workers read them); NaN when a file's
   * span is unknown (null) or the ids are not {@code 0..nodes-1}.
   */
  public static double contiguousCrossing(long nodes, int workers, long[] lo, long[] hi, long[] rows) {
    int files = rows.length;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long total = 0;
    for (int f = 0; f < files; f++) {
      if (rows[f] == 0) {
        continue;
      }
      if (lo == null || hi == null || lo[f] > hi[f]) {
        return Double.NaN;
      }
      min = Math.min(min, lo[f]);
      max = Math.max(max, hi[f]);
      total += rows[f];
    }
    if (total == 0 || total != nodes || min != 0 || max != nodes - 1) {
      return Double.NaN;
    }
    double crossing = 0;
    for (int f = 0; f < files; f++) {
      if (rows[f] == 0) {
        continue;
      }
      int reader = (int) ((long) f * workers / files);
      long ownLo = Math.floorDiv((long) reader * nodes, workers);
      long ownHi = Math.floorDiv((long) (reader + 1) * nodes, workers) - 1;
      double span = hi[f] - lo[f] + 1.0;
      double own = Math.max(0, Math.min(hi[f], ownHi) - Math.max(lo[f], ownLo) + 1.0);
      crossing += rows[f] * (1 - own / span);
    }
    return crossing / nodes;
  }

  /** Nodes of one (average) partition. */
  double nodesPerWorker() {
    return (double) nodes / workers;
  }

  /** Edges of the largest partition. */
  double edgesPerWorker() {
    return (double) edges / workers * edgeBalance;
  }

  /**
   * Width of the node rows routed and held until the first layer: the first layer's linear products when fused
   * and narrower (as {@code FeatureLoader} decides), else the raw features.
   */
  int rowWidth() {
    int lin = layers.get(0).linearWidth();
    return fused && lin < featureWidth ? lin : featureWidth;
  }

  public static final class Builder {
    private long nodes;
    private long edges;
    private int featureWidth;
    private List<CostLayer> layers = List.of();
    private int workers = 1;
    private double coresPerWorker = 1;
    private boolean weighted;
    private boolean fused = true;
    private int epochs;
    private double edgeBalance = 1;
    private double nodeCrossing = Double.NaN;
    private double haloSkew = 1;
    private boolean readAllEdges;
    private boolean pipelined = true;
    private CostRates rates = CostRates.REFERENCE;

    public Builder nodes(long v) {
      nodes = v;
      return this;
    }

    public Builder edges(long v) {
      edges = v;
      return this;
    }

    public Builder featureWidth(int v) {
      featureWidth = v;
      return this;
    }

    public Builder layers(List<CostLayer> v) {
      layers = v;
      return this;
    }

    public Builder workers(int v) {
      workers = v;
      return this;
    }

    public Builder coresPerWorker(double v) {
      coresPerWorker = v;
      return this;
    }

    public Builder weighted(boolean v) {
      weighted = v;
      return this;
    }

    public Builder fused(boolean v) {
      fused = v;
      return this;
    }

    public Builder epochs(int v) {
      epochs = v;
      return this;
    }

    public Builder edgeBalance(double v) {
      edgeBalance = v;
      return this;
    }

    /** The share of node rows routed ({@link #contiguousCrossing}); NaN (the default) for rows in no order. */
    public Builder nodeCrossing(double v) {
      nodeCrossing = v;
      return this;
    }

    public Builder haloSkew(double v) {
      haloSkew = v;
      return this;
    }

    public Builder readAllEdges(boolean v) {
      readAllEdges = v;
      return this;
    }

    public Builder pipelined(boolean v) {
      pipelined = v;
      return this;
    }

    public Builder rates(CostRates v) {
      rates = v;
      return this;
    }

    public CostInputs build() {
      return new CostInputs(nodes, edges, featureWidth, layers, workers, coresPerWorker, weighted, fused, epochs,
          edgeBalance, nodeCrossing, haloSkew, readAllEdges, pipelined, rates);
    }
  }
}
