package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;

class PartitionBlockBuilderTest {
  @Test
  void haloSlotsAndRowOrderById() {
    long[] nodes = {30, 10, 20};
    // Edges into local rows; sources 99 and 5 are remote.
    int[] dst = {0, 0, 0, 0, 1, 2, 2};
    long[] src = {99, 20, 5, 10, 30, 99, 99};
    GraphBlock b = PartitionBlockBuilder.build(nodes, dst, src, null, dst.length);
    assertArrayEquals(new long[] {5, 99}, b.haloIds());
    Csr csr = b.inEdges();
    assertArrayEquals(new int[] {0, 4, 5, 7}, csr.rowPtr());
    // Row of 30: sources 5, 10, 20, 99 -> slots 3 (halo 5), 1, 2, 4 (halo 99).
    assertArrayEquals(new int[] {3, 1, 2, 4, 0, 4, 4}, csr.colIdx());
    assertNull(csr.weights());
    assertEquals(5, b.numSlots());
  }

  @Test
  void weightsFollowTheirEdges() {
    long[] nodes = {7, 3};
    int[] dst = {0, 0, 1};
    long[] src = {100, 3, 7};
    float[] w = {2f, 3f, 4f};
    GraphBlock b = PartitionBlockBuilder.build(nodes, dst, src, w, 3);
    assertArrayEquals(new float[] {3f, 2f, 4f}, b.inEdges().weights());
    assertArrayEquals(new int[] {1, 2, 0}, b.inEdges().colIdx());
  }

  @Test
  void randomBlocksMatchASortedReference() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int round = 0; round < 20; round++) {
      int n = 1 + rnd.nextInt(50);
      long[] nodes = new long[n];
      for (int i = 0; i < n; i++) {
        nodes[i] = rnd.nextLong() >> rnd.nextInt(60);
      }
      nodes = java.util.Arrays.stream(nodes).distinct().toArray();
      n = nodes.length;
      int m = rnd.nextInt(400);
      int[] dst = new int[m];
      long[] src = new long[m];
      float[] w = new float[m];
      for (int e = 0; e < m; e++) {
        dst[e] = rnd.nextInt(n);
        src[e] = rnd.nextBoolean() ? nodes[rnd.nextInt(n)] : rnd.nextLong() >> rnd.nextInt(60);
        w[e] = e;
      }
      assertMatchesReference(nodes, dst, src, w, m);
    }
  }

  /** Ids from a narrow range (range ownership): remote sources found through the bitmap path. */
  @Test
  void denseIdRangesMatchASortedReference() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 6; round++) {
      long base = round % 2 == 0 ? 0 : 5_000_000_000L - 77;
      int span = 100 + rnd.nextInt(5000);
      int n = 1 + rnd.nextInt(span / 2);
      long first = base + rnd.nextInt(span - n + 1);
      long[] nodes = new long[n];
      for (int i = 0; i < n; i++) {
        nodes[i] = first + i;
      }
      if (round == 5) {
        // Not in id order: local order is the caller's.
        for (int i = 0; i < n / 2; i++) {
          long t = nodes[i];
          nodes[i] = nodes[n - 1 - i];
          nodes[n - 1 - i] = t;
        }
      }
      int m = round < 3 ? rnd.nextInt(3000) : 150_000 + rnd.nextInt(100_000);
      int[] dst = new int[m];
      long[] src = new long[m];
      float[] w = new float[m];
      for (int e = 0; e < m; e++) {
        dst[e] = rnd.nextInt(n);
        src[e] = base + rnd.nextInt(span);
        w[e] = e;
      }
      assertMatchesReference(nodes, dst, src, w, m);
    }
  }

  /**
   * Sources held as int ids, consumed: the same block as from long ids, for a lone partition of ids 0..n-1 (each id
   * its own key and column), a range partition with a halo (the bitmap over ints, keys in place) and sources too
   * sparse for a bitmap (widened to longs).
   */
  @Test
  void intSourcesGiveTheSameBlockAsLongOnes() {
    SplittableRandom rnd = new SplittableRandom(5);
    for (int round = 0; round < 9; round++) {
      int kind = round % 3;
      int total = kind == 2 ? 50_000_000 : 2000 + rnd.nextInt(3000);
      int n = kind == 0 ? total : 1 + rnd.nextInt(1500);
      long first = kind == 0 ? 0 : rnd.nextInt(total - n + 1);
      long[] nodes = new long[n];
      for (int i = 0; i < n; i++) {
        nodes[i] = first + i;
      }
      int m = rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(kind == 2 ? 200 : 60_000);
      int[] dst = new int[m];
      int[] src32 = new int[m + rnd.nextInt(3)];
      long[] src = new long[m];
      float[] w = round % 2 == 0 ? null : new float[m];
      for (int e = 0; e < m; e++) {
        dst[e] = rnd.nextInt(n);
        src32[e] = kind == 0 || rnd.nextBoolean() ? (int) first + rnd.nextInt(n) : rnd.nextInt(total);
        src[e] = src32[e];
        if (w != null) {
          w[e] = e % 5;
        }
      }
      GraphBlock expected = PartitionBlockBuilder.build(nodes, dst, src, w, m);
      GraphBlock actual = PartitionBlockBuilder.buildConsuming(nodes, PartitionBlockBuilder.indexOf(nodes), dst,
          src32, w, m);
      String where = "round " + round + ", " + m + " edges";
      assertArrayEquals(expected.haloIds(), actual.haloIds(), where);
      assertArrayEquals(expected.inEdges().rowPtr(), actual.inEdges().rowPtr(), where);
      assertArrayEquals(expected.inEdges().colIdx(),
          java.util.Arrays.copyOf(actual.inEdges().colIdx(), m), where);
      if (w != null) {
        assertArrayEquals(expected.inEdges().weights(), actual.inEdges().weights(), where);
      }
    }
  }

  private static void assertMatchesReference(long[] nodes, int[] dst, long[] src, float[] w, int m) {
    int n = nodes.length;
    GraphBlock b = PartitionBlockBuilder.build(nodes, dst, src, w, m);
    Csr csr = b.inEdges();
    java.util.Map<Integer, List<long[]>> byRow = new java.util.HashMap<>();
    for (int e = 0; e < m; e++) {
      byRow.computeIfAbsent(dst[e], k -> new ArrayList<>()).add(new long[] {src[e], e});
    }
    for (int r = 0; r < n; r++) {
      List<long[]> expected = byRow.getOrDefault(r, new ArrayList<>());
      // Stable by id: parallel edges keep their input order.
      expected.sort(Comparator.comparingLong(x -> x[0]));
      assertEquals(expected.size(), csr.degree(r));
      for (int k = 0; k < expected.size(); k++) {
        int e = csr.rowPtr()[r] + k;
        assertEquals(expected.get(k)[0], b.slotId(csr.colIdx()[e]));
        assertEquals((float) expected.get(k)[1], csr.weights()[e]);
      }
    }
    long[] halo = b.haloIds();
    java.util.Set<Long> local = new java.util.HashSet<>();
    for (long id : nodes) {
      local.add(id);
    }
    long remote = java.util.Arrays.stream(src, 0, m).filter(id -> !local.contains(id)).distinct().count();
    assertEquals(remote, halo.length, "halo = distinct remote sources");
    for (int j = 1; j < halo.length; j++) {
      assertEquals(true, halo[j - 1] < halo[j]);
    }
  }

  @Test
  void finishedCsrMemoryPerEdge() {
    int n = 1000;
    int m = 20_000;
    long[] nodes = new long[n];
    for (int i = 0; i < n; i++) {
      nodes[i] = i * 7L;
    }
    int[] dst = new int[m];
    long[] src = new long[m];
    SplittableRandom rnd = new SplittableRandom(1);
    for (int e = 0; e < m; e++) {
      dst[e] = rnd.nextInt(n);
      src[e] = rnd.nextInt(2 * n) * 7L;
    }
    GraphBlock b = PartitionBlockBuilder.build(nodes, dst, src, null, m);
    double perEdge = (double) b.inEdges().sizeInBytes() / m;
    // int32 rowPtr amortised over the edges plus one int32 column per edge.
    assertEquals(4 + 4.0 * (n + 1) / m, perEdge, 1e-9);
    GraphBlock weighted = PartitionBlockBuilder.build(nodes, dst, src, new float[m], m);
    assertEquals(8 + 4.0 * (n + 1) / m, (double) weighted.inEdges().sizeInBytes() / m, 1e-9);
  }
}
