package org.yarngnn.app.train;

import java.util.List;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.runtime.Weights;

/**
 * The parameter-server role as the training driver uses it: the current {@link Weights} (versioned), and one
 * optimiser step from the gradients of every worker. Runs inside the driver for now; a parameter-server
 * container serving the same two calls over the transport takes its place when tensor work moves out.
 */
interface ParameterService {
  /** The latest weights and their version (0 before the first step). */
  Weights current();

  /**
   * One step from the gradients of every worker, in worker order; each must have been computed on the
   * current version (staleness 0). Returns the new weights, version + 1.
   */
  Weights step(List<WeightGradients> byWorker);

  /**
   * The optimiser's whole state after {@code step} steps (the weights' version): copies of the weights and of
   * Adam's first and second moments. With the seed and the epoch (dropout and samples are keyed by them) this is
   * everything a checkpoint needs to continue the run exactly.
   */
  record OptimizerState(int step, float[] weights, float[] firstMoments, float[] secondMoments) {}

  /** A copy of the current {@link OptimizerState}, for a checkpoint. */
  OptimizerState state();

  /** Continues from a checkpoint's {@link OptimizerState}: weights, moments, step and version restored. */
  void restore(OptimizerState s);
}
