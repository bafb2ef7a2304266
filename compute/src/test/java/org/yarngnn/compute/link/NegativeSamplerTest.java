package org.yarngnn.compute.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NegativeSamplerTest {
  private static final long[] IDS = {3, 10, 11, 40, 41, 100};

  /** A draw depends only on (seed, epoch, positive, j): not on K, nor on what was drawn before. */
  @Test
  void negativesArePureFunctionsOfTheirKeys() {
    NegativeSampler s = NegativeSampler.of(NegativeSampler.Kind.UNIFORM, IDS, null);
    long[] three = new long[3];
    long[] five = new long[5];
    s.negatives(9, 4, 10, 40, 3, three, 0);
    s.negatives(9, 4, 10, 40, 5, five, 0);
    for (int j = 0; j < 3; j++) {
      assertEquals(three[j], five[j]);
      assertEquals(three[j], s.negative(9, 4, 10, 40, j));
    }
    long[] otherEpoch = new long[5];
    s.negatives(9, 5, 10, 40, 5, otherEpoch, 0);
    long[] otherSeed = new long[5];
    s.negatives(8, 4, 10, 40, 5, otherSeed, 0);
    assertTrue(!java.util.Arrays.equals(five, otherEpoch) || !java.util.Arrays.equals(five, otherSeed));
  }

  /** Frequencies over many positives: uniform 1/n each; degree proportional to in-degree^0.75, zero never. */
  @Test
  void distributions() {
    long[] degree = {1, 16, 0, 81, 4, 1};
    double[] weight = new double[IDS.length];
    double total = 0;
    for (int i = 0; i < IDS.length; i++) {
      weight[i] = Math.pow(degree[i], 0.75);
      total += weight[i];
    }
    int draws = 300_000;
    for (NegativeSampler.Kind kind : NegativeSampler.Kind.values()) {
      NegativeSampler s = NegativeSampler.of(kind, IDS, degree);
      int[] hits = new int[IDS.length];
      for (int i = 0; i < draws; i++) {
        long id = s.negative(1, 1, i, i + 1, 0);
        hits[java.util.Arrays.binarySearch(IDS, id)]++;
      }
      for (int i = 0; i < IDS.length; i++) {
        double want = kind == NegativeSampler.Kind.UNIFORM ? 1.0 / IDS.length : weight[i] / total;
        assertEquals(want, (double) hits[i] / draws, 0.004, kind + " candidate " + IDS[i]);
      }
      if (kind == NegativeSampler.Kind.DEGREE) {
        assertEquals(0, hits[2], "a node without in-edges is never a degree negative");
      }
    }
  }

  /** Evaluation negatives are never the source nor an edge of it, and the dense fallback still finds one. */
  @Test
  void evaluationNegativesAreNeverEdges() {
    NegativeSampler s = NegativeSampler.of(NegativeSampler.Kind.UNIFORM, IDS, null);
    NegativeSampler.EdgeTest sparse = (a, b) -> (a + b) % 3 == 0;
    for (long src : IDS) {
      for (int j = 0; j < 50; j++) {
        long c = s.evaluationNegative(2, src, 999, j, sparse);
        assertNotEquals(src, c);
        assertTrue(!sparse.isEdge(src, c));
        assertEquals(c, s.evaluationNegative(2, src, 999, j, sparse), "fixed by the seed");
      }
    }
    // Node 3 is adjacent to everything but 100: every draw that is not 100 is rejected.
    NegativeSampler.EdgeTest dense = (a, b) -> a == 3 && b != 100;
    for (int j = 0; j < 20; j++) {
      assertEquals(100, s.evaluationNegative(2, 3, 10, j, dense));
    }
    assertThrows(IllegalArgumentException.class, () -> s.evaluationNegative(2, 3, 10, 0, (a, b) -> true));
    assertThrows(IllegalArgumentException.class, () -> NegativeSampler.of(NegativeSampler.Kind.DEGREE, IDS,
        new long[IDS.length]));
    assertThrows(IllegalArgumentException.class, () -> NegativeSampler.of(NegativeSampler.Kind.UNIFORM,
        new long[] {2, 1}, null));
  }

  /** Held-out pairs: both directions share a split; fractions as asked; bad fractions named. */
  @Test
  void pairSplit() {
    int[] counts = new int[4];
    for (long a = 0; a < 300; a++) {
      for (long b = a + 1; b < a + 40; b++) {
        byte s = LinkSplit.ofPair(5, a, b, 0.05, 0.10);
        assertEquals(s, LinkSplit.ofPair(5, b, a, 0.05, 0.10));
        counts[s]++;
      }
    }
    double all = 300 * 39;
    assertEquals(0.05, counts[LinkSplit.VAL] / all, 0.01);
    assertEquals(0.10, counts[LinkSplit.TEST] / all, 0.01);
    assertEquals(0, counts[LinkSplit.NONE]);
    assertEquals(LinkSplit.TRAIN, LinkSplit.ofPair(5, 1, 2, 0, 0));
    assertEquals(null, LinkSplit.checkFractions(0, 0));
    assertTrue(LinkSplit.checkFractions(-0.1, 0.1).contains("at least 0"));
    assertTrue(LinkSplit.checkFractions(0.5, 0.5).contains("less than 1"));
    assertTrue(LinkSplit.checkFractions(Double.NaN, 0.1).contains("at least 0"));
  }
}
