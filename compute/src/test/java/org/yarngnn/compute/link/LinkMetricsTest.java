package org.yarngnn.compute.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinkMetricsTest {
  /** scikit-learn's documented examples: roc_auc_score and average_precision_score of y = [0, 0, 1, 1]. */
  @Test
  void scikitLearnDocumentedValues() {
    float[] pos = {0.35f, 0.8f};
    float[] neg = {0.1f, 0.4f};
    assertEquals(0.75, LinkMetrics.auc(pos, neg), 1e-12);
    assertEquals(0.8333333333333333, LinkMetrics.averagePrecision(pos, neg), 1e-12);
  }

  /** AUC equals the brute-force count over all (positive, negative) pairs, ties one half, many ties included. */
  @Test
  void aucEqualsPairCount() {
    SplittableRandom r = new SplittableRandom(11);
    for (int trial = 0; trial < 50; trial++) {
      float[] pos = new float[1 + r.nextInt(40)];
      float[] neg = new float[1 + r.nextInt(40)];
      for (int i = 0; i < pos.length; i++) {
        pos[i] = r.nextInt(8) - 3f; // coarse scores: ties are common, -0.0 and 0.0 too
      }
      for (int i = 0; i < neg.length; i++) {
        neg[i] = i % 5 == 0 ? -0.0f : r.nextInt(8) - 4f;
      }
      double count = 0;
      for (float p : pos) {
        for (float n : neg) {
          count += p > n ? 1 : p == n ? 0.5 : 0;
        }
      }
      assertEquals(count / (pos.length * neg.length), LinkMetrics.auc(pos, neg), 1e-12, "trial " + trial);
      assertEquals(bruteAveragePrecision(pos, neg), LinkMetrics.averagePrecision(pos, neg), 1e-12, "trial " + trial);
    }
  }

  /** AP as the mean, over the positives, of the precision of "score >= that positive's score". */
  private static double bruteAveragePrecision(float[] pos, float[] neg) {
    double sum = 0;
    for (float p : pos) {
      int tp = 0;
      int all = 0;
      for (float q : pos) {
        tp += q >= p ? 1 : 0;
      }
      for (float n : neg) {
        all += n >= p ? 1 : 0;
      }
      sum += (double) tp / (tp + all);
    }
    return sum / pos.length;
  }

  /** OGB's rank: 1 + the mean of the optimistic and pessimistic counts; MRR and hits@K from it. */
  @Test
  void ranksAsOgb() {
    float[] neg = {0.9f, 0.5f, 0.5f, 0.1f};
    assertEquals(1 + 0.5 * (1 + 3), LinkMetrics.rank(0.5f, neg, 0, 4), 1e-12);
    assertEquals(1, LinkMetrics.rank(1f, neg, 0, 4), 1e-12);
    assertEquals(5, LinkMetrics.rank(0f, neg, 0, 4), 1e-12);
    float[] many = new float[2 * 120];
    for (int j = 0; j < 120; j++) {
      many[j] = j; // positive 0 = 59.5: 60 negatives above -> rank 61
      many[120 + j] = -j; // positive 1 = 0.5: rank 1
    }
    LinkMetrics.RankSums s = LinkMetrics.rankSums(new float[] {59.5f, 0.5f}, many, 120);
    assertEquals((1.0 / 61 + 1) / 2, s.mrr(), 1e-12);
    assertEquals(0.5, s.hits(10), 1e-12);
    assertEquals(0.5, s.hits(50), 1e-12);
    assertEquals(1, s.hits(100), 1e-12);
    assertEquals(s.mrr(), s.plus(LinkMetrics.RankSums.EMPTY).mrr());
    assertTrue(Double.isNaN(LinkMetrics.auc(new float[0], neg)));
  }

  /** A rank of exactly K is a hit at K, K + 0.5 (a tie straddling K) and K + 1 are not. */
  @Test
  void hitsAtKCountRankKAndNoFurther() {
    for (int k : new int[] {10, 50, 100}) {
      float[] neg = new float[3 * 120];
      for (int j = 0; j < 120; j++) {
        neg[j] = j < k - 1 ? 2 : -1; // k - 1 negatives above 1.0: rank k
        neg[120 + j] = j < k - 1 ? 2 : j == k - 1 ? 1 : -1; // and one tie: rank k + 0.5
        neg[240 + j] = j < k ? 2 : -1; // k above: rank k + 1
      }
      LinkMetrics.RankSums s = LinkMetrics.rankSums(new float[] {1, 1, 1}, neg, 120);
      assertEquals(1.0 / 3, s.hits(k), 1e-12, "hits@" + k);
      assertEquals((1.0 / k + 1.0 / (k + 0.5) + 1.0 / (k + 1)) / 3, s.mrr(), 1e-12, "mrr around " + k);
    }
  }
}
