package org.yarngnn.app.train;

import java.util.List;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.train.Adam;
import org.yarngnn.compute.train.Parameters;

/**
 * Holds the model's flat {@link Parameters}, their version and Adam's state. A step sums the workers' gradients
 * in worker order (so the sum, and with it the run, does not depend on which worker answered first), then runs
 * Adam with the L2 weight decay added to every weight's gradient, exactly as
 * {@link org.yarngnn.compute.train.FullGraphTrainer} does without {@code decayFirstLayerOnly}: one worker gives
 * that trainer's steps.
 */
public final class ParameterServer implements ParameterService {
  private final Parameters params;
  private final Adam adam;
  private final double weightDecay;
  private final float[] sum;
  private long version;

  /** Glorot weights of {@code spec} seeded by {@code seed} (as the single-JVM trainer draws them), version 0. */
  public ParameterServer(ModelSpec spec, long seed, double lr, double weightDecay) {
    this.params = Parameters.glorot(spec, seed);
    this.adam = new Adam(params.size(), lr);
    this.weightDecay = weightDecay;
    this.sum = new float[params.size()];
  }

  @Override
  public Weights current() {
    return new Weights(version, params.values().clone());
  }

  @Override
  public Weights step(List<WeightGradients> byWorker) {
    if (byWorker.isEmpty()) {
      throw new IllegalArgumentException("a step needs the gradients of at least one worker");
    }
    java.util.Arrays.fill(sum, 0f);
    for (int w = 0; w < byWorker.size(); w++) {
      WeightGradients g = byWorker.get(w);
      if (g.version() != version) {
        throw new IllegalStateException("worker " + w + " sent gradients of weights version " + g.version()
            + "; the parameter server holds version " + version + " (staleness 0)");
      }
      if (g.values().length != sum.length) {
        throw new IllegalStateException("worker " + w + " sent " + g.values().length + " gradients for "
            + sum.length + " weights");
      }
      float[] v = g.values();
      for (int i = 0; i < sum.length; i++) {
        sum[i] += v[i];
      }
    }
    adam.beginStep();
    adam.update(params.values(), sum, 0, sum.length, weightDecay);
    version++;
    return current();
  }

  @Override
  public OptimizerState state() {
    return new OptimizerState(adam.step(), params.values().clone(), adam.firstMoments().clone(),
        adam.secondMoments().clone());
  }

  @Override
  public void restore(OptimizerState s) {
    int n = params.size();
    if (s.weights().length != n || s.firstMoments().length != n || s.secondMoments().length != n || s.step() < 0) {
      throw new IllegalArgumentException("an optimiser state of " + s.weights().length + " values for " + n
          + " weights");
    }
    System.arraycopy(s.weights(), 0, params.values(), 0, n);
    System.arraycopy(s.firstMoments(), 0, adam.firstMoments(), 0, n);
    System.arraycopy(s.secondMoments(), 0, adam.secondMoments(), 0, n);
    adam.setStep(s.step());
    version = s.step();
  }

  /** The weights' layout (for writing the model). */
  public Parameters parameters() {
    return params;
  }

  public long version() {
    return version;
  }
}
