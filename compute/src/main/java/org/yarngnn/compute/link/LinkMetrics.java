package org.yarngnn.compute.link;

import java.util.Arrays;

/**
 * Evaluation figures of link prediction. {@link #auc} and {@link #averagePrecision} rank positive scores against
 * negative scores as scikit-learn's {@code roc_auc_score} and {@code average_precision_score} do (ties: AUC counts
 * a tied pair one half; AP steps once per distinct threshold). {@link #rank} ranks one positive among its own
 * negatives as OGB's link-prediction evaluator does: the mean of the optimistic and the pessimistic rank, so
 * ties neither help nor hurt; {@code mrr} is the mean of 1 / rank, {@code hits@K} the fraction with rank at
 * most K.
 */
public final class LinkMetrics {
  private LinkMetrics() {}

  /**
   * Positive and negative scores as one ascending array of keys {@code orderedBits(score) << 1 | isPositive};
   * equal scores are adjacent (the callers group them), whatever their labels.
   */
  private static long[] sortedByScore(float[] pos, float[] neg) {
    long[] keys = new long[pos.length + neg.length];
    for (int i = 0; i < pos.length; i++) {
      keys[i] = orderedBits(pos[i]) << 1 | 1;
    }
    for (int i = 0; i < neg.length; i++) {
      keys[pos.length + i] = orderedBits(neg[i]) << 1;
    }
    Arrays.sort(keys);
    return keys;
  }

  /** A float's bits as a long that orders like the float (NaN refused). */
  private static long orderedBits(float f) {
    if (Float.isNaN(f)) {
      throw new IllegalArgumentException("a NaN score");
    }
    int b = Float.floatToIntBits(f == 0f ? 0f : f);
    return (b < 0 ? ~b : b | 0x80000000) & 0xFFFFFFFFL;
  }

  /**
   * The area under the ROC curve: the probability that a random positive scores above a random negative, a tie
   * counting one half (the Mann-Whitney U statistic over {@code |pos| * |neg|}). NaN when either side is empty.
   */
  public static double auc(float[] pos, float[] neg) {
    if (pos.length == 0 || neg.length == 0) {
      return Double.NaN;
    }
    long[] keys = sortedByScore(pos, neg);
    double u = 0;
    long negBelow = 0;
    // Ascending: each group of equal scores; its positives beat every negative below and tie the group's.
    for (int i = 0; i < keys.length; ) {
      int j = i;
      long p = 0;
      long n = 0;
      while (j < keys.length && keys[j] >>> 1 == keys[i] >>> 1) {
        if ((keys[j] & 1) == 1) {
          p++;
        } else {
          n++;
        }
        j++;
      }
      u += p * (negBelow + 0.5 * n);
      negBelow += n;
      i = j;
    }
    return u / ((double) pos.length * neg.length);
  }

  /**
   * Average precision: {@code sum_t (R_t - R_{t-1}) P_t} over the distinct score thresholds t from the highest
   * down, with recall R and precision P of "score >= t". NaN without positives.
   */
  public static double averagePrecision(float[] pos, float[] neg) {
    if (pos.length == 0) {
      return Double.NaN;
    }
    long[] keys = sortedByScore(pos, neg);
    double ap = 0;
    long tp = 0;
    long seen = 0;
    for (int i = keys.length - 1; i >= 0; ) {
      int j = i;
      long p = 0;
      while (j >= 0 && keys[j] >>> 1 == keys[i] >>> 1) {
        p += keys[j] & 1;
        j--;
      }
      seen += i - j;
      tp += p;
      ap += (double) p / pos.length * ((double) tp / seen);
      i = j;
    }
    return ap;
  }

  /**
   * The rank of score {@code pos} among itself and {@code neg[from..from+count)}: 1 + the mean of the number of
   * negatives strictly above and the number at least as high.
   */
  public static double rank(float pos, float[] neg, int from, int count) {
    int above = 0;
    int atLeast = 0;
    for (int j = from; j < from + count; j++) {
      above += neg[j] > pos ? 1 : 0;
      atLeast += neg[j] >= pos ? 1 : 0;
    }
    return 1 + 0.5 * (above + atLeast);
  }

  /** The ranking figures of one set of positives: sums over the positives, to be added up across workers. */
  public record RankSums(long count, double reciprocalRanks, long hits10, long hits50, long hits100) {
    public static final RankSums EMPTY = new RankSums(0, 0, 0, 0, 0);

    public RankSums plus(RankSums o) {
      return new RankSums(count + o.count, reciprocalRanks + o.reciprocalRanks, hits10 + o.hits10,
          hits50 + o.hits50, hits100 + o.hits100);
    }

    public double mrr() {
      return count == 0 ? Double.NaN : reciprocalRanks / count;
    }

    public double hits(int k) {
      long h = switch (k) {
        case 10 -> hits10;
        case 50 -> hits50;
        case 100 -> hits100;
        default -> throw new IllegalArgumentException("hits@" + k);
      };
      return count == 0 ? Double.NaN : (double) h / count;
    }
  }

  /** Ranks positive i ({@code pos[i]}) among {@code neg[i*r .. i*r+r)} for every i; the sums of the figures. */
  public static RankSums rankSums(float[] pos, float[] neg, int r) {
    double rr = 0;
    long h10 = 0;
    long h50 = 0;
    long h100 = 0;
    for (int i = 0; i < pos.length; i++) {
      double rank = rank(pos[i], neg, i * r, r);
      rr += 1 / rank;
      h10 += rank <= 10 ? 1 : 0;
      h50 += rank <= 50 ? 1 : 0;
      h100 += rank <= 100 ? 1 : 0;
    }
    return new RankSums(pos.length, rr, h10, h50, h100);
  }
}
