package org.yarngnn.compute.link;

/**
 * The losses of link prediction over dot-product scores, per positive with its K negatives, and their gradients
 * with respect to the scores. With temperature T every score s enters as s / T. For positive i with score
 * {@code p} and negatives {@code n_1..n_K}:
 * <pre>
 * bce:     softplus(-p/T) + (1/K) sum_j softplus(n_j/T)          (GAE's recon_loss: mean over positives plus
 *                                                               mean over negatives, for any K)
 * bpr:     (1/K) sum_j softplus(-(p - n_j)/T)                    (-log sigmoid of the margin)
 * softmax: logsumexp(p/T, n_1/T, .., n_K/T) - p/T                (cross-entropy of the positive among K + 1)
 * </pre>
 * The loss is returned as a sum over the positives and the gradients are multiplied by a caller-given
 * {@code scale}, as {@link org.yarngnn.compute.train.SoftmaxCrossEntropy} does: workers holding some positives
 * use {@code scale = 1 / (global number of positives)} and their gradients add up to the gradient of the mean.
 * All arithmetic in double; softplus and logsumexp in their overflow-free forms.
 */
public final class LinkLoss {
  /** The loss kinds of {@code --loss}. */
  public enum Kind { BCE, BPR, SOFTMAX }

  private LinkLoss() {}

  /** {@code log(1 + e^x)} without overflow. */
  static double softplus(double x) {
    return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
  }

  static double sigmoid(double x) {
    if (x >= 0) {
      return 1 / (1 + Math.exp(-x));
    }
    double e = Math.exp(x);
    return e / (1 + e);
  }

  /**
   * Positives {@code [from, to)}: returns the sum of their losses; writes {@code dPos[i]} and
   * {@code dNeg[i*k .. i*k+k)} = {@code scale} times the derivative of positive i's loss with respect to its
   * score and its negatives' scores ({@code neg} laid out the same way).
   */
  public static double lossAndGradient(Kind kind, double temperature, float[] pos, float[] neg, int k, int from,
      int to, float scale, float[] dPos, float[] dNeg) {
    if (k < 1 || !(temperature > 0)) {
      throw new IllegalArgumentException("k " + k + ", temperature " + temperature);
    }
    double invT = 1 / temperature;
    double total = 0;
    for (int i = from; i < to; i++) {
      double p = pos[i] * invT;
      int o = i * k;
      double dp = 0;
      switch (kind) {
        case BCE -> {
          total += softplus(-p);
          dp = -sigmoid(-p);
          for (int j = 0; j < k; j++) {
            double n = neg[o + j] * invT;
            total += softplus(n) / k;
            dNeg[o + j] = (float) (scale * invT * sigmoid(n) / k);
          }
        }
        case BPR -> {
          for (int j = 0; j < k; j++) {
            double margin = p - neg[o + j] * invT;
            total += softplus(-margin) / k;
            double g = -sigmoid(-margin) / k;
            dp += g;
            dNeg[o + j] = (float) (-scale * invT * g);
          }
        }
        case SOFTMAX -> {
          double max = p;
          for (int j = 0; j < k; j++) {
            max = Math.max(max, neg[o + j] * invT);
          }
          double sum = Math.exp(p - max);
          for (int j = 0; j < k; j++) {
            sum += Math.exp(neg[o + j] * invT - max);
          }
          double logSum = Math.log(sum) + max;
          total += logSum - p;
          dp = Math.exp(p - logSum) - 1;
          for (int j = 0; j < k; j++) {
            dNeg[o + j] = (float) (scale * invT * Math.exp(neg[o + j] * invT - logSum));
          }
        }
        default -> throw new IllegalStateException(kind.name());
      }
      dPos[i] = (float) (scale * invT * dp);
    }
    return total;
  }
}
