package org.yarngnn.app.graphworker;

import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.model.Model;

/**
 * The construction phases of every graph worker, whatever it computes afterwards (inference's layers or
 * training's epochs): READ_NODES, ROUTE_NODES and BUILD_EDGES over the raw tables, or LOAD_PARTITION of a
 * pre-partitioned graph. Each phase's result is the next one's input; {@link #partition()} is the last.
 */
public final class ConstructionPhases {
  private final Configuration conf;
  private final GraphJobOptions spec;
  private final Model model;
  private final FeatureLoader features;
  private final WorkerConstruction construction;
  private final WorkerFigures figures;
  private FeatureLoader.NodesRead nodesRead;
  private WorkerConstruction.NodesRouted nodesRouted;
  private WorkerPartition partition;

  public ConstructionPhases(Configuration conf, GraphJobOptions spec, Model model, FeatureLoader features, int index,
      WorkerMesh mesh, WorkerFigures figures) {
    this.conf = conf;
    this.spec = spec;
    this.model = model;
    this.features = features;
    this.figures = figures;
    this.construction = new WorkerConstruction(conf, spec, index, spec.getInt(GraphJobOptions.WORKERS), mesh, figures);
  }

  /** Tells {@code r} this worker's row slot count (nodes and halo) once known, while its partition is built. */
  public void onSlotsKnown(java.util.function.LongConsumer r) {
    construction.onSlotsKnown(r);
  }

  /** See {@link WorkerConstruction#filterEdges}. */
  public void filterEdges(ReadEdgeFilter f) {
    construction.filterEdges(f);
  }

  /** Runs {@code c} if it is a construction phase and returns its result; null when it is not one. */
  public PhaseResult run(PhaseCommand c) throws Exception {
    switch (c.phase()) {
      case READ_NODES:
        nodesRead = features.read(conf, spec, construction::mine);
        return nodesRead.counts();
      case ROUTE_NODES:
        nodesRouted = construction.routeNodes(require(nodesRead, c), c.ownership());
        nodesRead = null;
        return PhaseResult.EMPTY;
      case BUILD_EDGES:
        partition = construction.buildEdges(require(nodesRouted, c));
        nodesRouted = null;
        return sizes();
      case LOAD_PARTITION:
        partition = construction.loadPartition(model, features);
        return sizes();
      default:
        return null;
    }
  }

  /**
   * Abandons the construction so far (a worker was lost during it, and every worker starts over): waits for its
   * routing threads to end and forgets what it read, routed or built, so that the memory can be reclaimed. This
   * object is not used again.
   */
  public void stop() throws InterruptedException {
    construction.stop();
    nodesRead = null;
    nodesRouted = null;
    partition = null;
  }

  /** The partition built or loaded (null before). */
  public WorkerPartition partition() {
    return partition;
  }

  /** Hands the partition on (this object forgets it, so its rows can be dropped once used). */
  public WorkerPartition take(PhaseCommand c) {
    WorkerPartition p = require(partition, c);
    partition = null;
    return p;
  }

  /** {@code previous}, the result of the phase {@code c} follows; a phase run out of order fails the worker. */
  public static <T> T require(T previous, PhaseCommand c) {
    if (previous == null) {
      throw new IllegalStateException(c.phase() + " before the phase it follows");
    }
    return previous;
  }

  private PhaseResult sizes() {
    GraphBlock g = partition.graph();
    figures.put("nodes", g.numNodes());
    figures.put("edges", g.inEdges().numEdges());
    figures.put("halo", g.haloIds().length);
    return new PhaseResult.PartitionSizes(g.numNodes(), g.inEdges().numEdges(), g.haloIds().length);
  }
}
