package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.EdgeTableWriter;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.NodeTableWriter;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.io.table.TableReadOptions;

/** Test helper: random graphs written as real tables, and comparisons of built graphs by node id. */
public final class TestGraphs {
  static final Configuration CONF = new Configuration();

  private TestGraphs() {}

  /** Tables of a random graph in {@code dir}: nodes in one file, edges split over {@code edgeFiles} files. */
  public record Tables(Path nodes, Path edges, long[] ids, int width) {
    public EdgeTable edgeTable() {
      return EdgeTable.open(CONF, edges, TableReadOptions.defaults());
    }

    public NodeTable nodeTable() {
      return NodeTable.open(CONF, nodes, TableReadOptions.defaults());
    }
  }

  static java.nio.file.Path sharedDir() {
    String dir = System.getProperty("yarngnn.shared.dir", "../shared");
    return java.nio.file.Path.of(dir);
  }

  public static Path cora(String file) {
    return new Path(sharedDir().resolve("data/planetoid/cora").resolve(file).toUri());
  }

  /**
   * A random graph: {@code n} nodes with sparse int64 ids (or 0..n-1 shuffled when {@code dense}), {@code m}
   * edges (parallel edges and self-loops included), labels and splits, optional weights.
   */
  public static Tables random(java.nio.file.Path dir, int n, int m, int width, boolean dense, boolean weighted,
      int edgeFiles, TableFormat format, long seed) throws Exception {
    SplittableRandom rnd = new SplittableRandom(seed);
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = dense ? i : (rnd.nextLong() & 0x0fff_ffff_ffffL) * 1000 + i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      long t = ids[i];
      ids[i] = ids[j];
      ids[j] = t;
    }
    Files.createDirectories(dir.resolve("edges"));
    String ext = "." + format.extension();
    Path nodes = new Path(dir.resolve("nodes" + ext).toUri());
    try (NodeTableWriter w = NodeTableWriter.create(CONF, nodes, format, width, true)) {
      float[] f = new float[width];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < width; j++) {
          f[j] = (float) rnd.nextDouble();
        }
        w.write(ids[i], f, 0, rnd.nextInt(5) - 1, (byte) rnd.nextInt(4));
      }
    }
    Path edges = new Path(dir.resolve("edges").toUri());
    for (int f = 0; f < edgeFiles; f++) {
      try (EdgeTableWriter w = EdgeTableWriter.create(CONF,
          new Path(dir.resolve("edges/part-" + f + ext).toUri()), format, weighted)) {
        for (int e = f; e < m; e += edgeFiles) {
          // Skewed sources so some nodes have many out-edges (hubs) as in real graphs.
          int s = (int) (Math.pow(rnd.nextDouble(), 2) * n);
          int d = rnd.nextInt(n);
          w.write(ids[s], ids[d], weighted ? (float) (1 + rnd.nextInt(4)) : 1f);
        }
      }
    }
    return new Tables(nodes, edges, ids, width);
  }

  /** Per node id: its in-edges as (source id, weight) pairs in CSR order. */
  public static Map<Long, List<long[]>> inEdgesById(GraphBlock block) {
    Map<Long, List<long[]>> out = new HashMap<>();
    Csr csr = block.inEdges();
    for (int r = 0; r < block.numNodes(); r++) {
      List<long[]> list = new ArrayList<>();
      for (int e = csr.rowPtr()[r]; e < csr.rowPtr()[r + 1]; e++) {
        list.add(new long[] {block.slotId(csr.colIdx()[e]), Float.floatToIntBits(csr.weight(e))});
      }
      out.put(block.nodeIds()[r], list);
    }
    return out;
  }

  public static void assertSameEdges(List<long[]> expected, List<long[]> actual, long node) {
    assertEquals(expected.size(), actual.size(), "in-degree of " + node);
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), "in-edge " + i + " of " + node);
    }
  }

  /** Rows of every node's id ordered by source id, weights compared as a multiset per (node, source). */
  static void assertRowsOrderedById(GraphBlock block) {
    Csr csr = block.inEdges();
    for (int r = 0; r < block.numNodes(); r++) {
      for (int e = csr.rowPtr()[r] + 1; e < csr.rowPtr()[r + 1]; e++) {
        assertTrue(block.slotId(csr.colIdx()[e - 1]) <= block.slotId(csr.colIdx()[e]),
            "row of " + block.nodeIds()[r] + " not ordered by source id");
      }
    }
  }

  /** Partitions together equal the single build: same nodes, rows, features, labels, splits; correct halos. */
  static void assertPartitionsEqual(LocalGraph whole, List<GraphPartition> parts) {
    Map<Long, List<long[]>> expected = inEdgesById(whole.block());
    Map<Long, Integer> rowOf = new HashMap<>();
    long[] wholeIds = whole.block().nodeIds();
    for (int i = 0; i < wholeIds.length; i++) {
      rowOf.put(wholeIds[i], i);
    }
    int seen = 0;
    for (GraphPartition p : parts) {
      GraphBlock b = p.block();
      assertRowsOrderedById(b);
      Map<Long, List<long[]>> actual = inEdgesById(b);
      java.util.Set<Long> local = new java.util.HashSet<>();
      for (long id : b.nodeIds()) {
        local.add(id);
        assertEquals(p.index(), p.ownership().owner(id), "owner of " + id);
      }
      java.util.TreeSet<Long> halo = new java.util.TreeSet<>();
      for (long id : b.nodeIds()) {
        assertSameEdges(expected.get(id), actual.get(id), id);
        for (long[] e : actual.get(id)) {
          if (!local.contains(e[0])) {
            halo.add(e[0]);
          }
        }
      }
      long[] haloExpected = halo.stream().mapToLong(Long::longValue).toArray();
      assertArrayEquals(haloExpected, b.haloIds(), "halo of partition " + p.index());
      assertEquals(haloExpected.length, p.stats().haloNodes());
      DenseMatrix f = p.features();
      for (int i = 0; i < b.numNodes(); i++) {
        int w = rowOf.get(b.nodeIds()[i]);
        assertArrayEquals(whole.features().row(w), f.row(i), "features of " + b.nodeIds()[i]);
        if (whole.labels() != null) {
          assertEquals(whole.labels()[w], p.labels()[i]);
          assertEquals(whole.splits()[w], p.splits()[i]);
        }
        if (i > 0) {
          assertTrue(b.nodeIds()[i - 1] < b.nodeIds()[i], "local nodes in ascending id order");
        }
      }
      seen += b.numNodes();
    }
    assertEquals(wholeIds.length, seen, "every node in exactly one partition");
  }
}
