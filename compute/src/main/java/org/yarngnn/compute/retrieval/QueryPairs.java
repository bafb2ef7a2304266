package org.yarngnn.compute.retrieval;

import java.util.Arrays;

/**
 * (query, candidate) pairs as one sorted run of distinct candidate ids per query: the pairs a query must never be
 * given (its training edges, what a user already bought) or its held-out true pairs. A lookup is a binary search
 * in the query's run; {@link ExactTopK} looks up only the few scores that would enter a query's top K, so the
 * search is off the hot loop.
 */
public final class QueryPairs {
  /** No exclusions. */
  public static final QueryPairs NONE = new QueryPairs(new int[1], new long[0]);

  private final int[] start;
  private final long[] ids;

  private QueryPairs(int[] start, long[] ids) {
    this.start = start;
    this.ids = ids;
  }

  /**
   * From {@code count} pairs (query index {@code queries[i]} in {@code [0, queryCount)}, candidate id
   * {@code candidates[i]}); duplicates are kept once.
   */
  public static QueryPairs of(int queryCount, int[] queries, long[] candidates, int count) {
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
    return new QueryPairs(kept, out == ids.length ? ids : Arrays.copyOf(ids, out));
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

  /** All runs, query after query: query q's is {@code ids()[from(q) .. to(q))}. */
  public long[] ids() {
    return ids;
  }

  public int from(int query) {
    return query + 1 >= start.length ? 0 : start[query];
  }

  public int to(int query) {
    return query + 1 >= start.length ? 0 : start[query + 1];
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
