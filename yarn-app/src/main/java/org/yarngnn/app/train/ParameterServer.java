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
final class ParameterServer implements ParameterService {
  private final Parameters params;
  private final Adam adam;
  private final double weightDecay;
  private final float[] sum;
  /** Weight stashing: versions older than the current one that some interval still holds, and their holds. */
  private final java.util.Map<Long, float[]> stashed = new java.util.HashMap<>();
  private final java.util.Map<Long, Integer> holds = new java.util.HashMap<>();
  private int maxLive = 1;
  private long version;

  /** Glorot weights of {@code spec} seeded by {@code seed} (as the single-JVM trainer draws them), version 0. */
  public ParameterServer(ModelSpec spec, long seed, double lr, double weightDecay) {
    this.params = Parameters.glorot(spec, seed);
    this.adam = new Adam(params.size(), lr);
    this.weightDecay = weightDecay;
    this.sum = new float[params.size()];
  }

  @Override
  public synchronized Weights current() {
    return new Weights(version, params.values().clone());
  }

  /**
   * The weights of a live version (the current one, or an older one an interval still holds), or null: what a
   * tensor worker fetches by the version its task names, so a backward uses exactly its forward's weights.
   */
  public synchronized Weights weights(long v) {
    if (v == version) {
      return current();
    }
    float[] w = stashed.get(v);
    return w == null ? null : new Weights(v, w.clone());
  }

  /** An interval starts using version {@code v} (the current one): it stays live until released. */
  public synchronized void hold(long v) {
    if (v != version && !stashed.containsKey(v)) {
      throw new IllegalStateException("hold of weights version " + v + ", which is not live");
    }
    holds.merge(v, 1, Integer::sum);
  }

  /** The interval is done with {@code v}; an old version nobody holds is freed. */
  public synchronized void release(long v) {
    Integer h = holds.get(v);
    if (h == null) {
      throw new IllegalStateException("release of weights version " + v + ", which nobody holds");
    }
    if (h == 1) {
      holds.remove(v);
      stashed.remove(v);
    } else {
      holds.put(v, h - 1);
    }
  }

  /** Versions live now: the current one and every stashed one. */
  public synchronized int liveVersions() {
    return 1 + stashed.size();
  }

  /** The most versions that were live at once. */
  public synchronized int maxLiveVersions() {
    return maxLive;
  }

  @Override
  public synchronized Weights step(List<WeightGradients> byWorker) {
    return step(byWorker, 0);
  }

  /**
   * As {@link #step(List)} with bounded asynchrony: each worker's gradients may be of any version from
   * {@code staleness} before the current one up to it (Dorylus' weight server applies them all the same).
   */
  public synchronized Weights step(List<WeightGradients> byWorker, int staleness) {
    if (byWorker.isEmpty()) {
      throw new IllegalArgumentException("a step needs the gradients of at least one worker");
    }
    java.util.Arrays.fill(sum, 0f);
    for (int w = 0; w < byWorker.size(); w++) {
      WeightGradients g = byWorker.get(w);
      if (g.version() > version || g.version() < version - staleness) {
        throw new IllegalStateException("worker " + w + " sent gradients of weights version " + g.version()
            + "; the parameter server holds version " + version + " (staleness " + staleness + ")");
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
    if (holds.containsKey(version)) {
      stashed.put(version, params.values().clone()); // still held: keep the version its backward used
    }
    adam.beginStep();
    adam.update(params.values(), sum, 0, sum.length, weightDecay);
    version++;
    maxLive = Math.max(maxLive, liveVersions());
    return current();
  }

  @Override
  public synchronized OptimizerState state() {
    return new OptimizerState(adam.step(), params.values().clone(), adam.firstMoments().clone(),
        adam.secondMoments().clone());
  }

  @Override
  public synchronized void restore(OptimizerState s) {
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
