package org.yarngnn.app.infer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WorkerRecovery;
import org.yarngnn.partition.Ownership;

/**
 * Where an inference resumes after a lost graph worker was replaced ({@link WorkerRecovery.Resume}), and the
 * resume points a {@link Phase#REJOIN} command carries in its {@code layer} field (its {@code epoch} field is the
 * mesh generation):
 * <ul>
 *   <li>lost while connecting ({@code job}): not resumable. A worker waiting for the lost one to connect has no
 *       connection whose loss it could notice, so it cannot stop and answer the round; the driver would have to
 *       end that wait by a command the worker does not read while it waits;</li>
 *   <li>lost while loading a partitioned graph ({@code load}): rejoin {@link #AFTER_JOB} (everyone connected
 *       anew; the replacement read the model), then the load again;</li>
 *   <li>lost while building the graph from the tables ({@code read-nodes}, {@code route-nodes}, {@code edges}):
 *       every worker's routing feeds every partition, so construction starts over on every worker: rejoin
 *       {@link #BEFORE_CONSTRUCTION} (each worker stops and drops its partial construction, survivors and the
 *       replacement alike), then read-nodes again and, for a later phase, route-nodes again under the ownership
 *       the driver sent the first time (the driver keeps that command; a read-nodes run again must come to the
 *       same ownership, which it does unless the node tables changed: then the job fails), then the interrupted
 *       phase;</li>
 *   <li>with checkpoints ({@code --checkpoint layers}):
 *     <ul>
 *       <li>lost while planning: rejoin {@link #BEFORE_PLAN} (the replacement loads its partition), then the plan
 *           again;</li>
 *       <li>lost in layer k: rejoin {@link #atLayer}(k) (the replacement reads layer k - 1's checkpoint), then
 *           layer k again, by every worker;</li>
 *       <li>lost while writing: rejoin at the last layer, run it again (its output is not checkpointed), then the
 *           write again (each worker first deletes its parts of the interrupted write);</li>
 *     </ul></li>
 *   <li>without them (the default), lost while planning, in a layer or while writing: the job is recomputed from
 *       its inputs, as Spark recomputes a lost partition from its lineage. Rejoin {@link #BEFORE_CONSTRUCTION}
 *       (every worker drops its partition and rows), build the graph again (read-nodes, route-nodes under the kept
 *       ownership and edges; or load the {@code --graph} partition), plan, and every layer before the
 *       interrupted phase, then that phase again.</li>
 * </ul>
 * One per job: it remembers the job's {@link Phase#ROUTE_NODES} command ({@link #sent}).
 */
final class LayerResume implements WorkerRecovery.Resume {
  public static final int AFTER_JOB = 0;
  public static final int BEFORE_CONSTRUCTION = 1;
  public static final int BEFORE_PLAN = 2;

  private final int layers;
  /** Whether a replacement resumes from checkpoints ({@code --checkpoint layers}); else the job is recomputed. */
  private final boolean checkpoints;
  /** Whether the graph is built from the tables; else each worker loads its {@code --graph} partition. */
  private final boolean fromTables;
  /** The ownership the driver chooses from read-nodes' answers (as it did the first time). */
  private final Function<List<PhaseResult>, Ownership> ownershipOf;
  private PhaseCommand routeNodes;

  /**
   * The resume points of an inference of {@code layers} layers that chooses its ownership by {@code ownershipOf},
   * resuming from {@code checkpoints} or recomputing, its graph built {@code fromTables} or loaded.
   */
  public LayerResume(int layers, Function<List<PhaseResult>, Ownership> ownershipOf, boolean checkpoints,
      boolean fromTables) {
    this.layers = layers;
    this.ownershipOf = ownershipOf;
    this.checkpoints = checkpoints;
    this.fromTables = fromTables;
  }

  /** Notes a command the driver sends: the steps after a loss in {@code edges} need its route-nodes command. */
  public void sent(PhaseCommand c) {
    if (c.phase() == Phase.ROUTE_NODES) {
      routeNodes = c;
    }
  }

  /** The resume point "at layer {@code k}" (0-based). */
  public static int atLayer(int k) {
    return 3 + k;
  }

  /** The layer of resume point {@code resume} (at least {@link #atLayer}(0)). */
  public static int layerOf(int resume) {
    if (resume < atLayer(0)) {
      throw new IllegalArgumentException("resume point " + resume + " is not at a layer");
    }
    return resume - atLayer(0);
  }

  /** The steps (see the class comment); null where the job cannot resume. */
  @Override
  public List<PhaseCommand> steps(PhaseCommand interrupted, int generation) {
    switch (interrupted.phase()) {
      case READ_NODES:
        return List.of(rejoin(BEFORE_CONSTRUCTION, generation));
      case ROUTE_NODES:
        return List.of(rejoin(BEFORE_CONSTRUCTION, generation), new PhaseCommand(Phase.READ_NODES));
      case BUILD_EDGES:
        return routeNodes == null ? null : List.of(rejoin(BEFORE_CONSTRUCTION, generation),
            new PhaseCommand(Phase.READ_NODES), routeNodes);
      case LOAD_PARTITION:
        return List.of(rejoin(AFTER_JOB, generation));
      case PLAN:
      case LAYER:
      case WRITE:
        return checkpoints ? fromCheckpoints(interrupted, generation) : recompute(interrupted, generation);
      default:
        return null;
    }
  }

  private List<PhaseCommand> fromCheckpoints(PhaseCommand interrupted, int generation) {
    switch (interrupted.phase()) {
      case PLAN:
        return List.of(rejoin(BEFORE_PLAN, generation));
      case LAYER:
        return List.of(rejoin(atLayer(interrupted.layer()), generation));
      default:
        return List.of(rejoin(atLayer(layers - 1), generation), new PhaseCommand(Phase.LAYER, layers - 1, null));
    }
  }

  /**
   * Every phase from construction up to {@code interrupted} (a plan, a layer or the write), after a rejoin that
   * drops what every worker built; null (not resumable) when the route-nodes command to repeat was never sent.
   */
  private List<PhaseCommand> recompute(PhaseCommand interrupted, int generation) {
    List<PhaseCommand> steps = new ArrayList<>();
    steps.add(rejoin(BEFORE_CONSTRUCTION, generation));
    if (fromTables) {
      if (routeNodes == null) {
        return null;
      }
      steps.add(new PhaseCommand(Phase.READ_NODES));
      steps.add(routeNodes);
      steps.add(new PhaseCommand(Phase.BUILD_EDGES));
    } else {
      steps.add(new PhaseCommand(Phase.LOAD_PARTITION));
    }
    if (interrupted.phase() == Phase.PLAN) {
      return steps;
    }
    steps.add(new PhaseCommand(Phase.PLAN));
    int upTo = interrupted.phase() == Phase.LAYER ? interrupted.layer() : layers;
    for (int k = 0; k < upTo; k++) {
      steps.add(new PhaseCommand(Phase.LAYER, k, null));
    }
    return steps;
  }

  /**
   * A read-nodes run again to catch up must come to the ownership the kept route-nodes command carries: the
   * partitions built before the loss and after it are then the same.
   */
  @Override
  public void caughtUp(PhaseCommand step, List<PhaseResult> results) {
    if (step.phase() != Phase.READ_NODES || routeNodes == null) {
      return;
    }
    Ownership again = ownershipOf.apply(results);
    if (!again.equals(routeNodes.ownership())) {
      throw new IllegalStateException("the node tables changed while the job ran: read again after a lost "
          + "worker, they give the ownership " + again + ", not " + routeNodes.ownership());
    }
  }

  static PhaseCommand rejoin(int resume, int generation) {
    return new PhaseCommand(Phase.REJOIN, resume, generation, null);
  }
}
