package org.yarngnn.app.infer;

import java.util.List;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.WorkerRecovery;

/**
 * Where an inference resumes after a lost graph worker was replaced ({@link WorkerRecovery.Resume}), and the
 * resume points a {@link Phase#REJOIN} command carries in its {@code layer} field (its {@code epoch} field is the
 * mesh generation):
 * <ul>
 *   <li>lost while connecting ({@code job}): not resumable; a worker waiting for the lost one to connect has no
 *       connection whose loss it could notice;</li>
 *   <li>lost while loading a partitioned graph ({@code load}): rejoin {@link #AFTER_JOB} (everyone connected
 *       anew; the replacement read the model), then the load again;</li>
 *   <li>lost while building the graph from the tables ({@code read-nodes}, {@code route-nodes}, {@code edges}):
 *       not resumable; every worker's routing feeds every partition, so only a new job would do;</li>
 *   <li>lost while planning: rejoin {@link #BEFORE_PLAN} (the replacement loads its partition), then the plan
 *       again;</li>
 *   <li>lost in layer k: rejoin {@link #atLayer}(k) (the replacement reads layer k - 1's checkpoint), then layer k
 *       again, by every worker;</li>
 *   <li>lost while writing: rejoin at the last layer, run it again (its output is not checkpointed), then the
 *       write again (each worker first deletes its parts of the interrupted write).</li>
 * </ul>
 */
public final class LayerResume {
  public static final int AFTER_JOB = 0;
  public static final int BEFORE_PLAN = 1;

  private LayerResume() {}

  /** The resume point "at layer {@code k}" (0-based). */
  public static int atLayer(int k) {
    return 2 + k;
  }

  /** The layer of resume point {@code resume} (at least {@link #atLayer}(0)). */
  public static int layerOf(int resume) {
    if (resume < atLayer(0)) {
      throw new IllegalArgumentException("resume point " + resume + " is not at a layer");
    }
    return resume - 2;
  }

  /** The steps for an inference of {@code layers} layers (see the class comment); null where it cannot resume. */
  public static List<PhaseCommand> steps(PhaseCommand interrupted, int generation, int layers) {
    switch (interrupted.phase()) {
      case LOAD_PARTITION:
        return List.of(rejoin(AFTER_JOB, generation));
      case PLAN:
        return List.of(rejoin(BEFORE_PLAN, generation));
      case LAYER:
        return List.of(rejoin(atLayer(interrupted.layer()), generation));
      case WRITE:
        return List.of(rejoin(atLayer(layers - 1), generation), new PhaseCommand(Phase.LAYER, layers - 1, null));
      default:
        return null;
    }
  }

  static PhaseCommand rejoin(int resume, int generation) {
    return new PhaseCommand(Phase.REJOIN, resume, generation, null);
  }
}
