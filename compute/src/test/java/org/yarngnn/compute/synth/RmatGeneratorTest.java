package org.yarngnn.compute.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RmatGeneratorTest {
  /** Edges as a flat array src0, dst0, src1, dst1, ... */
  static final class EdgeList implements EdgeConsumer {
    long[] pairs = new long[1024];
    int n;

    @Override
    public void edge(long src, long dst) {
      if (2 * n + 2 > pairs.length) {
        pairs = Arrays.copyOf(pairs, pairs.length * 2);
      }
      pairs[2 * n] = src;
      pairs[2 * n + 1] = dst;
      n++;
    }

    long[] toArray() {
      return Arrays.copyOf(pairs, 2 * n);
    }
  }

  private static long[] edges(RmatGenerator.Options options) {
    EdgeList list = new EdgeList();
    new RmatGenerator(options).generateEdges(list);
    return list.toArray();
  }

  @Test
  void producesTheRequestedCountsInRange() {
    long[] e = edges(RmatGenerator.builder().nodes(1000).edges(50_000).seed(3).build());
    assertEquals(100_000, e.length);
    for (long id : e) {
      assertTrue(id >= 0 && id < 1000, "id " + id);
    }
  }

  @Test
  void isReproducibleWithASeed() {
    // Two generators built apart from the same settings, given in another order (not one options object twice):
    // a seed is all a user needs to get the graph again.
    RmatGenerator.Options a = RmatGenerator.builder().scale(12).edges(20_000).seed(5).noise(0.1).build();
    long[] whole = edges(a);
    assertArrayEquals(whole, edges(RmatGenerator.builder().noise(0.1).seed(5).edges(20_000).scale(12).build()));
    long[] other = edges(RmatGenerator.builder().scale(12).edges(20_000).seed(6).noise(0.1).build());
    assertFalse(Arrays.equals(whole, other));
  }

  @Test
  void chunksConcatenateToTheWholeGraph() {
    RmatGenerator g = new RmatGenerator(RmatGenerator.builder().scale(10).edges(10_001).scrambleIds(true)
        .seed(9).build());
    EdgeList whole = new EdgeList();
    g.generateEdges(whole);
    EdgeList chunked = new EdgeList();
    int chunks = 7;
    for (int c = chunks - 1; c >= 0; c--) { // any order: each edge depends only on its index
      EdgeList part = new EdgeList();
      g.generateEdges(RmatGenerator.chunkStart(g.edgeCount(), c, chunks),
          RmatGenerator.chunkStart(g.edgeCount(), c + 1, chunks), part);
      long[] p = part.toArray();
      long[] joined = new long[p.length + 2 * chunked.n];
      System.arraycopy(p, 0, joined, 0, p.length);
      System.arraycopy(chunked.toArray(), 0, joined, p.length, 2 * chunked.n);
      chunked.pairs = joined;
      chunked.n = joined.length / 2;
    }
    assertArrayEquals(whole.toArray(), chunked.toArray());
    assertEquals(10_001L * 3 / 7, RmatGenerator.chunkStart(10_001, 3, 7));
    assertEquals(Long.MAX_VALUE, RmatGenerator.chunkStart(Long.MAX_VALUE, 64, 64));
  }

  @Test
  void degreeDistributionIsSkewed() {
    for (boolean scramble : new boolean[] {false, true}) {
      RmatGenerator.Options o = RmatGenerator.builder().scale(14).scrambleIds(scramble).noise(0.05).seed(1)
          .build();
      assertEquals(16L << 14, o.edges());
      long[] e = edges(o);
      Map<Long, Integer> degree = new HashMap<>();
      for (long id : e) {
        degree.merge(id, 1, Integer::sum);
      }
      double mean = (double) e.length / o.nodes();
      int max = degree.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
      assertTrue(max > 50 * mean, "max degree " + max + " vs mean " + mean);
      long isolated = o.nodes() - degree.size();
      assertTrue(isolated > 0.05 * o.nodes(), "power-law graphs leave many nodes without edges: " + isolated);
    }
  }

  @Test
  void canExcludeSelfLoops() {
    long[] with = edges(RmatGenerator.builder().scale(6).edges(20_000).seed(2).build());
    long[] without = edges(RmatGenerator.builder().scale(6).edges(20_000).seed(2).selfLoops(false).build());
    assertTrue(countSelfLoops(with) > 100, "R-MAT makes self-loops on small graphs");
    assertEquals(0, countSelfLoops(without));
    assertEquals(with.length, without.length);
  }

  private static int countSelfLoops(long[] e) {
    int loops = 0;
    for (int i = 0; i < e.length; i += 2) {
      loops += e[i] == e[i + 1] ? 1 : 0;
    }
    return loops;
  }

  @Test
  void scrambledIdsAreUniqueSparseAndInvertible() {
    IdScrambler s = new IdScrambler(11);
    int n = 1 << 18;
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = s.scramble(i);
      assertTrue(ids[i] >= 0);
      assertEquals(i, s.unscramble(ids[i]));
    }
    long maxId = Arrays.stream(ids).max().orElseThrow();
    assertTrue(maxId > (1L << 60), "ids spread over int64, max " + maxId);
    Arrays.sort(ids);
    for (int i = 1; i < n; i++) {
      assertNotEquals(ids[i - 1], ids[i]);
    }
    long big = Long.MAX_VALUE - 5;
    assertEquals(big, s.unscramble(s.scramble(big)));
    assertNotEquals(new IdScrambler(12).scramble(0), s.scramble(0));
  }

  @Test
  void nodesCarryTheEdgeIdsAndRandomFeatures() {
    RmatGenerator g = new RmatGenerator(RmatGenerator.builder().nodes(100).edges(10).scrambleIds(true).build());
    long[] seen = new long[100];
    float[][] rows = new float[100][];
    int[] count = {0};
    g.generateNodes(0, 100, 4, (id, label, split, f) -> {
      assertEquals(-1, label);
      assertEquals("none", split);
      seen[count[0]] = id;
      rows[count[0]++] = f.clone();
    });
    assertEquals(100, count[0]);
    for (int i = 0; i < 100; i++) {
      assertEquals(g.nodeId(i), seen[i]);
      for (float v : rows[i]) {
        assertTrue(v >= 0 && v < 1);
      }
    }
    float[] again = new float[4];
    new RandomFeatures(4, g.options().seed()).fill(57, again);
    assertArrayEquals(rows[57], again);
    assertFalse(Arrays.equals(rows[56], rows[57]));
  }

  @Test
  void refusesInvalidOptions() {
    assertThrows(IllegalArgumentException.class, () -> RmatGenerator.builder().probabilities(0.7, 0.2, 0.2).build());
    assertThrows(IllegalArgumentException.class, () -> RmatGenerator.builder().noise(0.3).build());
    assertThrows(IllegalArgumentException.class, () -> RmatGenerator.builder().nodes(1).build());
    RmatGenerator g = new RmatGenerator(RmatGenerator.builder().scale(4).edges(10).build());
    assertThrows(IllegalArgumentException.class, () -> g.generateEdges(5, 11, (s, d) -> { }));
  }
}
