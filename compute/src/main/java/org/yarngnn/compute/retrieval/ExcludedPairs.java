package org.yarngnn.compute.retrieval;

import java.util.Arrays;

/**
 * The candidate ids each query must never be given (its training edges, what a user already bought), as one
 * sorted id run per query: a lookup is a binary search in the query's run. {@link ExactTopK} looks only at the
 * few scores that would enter a query's top K, so the search is off the hot loop.
 */
public final class ExcludedPairs {
  /** No exclusions. */
  public static final ExcludedPairs NONE = new ExcludedPairs(new int[1], new long[0]);

  private final int[] start;
  private final long[] ids;

  private ExcludedPairs(int[] start, long[] ids) {
    this.start = start;
    this.ids = ids;
  }

  /**
   * From {@code count} pairs (query index {@code queries[i]} in {@code [0, queryCount)}, candidate id
   * {@code candidates[i]}); duplicates are kept once.
   */
  public static ExcludedPairs of(int queryCount, int[] queries, long[] candidates, int count) {
    if (count < 0 || count > queries.length || count > candidates.length) {
      throw new IllegalArgumentException(count + " pairs in arrays of " + queries.length + " and "
          + candidates.length);
    }
    int[] start = new int[queryCount + 1];
    for (int i = 0; i < count; i++) {
      int q = queries[i];
      if (q < 0 || q >= queryCount) {
        throw new IllegalArgumentException("pair " + i + " names query " + q + " of " + queryCount);
      }
      start[q + 1]++;
    }
    for (int q = 0; q < queryCount; q++) {
      start[q + 1] += start[q];
    }
    long[] ids = new long[count];
    int[] fill = Arrays.copyOf(start, queryCount);
    for (int i = 0; i < count; i++) {
      ids[fill[queries[i]]++] = candidates[i];
    }
    // Sort each run and drop its duplicates, compacting the runs in place.
    int out = 0;
    int[] kept = new int[queryCount + 1];
    for (int q = 0; q < queryCount; q++) {
      int from = start[q];
      int to = start[q + 1];
      Arrays.sort(ids, from, to);
      kept[q] = out;
      for (int i = from; i < to; i++) {
        if (i == from || ids[i] != ids[i - 1]) {
          ids[out++] = ids[i];
        }
      }
    }
    kept[queryCount] = out;
    return new ExcludedPairs(kept, out == ids.length ? ids : Arrays.copyOf(ids, out));
  }

  /** Whether query {@code query} must not be given candidate {@code candidateId}. */
  public boolean excluded(int query, long candidateId) {
    if (query + 1 >= start.length) {
      return false;
    }
    int from = start[query];
    int to = start[query + 1];
    return from < to && Arrays.binarySearch(ids, from, to, candidateId) >= 0;
  }

  /** Distinct pairs held. */
  public int size() {
    return ids.length;
  }

  /** Distinct candidate ids excluded for query {@code query}. */
  public int count(int query) {
    return query + 1 >= start.length ? 0 : start[query + 1] - start[query];
  }
}
