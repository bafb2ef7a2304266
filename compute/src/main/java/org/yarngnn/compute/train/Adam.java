package org.yarngnn.compute.train;

/**
 * Adam on flat float arrays, as {@code torch.optim.Adam(params, lr, betas=(b1, b2), eps, weight_decay=wd)}
 * (not AdamW): per element, at step t (1-based),
 * <pre>
 * g = grad + wd * p                      # L2 added to the gradient, before the moments
 * m = b1 m + (1 - b1) g;   v = b2 v + (1 - b2) g^2
 * p = p - (lr / (1 - b1^t)) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
 * </pre>
 * The moments are float, the per-element arithmetic double. Weight decay is given per range
 * ({@link #update}), so a caller can decay only some tensors (Kipf's GCN decays the first layer only) and a
 * parameter server can update just the range it owns.
 */
public final class Adam {
  private final double lr;
  private final double beta1;
  private final double beta2;
  private final double eps;
  private final float[] m;
  private final float[] v;
  private int t;

  public Adam(int size, double lr) {
    this(size, lr, 0.9, 0.999, 1e-8);
  }

  public Adam(int size, double lr, double beta1, double beta2, double eps) {
    this.lr = lr;
    this.beta1 = beta1;
    this.beta2 = beta2;
    this.eps = eps;
    this.m = new float[size];
    this.v = new float[size];
  }

  /** Starts step {@code t + 1}; then {@link #update} every range once. */
  public void beginStep() {
    t++;
  }

  /** The current step (0 before the first). */
  public int step() {
    return t;
  }

  /** Updates {@code params[from..to)} from {@code grads[from..to)} (same indices), with L2 weight decay {@code wd}. */
  public void update(float[] params, float[] grads, int from, int to, double wd) {
    if (t == 0) {
      throw new IllegalStateException("beginStep() first");
    }
    double bc1 = 1 - Math.pow(beta1, t);
    double bc2Sqrt = Math.sqrt(1 - Math.pow(beta2, t));
    double stepSize = lr / bc1;
    for (int i = from; i < to; i++) {
      double g = grads[i] + wd * params[i];
      double mi = beta1 * m[i] + (1 - beta1) * g;
      double vi = beta2 * v[i] + (1 - beta2) * g * g;
      m[i] = (float) mi;
      v[i] = (float) vi;
      params[i] = (float) (params[i] - stepSize * m[i] / (Math.sqrt(v[i]) / bc2Sqrt + eps));
    }
  }

  /** One whole step: {@link #beginStep} and {@link #update} of every element with weight decay {@code wd}. */
  public void step(float[] params, float[] grads, double wd) {
    beginStep();
    update(params, grads, 0, params.length, wd);
  }

  /** The first moments (live), e.g. for a checkpoint. */
  public float[] firstMoments() {
    return m;
  }

  /** The second moments (live). */
  public float[] secondMoments() {
    return v;
  }

  /** Restores the step count from a checkpoint (moments through the live arrays). */
  public void setStep(int step) {
    t = step;
  }
}
