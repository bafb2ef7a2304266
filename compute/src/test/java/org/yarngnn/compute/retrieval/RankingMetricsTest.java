package org.yarngnn.compute.retrieval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The metrics on hand-computed lists. */
class RankingMetricsTest {
  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  @Test
  void handComputedQueries() {
    RankingMetrics m = new RankingMetrics(3);
    // Query A: ranked 5, 9, 2; true {2, 9, 40} -> hits at ranks 2 and 3.
    m.add(new long[] {5, 9, 2}, 3, new long[] {2, 9, 40}, 0, 3);
    // Query B: ranked 1, 4, 6; true {1} -> hit at rank 1.
    m.add(new long[] {1, 4, 6}, 3, new long[] {1}, 0, 1);
    // Query C: ranked 7 only (one eligible candidate); true {8} -> no hit.
    m.add(new long[] {7, 0, 0}, 1, new long[] {8}, 0, 1);
    // Query D: no true pair -> not counted.
    m.add(new long[] {3, 4, 5}, 3, new long[0], 0, 0);
    Map<String, Double> mean = m.mean();
    assertEquals(3, m.queries());
    assertEquals((2.0 / 3 + 1 + 0) / 3, mean.get("recall@3"), 1e-12);
    double ndcgA = (1 / log2(3) + 1 / log2(4)) / (1 + 1 / log2(3) + 1 / log2(4));
    assertEquals((ndcgA + 1 + 0) / 3, mean.get("ndcg@3"), 1e-12);
    assertEquals(2.0 / 3, mean.get("hit_rate@3"), 1e-12);
    assertEquals((0.5 + 1 + 0) / 3, mean.get("mrr"), 1e-12);
    assertEquals(3.0, mean.get("queries_with_truth"));
  }

  @Test
  void partialSumsAddUpToTheWhole() {
    RankingMetrics whole = new RankingMetrics(2);
    RankingMetrics a = new RankingMetrics(2);
    RankingMetrics b = new RankingMetrics(2);
    long[][] ranked = {{1, 2}, {3, 4}, {5, 6}};
    long[][] truth = {{2}, {9}, {5, 6}};
    for (int i = 0; i < 3; i++) {
      whole.add(ranked[i], 2, truth[i], 0, truth[i].length);
      (i == 1 ? b : a).add(ranked[i], 2, truth[i], 0, truth[i].length);
    }
    RankingMetrics sum = new RankingMetrics(2);
    sum.addSums(a.sums());
    sum.addSums(b.sums());
    assertEquals(whole.mean(), sum.mean());
  }
}
