package org.yarngnn.compute.retrieval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The kernel against a brute-force top-K computed here in double. Small-integer embeddings make every dot
 * product exact in float whatever order the GEMM sums in, so lists must be equal id for id, ties included
 * (integers from a narrow range give many); real-valued embeddings are compared to rounding.
 */
class ExactTopKTest {
  /** Brute force: all eligible candidates sorted by score (descending), then id (ascending), the first k. */
  static List<long[]> bruteForce(float[] q, long[] qIds, int nq, float[] c, long[] cIds, int nc, int width, int k,
      java.util.Set<String> excluded) {
    List<long[]> out = new ArrayList<>();
    for (int i = 0; i < nq; i++) {
      List<double[]> scored = new ArrayList<>();
      for (int j = 0; j < nc; j++) {
        if (cIds[j] == qIds[i] || excluded.contains(qIds[i] + ":" + cIds[j])) {
          continue;
        }
        double s = 0;
        for (int p = 0; p < width; p++) {
          s += (double) q[i * width + p] * c[j * width + p];
        }
        scored.add(new double[] {s, cIds[j]});
      }
      scored.sort((a, b) -> a[0] != b[0] ? Double.compare(b[0], a[0]) : Double.compare(a[1], b[1]));
      long[] ids = new long[Math.min(k, scored.size())];
      for (int r = 0; r < ids.length; r++) {
        ids[r] = (long) scored.get(r)[1];
      }
      out.add(ids);
    }
    return out;
  }

  private static float[] ints(Random rnd, int n, int range) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = rnd.nextInt(2 * range + 1) - range;
    }
    return v;
  }

  /** Distinct ids, shuffled and sparse (not 0..n-1), so id order is not arrival order. */
  private static long[] ids(Random rnd, int n, long offset) {
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = offset + 3L * i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      long t = ids[i];
      ids[i] = ids[j];
      ids[j] = t;
    }
    return ids;
  }

  /** Runs the kernel over the candidates in blocks of {@code block}; returns each query's list. */
  static List<long[]> run(float[] q, long[] qIds, int nq, float[] c, long[] cIds, int nc, int width, int k,
      QueryPairs ex, int block, List<float[]> scoresOut) {
    ExactTopK topk = new ExactTopK(q, qIds, nq, width, k, ex, block);
    for (int from = 0; from < nc; from += block) {
      int n = Math.min(block, nc - from);
      topk.offer(Arrays.copyOfRange(c, from * width, (from + n) * width), Arrays.copyOfRange(cIds, from, from + n),
          n);
    }
    assertEquals(nc, topk.offered());
    List<long[]> out = new ArrayList<>();
    long[] ids = new long[k];
    float[] scores = new float[k];
    for (int i = 0; i < nq; i++) {
      int n = topk.result(i, ids, scores);
      out.add(Arrays.copyOf(ids, n));
      if (scoresOut != null) {
        scoresOut.add(Arrays.copyOf(scores, n));
      }
    }
    return out;
  }

  private static void assertSame(List<long[]> expected, List<long[]> got, String what) {
    assertEquals(expected.size(), got.size(), what);
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), got.get(i), what + ", query " + i);
    }
  }

  @Test
  void equalsBruteForceOnIntegerEmbeddingsAcrossShapesAndBlocks() {
    Random rnd = new Random(7);
    int[][] shapes = {{1, 1, 1}, {5, 40, 3}, {64, 300, 16}, {65, 513, 8}, {130, 1000, 33}, {3, 2500, 64}};
    for (int[] shape : shapes) {
      int nq = shape[0];
      int nc = shape[1];
      int width = shape[2];
      float[] q = ints(rnd, nq * width, 4);
      float[] c = ints(rnd, nc * width, 4);
      long[] qIds = ids(rnd, nq, 1_000_000);
      long[] cIds = ids(rnd, nc, -500);
      for (int k : new int[] {1, 10, 100}) {
        List<long[]> expected = bruteForce(q, qIds, nq, c, cIds, nc, width, k, java.util.Set.of());
        for (int block : new int[] {1, 7, 256, ExactTopK.DEFAULT_CANDIDATE_BLOCK}) {
          assertSame(expected, run(q, qIds, nq, c, cIds, nc, width, k, null, block, null),
              nq + "x" + nc + "x" + width + " k=" + k + " block=" + block);
        }
      }
    }
  }

  @Test
  void tiesGoToTheSmallerCandidateId() {
    Random rnd = new Random(11);
    // Values in {-1, 0, 1} over 3 dimensions: 27 distinct rows at most, so scores tie in large groups.
    int nq = 40;
    int nc = 900;
    int width = 3;
    float[] q = ints(rnd, nq * width, 1);
    float[] c = ints(rnd, nc * width, 1);
    long[] qIds = ids(rnd, nq, 10_000);
    long[] cIds = ids(rnd, nc, 0);
    for (int k : new int[] {1, 5, 50}) {
      assertSame(bruteForce(q, qIds, nq, c, cIds, nc, width, k, java.util.Set.of()),
          run(q, qIds, nq, c, cIds, nc, width, k, null, 64, null), "ties k=" + k);
    }
    // All candidates equal: the list is the k smallest ids, in order.
    float[] same = new float[nc * width];
    Arrays.fill(same, 1f);
    long[] sorted = cIds.clone();
    Arrays.sort(sorted);
    float[] qOnes = new float[nq * width];
    Arrays.fill(qOnes, 1f);
    List<long[]> got = run(qOnes, qIds, nq, same, cIds, nc, width, 5, null, 100, null);
    for (long[] list : got) {
      assertArrayEquals(Arrays.copyOf(sorted, 5), list);
    }
  }

  @Test
  void kLargerThanTheCandidatesGivesEveryEligibleCandidate() {
    Random rnd = new Random(3);
    int nq = 9;
    int nc = 12;
    int width = 5;
    float[] q = ints(rnd, nq * width, 3);
    float[] c = ints(rnd, nc * width, 3);
    long[] qIds = ids(rnd, nq, 0);
    long[] cIds = ids(rnd, nc, 0); // ids 0, 3, ... 33: the queries' ids overlap, so some lose themselves
    List<long[]> expected = bruteForce(q, qIds, nq, c, cIds, nc, width, 50, java.util.Set.of());
    List<long[]> got = run(q, qIds, nq, c, cIds, nc, width, 50, null, 5, null);
    assertSame(expected, got, "k > candidates");
    for (int i = 0; i < nq; i++) {
      long self = qIds[i];
      boolean selfIsCandidate = Arrays.stream(cIds).anyMatch(x -> x == self);
      assertEquals(selfIsCandidate ? nc - 1 : nc, got.get(i).length, "query " + self);
      assertTrue(Arrays.stream(got.get(i)).noneMatch(x -> x == self), "the query itself is never a candidate");
    }
  }

  @Test
  void excludedPairsAndTheQueryItselfNeverAppear() {
    Random rnd = new Random(5);
    int n = 400;
    int width = 8;
    float[] e = ints(rnd, n * width, 3);
    long[] allIds = ids(rnd, n, 77);
    // Queries are a subset of the candidates (as with the default --queries): rows 0..99.
    int nq = 100;
    float[] q = Arrays.copyOf(e, nq * width);
    long[] qIds = Arrays.copyOf(allIds, nq);
    // Exclude each query's true top 3 (and some random pairs, some twice): the lists must move down.
    List<long[]> before = bruteForce(q, qIds, nq, e, allIds, n, width, 3, java.util.Set.of());
    java.util.Set<String> excluded = new java.util.HashSet<>();
    int[] pq = new int[nq * 9];
    long[] pc = new long[nq * 9];
    int pairs = 0;
    for (int i = 0; i < nq; i++) {
      for (long id : before.get(i)) {
        pq[pairs] = i;
        pc[pairs++] = id;
        excluded.add(qIds[i] + ":" + id);
      }
      for (int r = 0; r < 3; r++) {
        long id = allIds[rnd.nextInt(n)];
        pq[pairs] = i;
        pc[pairs++] = id;
        pq[pairs] = i;
        pc[pairs++] = id;
        excluded.add(qIds[i] + ":" + id);
      }
    }
    QueryPairs ex = QueryPairs.of(nq, pq, pc, pairs);
    assertEquals(excluded.size(), ex.size(), "duplicate pairs are kept once");
    for (int k : new int[] {1, 10, 120}) {
      List<long[]> expected = bruteForce(q, qIds, nq, e, allIds, n, width, k, excluded);
      List<long[]> got = run(q, qIds, nq, e, allIds, n, width, k, ex, 33, null);
      assertSame(expected, got, "exclusions k=" + k);
      for (int i = 0; i < nq; i++) {
        for (long id : got.get(i)) {
          assertTrue(id != qIds[i] && !excluded.contains(qIds[i] + ":" + id), "query " + qIds[i] + " got " + id);
        }
      }
    }
  }

  @Test
  void realValuedScoresMatchADoubleReferenceToRounding() {
    Random rnd = new Random(13);
    int nq = 70;
    int nc = 3000;
    int width = 64;
    float[] q = new float[nq * width];
    float[] c = new float[nc * width];
    for (int i = 0; i < q.length; i++) {
      q[i] = (float) rnd.nextGaussian();
    }
    for (int i = 0; i < c.length; i++) {
      c[i] = (float) rnd.nextGaussian();
    }
    long[] qIds = ids(rnd, nq, 5_000_000);
    long[] cIds = ids(rnd, nc, 0);
    int k = 20;
    List<float[]> scores = new ArrayList<>();
    List<long[]> got = run(q, qIds, nq, c, cIds, nc, width, k, null, 500, scores);
    List<long[]> expected = bruteForce(q, qIds, nq, c, cIds, nc, width, k, java.util.Set.of());
    java.util.Map<Long, Integer> row = new java.util.HashMap<>();
    for (int j = 0; j < nc; j++) {
      row.put(cIds[j], j);
    }
    for (int i = 0; i < nq; i++) {
      assertEquals(k, got.get(i).length);
      for (int r = 0; r < k; r++) {
        double exact = 0;
        int j = row.get(got.get(i)[r]);
        for (int p = 0; p < width; p++) {
          exact += (double) q[i * width + p] * c[j * width + p];
        }
        assertEquals(exact, scores.get(i)[r], 1e-4, "score of query " + i + " rank " + (r + 1));
        if (r > 0) {
          assertTrue(scores.get(i)[r] <= scores.get(i)[r - 1], "scores descend");
        }
      }
      // Gaussian scores have no near-ties at this size: the same ids in the same order.
      assertArrayEquals(expected.get(i), got.get(i), "query " + i);
    }
  }

  @Test
  void scoresThatCouldOverflowAreRefusedNamingThePair() {
    float[] q = {1e20f, 0f};
    float[] c = {1f, 1f, 1e19f, 1e19f};
    ExactTopK topk = new ExactTopK(q, new long[] {42}, 1, 2, 1, null, 4);
    ExactTopK.ScoreOverflowException e = assertThrows(ExactTopK.ScoreOverflowException.class,
        () -> topk.offer(c, new long[] {7, 8}, 2));
    assertEquals(42, e.queryId());
    assertEquals(8, e.candidateId());
  }

  @Test
  void noQueriesAndEmptyBlocksAreFine() {
    ExactTopK none = new ExactTopK(new float[0], new long[0], 0, 4, 3, null, 16);
    none.offer(new float[16], new long[4], 4);
    ExactTopK one = new ExactTopK(new float[] {1, 2, 3, 4}, new long[] {1}, 1, 4, 3, null, 16);
    one.offer(new float[0], new long[0], 0);
    assertEquals(0, one.result(0, new long[3], new float[3]));
    assertThrows(IllegalArgumentException.class, () -> one.offer(new float[80], new long[20], 20));
  }
}
