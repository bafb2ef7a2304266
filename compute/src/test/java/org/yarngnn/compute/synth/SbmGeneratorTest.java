package org.yarngnn.compute.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SbmGeneratorTest {
  private static final int N = 3000;
  private static final int CLASSES = 5;

  private static SbmGenerator.Builder base() {
    return SbmGenerator.builder().nodes(N).classes(CLASSES).averageDegree(10, 0.8).seed(4);
  }

  record Node(long id, int label, String split, float[] features) {}

  private static List<Node> nodes(SbmGenerator g) {
    List<Node> out = new ArrayList<>();
    g.generateNodes((id, label, split, f) -> out.add(new Node(id, label, split, f.clone())));
    return out;
  }

  private static long[] edges(SbmGenerator g) {
    RmatGeneratorTest.EdgeList list = new RmatGeneratorTest.EdgeList();
    g.generateEdges(list);
    return list.toArray();
  }

  @Test
  void edgesMatchTheRequestedDegreeAndHomophily() {
    SbmGenerator g = new SbmGenerator(base().build());
    long[] e = edges(g);
    int m = e.length / 2;
    assertEquals(N * 10 / 2, m, N * 10 / 2 * 0.05);
    int within = 0;
    Set<Long> pairs = new HashSet<>();
    for (int i = 0; i < e.length; i += 2) {
      assertTrue(e[i] < e[i + 1], "each pair once, as (u, v) with u < v");
      assertTrue(pairs.add(e[i] * N + e[i + 1]), "no parallel edges");
      within += g.classOf(e[i]) == g.classOf(e[i + 1]) ? 1 : 0;
    }
    assertEquals(0.8, (double) within / m, 0.03);
  }

  @Test
  void nodesHaveCountsLabelsAndSplits() {
    List<Node> nodes = nodes(new SbmGenerator(base().build()));
    assertEquals(N, nodes.size());
    Map<String, Integer> splits = new TreeMap<>();
    int[] perClass = new int[CLASSES];
    for (int i = 0; i < N; i++) {
      Node n = nodes.get(i);
      assertEquals(i, n.id());
      assertEquals(i % CLASSES, n.label());
      perClass[n.label()]++;
      splits.merge(n.split(), 1, Integer::sum);
      assertEquals(32, n.features().length);
    }
    assertArrayEquals(new int[] {600, 600, 600, 600, 600}, perClass);
    assertEquals(0.6, splits.get("train") / (double) N, 0.03);
    assertEquals(0.2, splits.get("val") / (double) N, 0.03);
    assertEquals(0.2, splits.get("test") / (double) N, 0.03);
    assertFalse(splits.containsKey("none"));
  }

  @Test
  void featuresPredictLabelsWellAboveChance() {
    List<Node> nodes = nodes(new SbmGenerator(base().build()));
    int width = nodes.get(0).features().length;
    double[][] centroid = new double[CLASSES][width];
    int[] count = new int[CLASSES];
    for (Node n : nodes) {
      if (n.split().equals("train")) {
        count[n.label()]++;
        for (int j = 0; j < width; j++) {
          centroid[n.label()][j] += n.features()[j];
        }
      }
    }
    int correct = 0;
    int total = 0;
    for (Node n : nodes) {
      if (!n.split().equals("test")) {
        continue;
      }
      int best = -1;
      double bestDistance = Double.MAX_VALUE;
      for (int c = 0; c < CLASSES; c++) {
        double d = 0;
        for (int j = 0; j < width; j++) {
          double diff = n.features()[j] - centroid[c][j] / count[c];
          d += diff * diff;
        }
        if (d < bestDistance) {
          bestDistance = d;
          best = c;
        }
      }
      correct += best == n.label() ? 1 : 0;
      total++;
    }
    double accuracy = (double) correct / total;
    assertTrue(accuracy > 2.5 / CLASSES && accuracy < 0.98, "nearest-centroid accuracy " + accuracy);
  }

  @Test
  void isReproducibleAndChunkable() {
    SbmGenerator g = new SbmGenerator(base().scrambleIds(true).build());
    long[] whole = edges(g);
    assertArrayEquals(whole, edges(new SbmGenerator(base().scrambleIds(true).build())));
    assertFalse(Arrays.equals(whole, edges(new SbmGenerator(base().seed(5).build()))));

    RmatGeneratorTest.EdgeList chunked = new RmatGeneratorTest.EdgeList();
    int chunks = 4;
    long previous = 0;
    for (int c = 0; c < chunks; c++) {
      long from = g.rowChunkStart(c, chunks);
      long to = g.rowChunkStart(c + 1, chunks);
      assertEquals(previous, from);
      previous = to;
      g.generateEdges(from, to, chunked);
    }
    assertEquals(N, previous);
    assertArrayEquals(whole, chunked.toArray());

    List<Node> a = nodes(g);
    List<Node> b = nodes(new SbmGenerator(base().scrambleIds(true).build()));
    for (int i = 0; i < N; i += 97) {
      assertEquals(a.get(i).id(), b.get(i).id());
      assertEquals(g.nodeId(i), a.get(i).id());
      assertArrayEquals(a.get(i).features(), b.get(i).features());
    }
  }

  @Test
  void canEmitBothDirectionsAndExplicitProbabilities() {
    SbmGenerator cliques = new SbmGenerator(SbmGenerator.builder().nodes(10).classes(3).probabilities(1, 0)
        .bothDirections(true).build());
    long[] e = edges(cliques);
    // Classes of 4, 3 and 3 nodes: 6 + 3 + 3 pairs, each both ways.
    assertEquals(2 * 2 * 12, e.length);
    Set<Long> directed = new HashSet<>();
    for (int i = 0; i < e.length; i += 2) {
      assertEquals(cliques.classOf(e[i]), cliques.classOf(e[i + 1]));
      directed.add(e[i] * 10 + e[i + 1]);
    }
    for (int i = 0; i < e.length; i += 2) {
      assertTrue(directed.contains(e[i + 1] * 10 + e[i]), "reverse of " + e[i] + "->" + e[i + 1]);
    }
  }

  @Test
  void refusesImpossibleOptions() {
    assertThrows(IllegalArgumentException.class,
        () -> new SbmGenerator(SbmGenerator.builder().nodes(100).classes(50).averageDegree(50, 0.9).build()));
    assertThrows(IllegalArgumentException.class, () -> SbmGenerator.builder().splits(0.8, 0.2, 0.2).build());
    assertThrows(IllegalArgumentException.class, () -> SbmGenerator.builder().probabilities(1.5, 0).build());
    assertThrows(IllegalArgumentException.class, () -> SbmGenerator.builder().nodes(3).classes(4).build());
  }
}
