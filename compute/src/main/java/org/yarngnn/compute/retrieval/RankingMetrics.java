package org.yarngnn.compute.retrieval;

import java.util.Arrays;

/**
 * Ranking metrics of top-K lists against held-out true pairs, summed over the queries that have at least one true
 * pair (a query without one is not counted: it has nothing to recall), so that partial sums from several workers
 * add up and {@link #mean} divides once. Binary relevance: a ranked candidate is relevant when (query, candidate)
 * is a true pair. Per query with true set T and list r_1..r_n (n <= K):
 * <ul>
 *   <li>recall@K = |{r_i in T}| / |T|;</li>
 *   <li>ndcg@K = sum over relevant r_i of 1/log2(i+1), divided by the same sum for an ideal list,
 *       sum_{i=1..min(|T|,K)} 1/log2(i+1);</li>
 *   <li>hit_rate@K = 1 when some r_i is in T, else 0;</li>
 *   <li>mrr = 1/i for the first relevant r_i, 0 when none is in the top K (MRR truncated at K).</li>
 * </ul>
 */
public final class RankingMetrics {
  private final int k;
  private long queries;
  private double recall;
  private double ndcg;
  private double hits;
  private double reciprocalRanks;

  public RankingMetrics(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k " + k);
    }
    this.k = k;
  }

  /**
   * Adds one query: its ranked candidates {@code ranked[0..n)} (best first) and its distinct true candidates,
   * sorted ascending, {@code truth[from..to)}. A query with no true candidate is not counted.
   */
  public void add(long[] ranked, int n, long[] truth, int from, int to) {
    int relevantTotal = to - from;
    if (relevantTotal <= 0) {
      return;
    }
    int found = 0;
    double dcg = 0;
    int first = 0;
    for (int i = 0; i < Math.min(n, k); i++) {
      if (Arrays.binarySearch(truth, from, to, ranked[i]) >= 0) {
        found++;
        dcg += 1 / log2(i + 2);
        if (first == 0) {
          first = i + 1;
        }
      }
    }
    double ideal = 0;
    for (int i = 0; i < Math.min(relevantTotal, k); i++) {
      ideal += 1 / log2(i + 2);
    }
    queries++;
    recall += (double) found / relevantTotal;
    ndcg += dcg / ideal;
    hits += found > 0 ? 1 : 0;
    reciprocalRanks += first > 0 ? 1.0 / first : 0;
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  /** Queries counted (those with a true pair). */
  public long queries() {
    return queries;
  }

  public int k() {
    return k;
  }

  /** The sums, named as {@link #fromSums} reads them: what a worker reports to the driver. */
  public java.util.Map<String, Double> sums() {
    java.util.Map<String, Double> m = new java.util.LinkedHashMap<>();
    m.put("truthQueries", (double) queries);
    m.put("recallSum", recall);
    m.put("ndcgSum", ndcg);
    m.put("hitSum", hits);
    m.put("reciprocalRankSum", reciprocalRanks);
    return m;
  }

  /** Adds another accumulator's {@link #sums()} (a worker's partial sums). */
  public void addSums(java.util.Map<String, Double> sums) {
    queries += Math.round(sums.getOrDefault("truthQueries", 0.0));
    recall += sums.getOrDefault("recallSum", 0.0);
    ndcg += sums.getOrDefault("ndcgSum", 0.0);
    hits += sums.getOrDefault("hitSum", 0.0);
    reciprocalRanks += sums.getOrDefault("reciprocalRankSum", 0.0);
  }

  /**
   * The means over the counted queries, named as the contract names them: {@code recall@K}, {@code ndcg@K},
   * {@code hit_rate@K}, {@code mrr}, and {@code queries_with_truth}; the means are 0 when no query had a true pair.
   */
  public java.util.Map<String, Double> mean() {
    java.util.Map<String, Double> m = new java.util.LinkedHashMap<>();
    double d = Math.max(1, queries);
    m.put("recall@" + k, recall / d);
    m.put("ndcg@" + k, ndcg / d);
    m.put("hit_rate@" + k, hits / d);
    m.put("mrr", reciprocalRanks / d);
    m.put("queries_with_truth", (double) queries);
    return m;
  }
}
