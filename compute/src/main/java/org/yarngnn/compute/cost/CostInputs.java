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
 */
public record CostInputs(long nodes, long edges, int featureWidth, List<CostLayer> layers, int workers,
    double coresPerWorker, boolean weighted, boolean fused, int epochs, double edgeBalance, CostRates rates) {

  public CostInputs {
    if (nodes < 1 || edges < 0 || featureWidth < 1 || workers < 1 || !(coresPerWorker > 0) || epochs < 0
        || !(edgeBalance >= 1)) {
      throw new IllegalArgumentException("cost inputs out of range: nodes " + nodes + ", edges " + edges
          + ", width " + featureWidth + ", workers " + workers + ", cores " + coresPerWorker + ", epochs " + epochs
          + ", balance " + edgeBalance);
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
        .rates(rates);
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

    public Builder rates(CostRates v) {
      rates = v;
      return this;
    }

    public CostInputs build() {
      return new CostInputs(nodes, edges, featureWidth, layers, workers, coresPerWorker, weighted, fused, epochs,
          edgeBalance, rates);
    }
  }
}
