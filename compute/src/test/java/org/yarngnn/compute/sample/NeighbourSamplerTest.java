package org.yarngnn.compute.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.SparseTestGraphs;
import org.yarngnn.compute.kernel.SparseTestGraphs.Edge;

class NeighbourSamplerTest {
  @Test
  void positionsMatchTheDocumentedPythonAlgorithm() {
    // Printed by the Python snippet of the class javadoc.
    assertArrayEquals(new int[] {1, 4, 12, 16, 17}, NeighbourSampler.positions(7, 0, 12345, 20, 5));
    assertArrayEquals(new int[] {0, 10, 13, 19, 24, 26, 36, 39, 41, 42},
        NeighbourSampler.positions(-3, 2, -987654321012L, 50, 10));
    assertArrayEquals(new int[] {4, 6, 7}, NeighbourSampler.positions(0, 1, 0, 10, 3));
    int[] big = NeighbourSampler.positions((1L << 40) + 1, 0, 1L << 62, 300, 70); // the bitmap path
    assertEquals(70, big.length);
    assertArrayEquals(new int[] {2, 3, 4, 8, 15}, Arrays.copyOf(big, 5));
    assertArrayEquals(new int[] {283, 287, 289, 291, 298}, Arrays.copyOfRange(big, 65, 70));
    assertArrayEquals(new int[] {0, 1, 2}, NeighbourSampler.positions(1, 0, 5, 3, 3));
  }

  @Test
  void floydMatchesAHashSetReferenceOnBothMembershipPaths() {
    SplittableRandom r = new SplittableRandom(51);
    for (int trial = 0; trial < 300; trial++) {
      int d = 1 + r.nextInt(400);
      int k = r.nextInt(d + 1);
      long seed = r.nextLong();
      long id = r.nextLong();
      int layer = r.nextInt(4);
      long state = NeighbourSampler.rowSeed(seed, layer, id);
      Set<Integer> chosen = new HashSet<>();
      if (k < d) {
        for (int j = d - k; j < d; j++) {
          state += 0x9E3779B97F4A7C15L;
          int t = (int) Long.remainderUnsigned(NeighbourSampler.mix64(state), j + 1);
          chosen.add(chosen.contains(t) ? j : t);
        }
      } else {
        for (int p = 0; p < d; p++) {
          chosen.add(p);
        }
      }
      int[] expected = chosen.stream().mapToInt(Integer::intValue).sorted().toArray();
      assertArrayEquals(expected, NeighbourSampler.positions(seed, layer, id, d, k), "d " + d + " k " + k);
    }
  }

  @Test
  void keepsMinOfFanoutAndDegreeInOriginalOrderWithWeights() {
    SplittableRandom r = new SplittableRandom(52);
    GraphBlock g = dense(r, 400, 30, true);
    for (int fanout : new int[] {0, 1, 5, 70}) {
      GraphBlock s = NeighbourSampler.sample(g, fanout, 99, 1);
      assertSame(g.nodeIds(), s.nodeIds());
      assertSame(g.haloIds(), s.haloIds());
      Csr a = g.inEdges();
      Csr b = s.inEdges();
      for (int i = 0; i < g.numNodes(); i++) {
        assertEquals(Math.min(fanout, a.degree(i)), b.degree(i), "row " + i);
        int[] pos = NeighbourSampler.positions(99, 1, g.nodeIds()[i], a.degree(i), fanout);
        for (int k = 0; k < pos.length; k++) {
          int src = a.rowPtr()[i] + pos[k];
          int dst = b.rowPtr()[i] + k;
          assertEquals(a.colIdx()[src], b.colIdx()[dst]);
          assertEquals(a.weights()[src], b.weights()[dst]);
        }
      }
    }
    assertSame(g, NeighbourSampler.sample(g, -1, 99, 1));
    assertThrows(IllegalArgumentException.class, () -> NeighbourSampler.sample(g, -2, 99, 1));
  }

  @Test
  void deterministicAndIndependentOfThreadCount() throws Exception {
    SplittableRandom r = new SplittableRandom(53);
    GraphBlock g = dense(r, 5000, 40, false);
    GraphBlock a = NeighbourSampler.sample(g, 7, 5, 0);
    GraphBlock b = NeighbourSampler.sample(g, 7, 5, 0);
    assertArrayEquals(a.inEdges().rowPtr(), b.inEdges().rowPtr());
    assertArrayEquals(a.inEdges().colIdx(), b.inEdges().colIdx());
    // From inside a one-thread pool RowRanges' tasks run on that thread: a different schedule, same result.
    ForkJoinPool one = new ForkJoinPool(1);
    try {
      GraphBlock c = one.submit(() -> NeighbourSampler.sample(g, 7, 5, 0)).get();
      assertArrayEquals(a.inEdges().colIdx(), c.inEdges().colIdx());
    } finally {
      one.shutdown();
    }
    GraphBlock otherLayer = NeighbourSampler.sample(g, 7, 5, 1);
    GraphBlock otherSeed = NeighbourSampler.sample(g, 7, 6, 0);
    assertNotEquals(Arrays.toString(a.inEdges().colIdx()), Arrays.toString(otherLayer.inEdges().colIdx()));
    assertNotEquals(Arrays.toString(a.inEdges().colIdx()), Arrays.toString(otherSeed.inEdges().colIdx()));
  }

  @Test
  void aNodeKeepsItsSampleWhenTheRestOfTheGraphChanges() {
    SplittableRandom r = new SplittableRandom(54);
    long[] ids = SparseTestGraphs.distinctIds(r, 60);
    long target = ids[0];
    long[] sources = Arrays.copyOfRange(ids, 1, 31);
    // Graph 1: every node local; target is row 0, and other rows have random in-edges.
    List<Edge> e1 = new ArrayList<>();
    for (int s = 1; s <= 30; s++) {
      e1.add(new Edge(s, 0, 1f));
    }
    for (int k = 0; k < 200; k++) {
      e1.add(new Edge(r.nextInt(60), 1 + r.nextInt(59), 1f));
    }
    GraphBlock g1 = SparseTestGraphs.build(ids, new long[0], e1, false);
    // Graph 2: target is local row 3 of a small block, its sources are halo slots in another order.
    long[] local2 = {ids[40], ids[41], ids[42], target};
    long[] halo2 = sources.clone();
    for (int i = halo2.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      long t = halo2[i];
      halo2[i] = halo2[j];
      halo2[j] = t;
    }
    List<Edge> e2 = new ArrayList<>();
    for (int s = 0; s < halo2.length; s++) {
      e2.add(new Edge(4 + s, 3, 1f));
      e2.add(new Edge(4 + s, s % 3, 1f));
    }
    GraphBlock g2 = SparseTestGraphs.build(local2, halo2, e2, false);
    assertEquals(sampledSourceIds(NeighbourSampler.sample(g1, 6, 77, 2), 0),
        sampledSourceIds(NeighbourSampler.sample(g2, 6, 77, 2), 3));
  }

  @Test
  void everyPositionIsAboutEquallyLikely() {
    int d = 20;
    int k = 5;
    int[] hits = new int[d];
    int trials = 20000;
    for (long id = 0; id < trials; id++) {
      for (int p : NeighbourSampler.positions(3, 0, id, d, k)) {
        hits[p]++;
      }
    }
    double expected = (double) trials * k / d;
    for (int p = 0; p < d; p++) {
      assertTrue(Math.abs(hits[p] - expected) < 0.05 * expected, "position " + p + ": " + hits[p]);
    }
  }

  private static List<Long> sampledSourceIds(GraphBlock g, int row) {
    List<Long> out = new ArrayList<>();
    Csr c = g.inEdges();
    for (int e = c.rowPtr()[row]; e < c.rowPtr()[row + 1]; e++) {
      out.add(g.slotId(c.colIdx()[e]));
    }
    assertEquals(6, out.size());
    return out;
  }

  /** Rows with degrees from 0 to about 2*avg, parallel edges and self-loops included. */
  private static GraphBlock dense(SplittableRandom r, int nodes, int avg, boolean weighted) {
    return SparseTestGraphs.random(r, nodes, 10, nodes * avg, weighted);
  }
}
