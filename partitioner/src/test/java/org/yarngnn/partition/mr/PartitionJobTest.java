package org.yarngnn.partition.mr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.partition.GraphBuildOptions;
import org.yarngnn.partition.GraphBuilder;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.LocalGraph;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionedGraphStats;
import org.yarngnn.partition.TestGraphs;
import org.yarngnn.partition.format.PartitionedGraph;

/** The real MapReduce job with Hadoop's local job runner, read back through {@link PartitionedGraph}. */
class PartitionJobTest {
  @TempDir
  java.nio.file.Path dir;

  private PartitionJobOptions.Builder job(Path edges, Path nodes, int parts) {
    return PartitionJobOptions.builder().edges(edges).nodes(nodes).partitions(parts).local(true)
        .output(new Path(dir.resolve("out-" + parts).toUri()));
  }

  private static Configuration conf() {
    Configuration c = new Configuration();
    c.set("mapreduce.cluster.local.dir", System.getProperty("java.io.tmpdir") + "/yarngnn-mr-local");
    return c;
  }

  @Test
  void sparseIdsRoundTripThroughPartitionedGraph() throws Exception {
    TestGraphs.Tables t = TestGraphs.random(dir, 500, 4000, 6, false, true, 3, TableFormat.PARQUET, 21);
    GraphBuildOptions o = GraphBuildOptions.builder().build();
    LocalGraph whole = GraphBuilder.build(t.edgeTable(), t.nodeTable(), o);
    for (int parts : new int[] {1, 3}) {
      PartitionedGraphStats stats = PartitionJob.run(conf(), job(t.edges(), t.nodes(), parts).build());
      assertEquals(4000, stats.edges());
      assertEquals(500, stats.nodes());
      PartitionedGraph g = PartitionedGraph.open(conf(), new Path(dir.resolve("out-" + parts).toUri()));
      assertEquals(Ownership.hash(parts), g.ownership());
      assertTrue(g.weighted());
      List<GraphPartition> inMemory = GraphBuilder.buildPartitions(t.edgeTable(), t.nodeTable(), parts, o);
      for (int p = 0; p < parts; p++) {
        assertSamePartition(inMemory.get(p), g.loadPartition(p));
        assertEquals(inMemory.get(p).stats(), g.stats().partitions().get(p));
      }
      LocalGraph joined = g.loadLocalGraph();
      java.util.Map<Long, Integer> rowOf = new java.util.HashMap<>();
      for (int i = 0; i < whole.block().numNodes(); i++) {
        rowOf.put(whole.block().nodeIds()[i], i);
      }
      for (int i = 0; i < joined.block().numNodes(); i++) {
        int w = rowOf.get(joined.block().nodeIds()[i]);
        assertArrayEquals(whole.features().row(w), joined.features().row(i));
        assertEquals(whole.labels()[w], joined.labels()[i]);
      }
      assertEquals(TestGraphs.inEdgesById(whole.block()).size(), TestGraphs.inEdgesById(joined.block()).size());
      TestGraphs.inEdgesById(whole.block()).forEach((id, edges) ->
          TestGraphs.assertSameEdges(edges, TestGraphs.inEdgesById(joined.block()).get(id), id));
    }
  }

  @Test
  void coraWithRanges() {
    Path edges = TestGraphs.cora("edges.tsv");
    Path nodes = TestGraphs.cora("nodes.tsv.gz");
    PartitionedGraphStats stats = PartitionJob.run(conf(), job(edges, nodes, 4).build());
    assertEquals(Ownership.ranges(4, 2708), stats.ownership());
    assertEquals(10556, stats.edges());
    assertTrue(stats.edgeBalance() < 1.5, stats.summary());
    PartitionedGraph g = PartitionedGraph.open(conf(), new Path(dir.resolve("out-4").toUri()));
    List<GraphPartition> inMemory = GraphBuilder.buildPartitions(
        org.yarngnn.io.table.EdgeTable.open(conf(), edges, org.yarngnn.io.table.TableReadOptions.defaults()),
        org.yarngnn.io.table.NodeTable.open(conf(), nodes, org.yarngnn.io.table.TableReadOptions.defaults()), 4,
        GraphBuildOptions.builder().build());
    for (int p = 0; p < 4; p++) {
      assertSamePartition(inMemory.get(p), g.loadPartition(p));
    }
  }

  @Test
  void corruptedFileIsRefusedByChecksum() throws Exception {
    TestGraphs.Tables t = TestGraphs.random(dir, 50, 200, 2, true, false, 1, TableFormat.TSV, 2);
    PartitionJob.run(conf(), job(t.edges(), t.nodes(), 2).build());
    java.nio.file.Path graph = dir.resolve("out-2/part-00001/graph.bin");
    byte[] b = Files.readAllBytes(graph);
    b[b.length - 1] ^= 1;
    Files.write(graph, b);
    Files.deleteIfExists(dir.resolve("out-2/part-00001/.graph.bin.crc"));
    PartitionedGraph g = PartitionedGraph.open(conf(), new Path(dir.resolve("out-2").toUri()));
    g.loadPartition(0);
    InputException e = assertThrows(InputException.class, () -> g.loadPartition(1));
    assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
  }

  @Test
  void badInputNamesTheRowAndWritesNothing() throws Exception {
    Path nodes = text("nodes.tsv", "1\t0.5\n2\t1.5\n3\t2.5\n");
    Path dangling = text("edges/a.tsv", "1\t2\n2\t3\n");
    text("edges/b.tsv", "3\t1\n# comment\n3\t8\n");
    assertRefused(job(dangling, nodes, 2), ".*edges/b\\.tsv:3: dst 8 has no row in the nodes table.*");

    Path dupNodes = text("dup.tsv", "1\t0.5\n2\t1.5\n1\t2.5\n");
    assertRefused(job(text("e2.tsv", "1\t2\n"), dupNodes, 3), ".*dup\\.tsv:3: duplicate node id 1");

    Path wide = text("wide.tsv", "1\t0.5\n2\t1.5,2\n");
    assertRefused(job(text("e3.tsv", "1\t2\n"), wide, 2), ".*wide\\.tsv:2: .*");
  }

  private void assertRefused(PartitionJobOptions.Builder b, String messageRegex) throws Exception {
    PartitionJobOptions o = b.build();
    InputException e = assertThrows(InputException.class, () -> PartitionJob.run(conf(), o));
    assertTrue(e.getMessage().matches(messageRegex), e.getMessage());
    java.nio.file.Path out = java.nio.file.Path.of(o.output().toUri());
    assertFalse(Files.exists(out), "nothing at the output path");
    try (Stream<java.nio.file.Path> s = Files.list(out.getParent())) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith("." + out.getFileName() + ".tmp")),
          "work directory removed");
    }
  }

  private static void assertSamePartition(GraphPartition a, GraphPartition b) {
    assertEquals(a.index(), b.index());
    assertEquals(a.ownership(), b.ownership());
    GraphBlock x = a.block();
    GraphBlock y = b.block();
    assertArrayEquals(x.nodeIds(), y.nodeIds());
    assertArrayEquals(x.haloIds(), y.haloIds());
    assertArrayEquals(x.inEdges().rowPtr(), y.inEdges().rowPtr());
    assertArrayEquals(java.util.Arrays.copyOf(x.inEdges().colIdx(), (int) x.inEdges().numEdges()),
        java.util.Arrays.copyOf(y.inEdges().colIdx(), (int) y.inEdges().numEdges()));
    if (x.inEdges().weighted()) {
      // Parallel edges with different weights may tie on source id; compare weights per (row, source).
      for (int r = 0; r < x.numNodes(); r++) {
        float sx = 0;
        float sy = 0;
        for (int e = x.inEdges().rowPtr()[r]; e < x.inEdges().rowPtr()[r + 1]; e++) {
          sx += x.inEdges().weights()[e] * (1 + x.inEdges().colIdx()[e]);
          sy += y.inEdges().weights()[e] * (1 + y.inEdges().colIdx()[e]);
        }
        assertEquals(sx, sy, 1e-3 * Math.abs(sx), "weights of row " + r);
      }
    }
    assertArrayEquals(a.features().data(), b.features().data());
    assertArrayEquals(a.labels(), b.labels());
    assertArrayEquals(a.splits(), b.splits());
  }

  private Path text(String name, String body) throws Exception {
    java.nio.file.Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, body);
    return new Path((name.contains("/") ? p.getParent() : p).toUri());
  }
}
