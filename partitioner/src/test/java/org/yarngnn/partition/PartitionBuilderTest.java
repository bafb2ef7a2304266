package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.io.table.TableReadOptions;

/** The in-memory P-partition build equals the single-partition build. */
class PartitionBuilderTest {
  @TempDir
  java.nio.file.Path dir;

  private static GraphBuildOptions opts(boolean undirected) {
    return GraphBuildOptions.builder().undirected(undirected).threads(2).build();
  }

  @Test
  void sparseIdsAnyPartitionCount() throws Exception {
    TestGraphs.Tables t = TestGraphs.random(dir, 400, 3000, 5, false, false, 3, TableFormat.PARQUET, 11);
    LocalGraph whole = GraphBuilder.build(t.edgeTable(), t.nodeTable(), opts(false));
    for (int parts = 1; parts <= 4; parts++) {
      PartitionBuilder.Result r = PartitionBuilder.build(t.edgeTable(), t.nodeTable(), parts, opts(false));
      assertEquals("hash:" + parts, r.stats().ownership().toString());
      TestGraphs.assertPartitionsEqual(whole, r.partitions());
      assertEquals(3000, r.stats().edges());
      assertTrue(r.stats().edgeBalance() >= 1 && r.stats().edgeBalance() < 1.5, r.stats().summary());
    }
  }

  @Test
  void denseIdsGetRangesAndWeightsSurvive() throws Exception {
    TestGraphs.Tables t = TestGraphs.random(dir, 300, 2500, 3, true, true, 2, TableFormat.TSV, 5);
    LocalGraph whole = GraphBuilder.build(t.edgeTable(), t.nodeTable(), opts(true));
    for (int parts = 1; parts <= 4; parts++) {
      List<GraphPartition> ps = GraphBuilder.buildPartitions(t.edgeTable(), t.nodeTable(), parts, opts(true));
      assertEquals(Ownership.ranges(parts, 300), ps.get(0).ownership());
      TestGraphs.assertPartitionsEqual(whole, ps);
      for (GraphPartition p : ps) {
        assertTrue(p.block().inEdges().weighted());
        // Finished CSR: int32 column + float32 weight per edge, int32 row pointers.
        assertTrue(p.stats().bytesPerEdge() <= 12, "bytes/edge " + p.stats().bytesPerEdge());
      }
    }
  }

  @Test
  void parallelReadersBuildTheSameGraphAsOne() throws Exception {
    // Four files read on two threads land in the shared buffer in timing-dependent order; the CSR may not care.
    TestGraphs.Tables t = TestGraphs.random(dir, 500, 30_000, 2, false, true, 4, TableFormat.PARQUET, 21);
    LocalGraph serial = GraphBuilder.build(t.edgeTable(), t.nodeTable(),
        GraphBuildOptions.builder().threads(1).build());
    for (int run = 0; run < 3; run++) {
      LocalGraph parallel = GraphBuilder.build(t.edgeTable(), t.nodeTable(), opts(false));
      assertArrayEquals(serial.block().inEdges().rowPtr(), parallel.block().inEdges().rowPtr());
      assertArrayEquals(serial.block().inEdges().colIdx(), parallel.block().inEdges().colIdx());
      assertArrayEquals(serial.block().inEdges().weights(), parallel.block().inEdges().weights());
    }
    TestGraphs.assertRowsOrderedById(serial.block());
  }

  @Test
  void unweightedCsrStaysUnderTwelveBytesPerEdge() throws Exception {
    TestGraphs.Tables t = TestGraphs.random(dir, 1000, 20_000, 2, true, false, 1, TableFormat.PARQUET, 3);
    PartitionBuilder.Result r = PartitionBuilder.build(t.edgeTable(), t.nodeTable(), 2, opts(false));
    assertEquals(4 + 4.0 * (1000 + 2) / 20_000, r.stats().bytesPerEdge(), 1e-9);
    assertTrue(r.partitions().get(0).block().inEdges().weights() == null);
  }

  @Test
  void cora() {
    EdgeTable edges = EdgeTable.open(TestGraphs.CONF, TestGraphs.cora("edges.tsv"), TableReadOptions.defaults());
    NodeTable nodes = NodeTable.open(TestGraphs.CONF, TestGraphs.cora("nodes.tsv.gz"), TableReadOptions.defaults());
    LocalGraph whole = GraphBuilder.build(edges, nodes, opts(false));
    assertEquals(10556, whole.block().inEdges().numEdges());
    for (int parts = 1; parts <= 4; parts++) {
      PartitionBuilder.Result r = PartitionBuilder.build(edges, nodes, parts, opts(false));
      TestGraphs.assertPartitionsEqual(whole, r.partitions());
      long halo = r.stats().partitions().stream().mapToLong(PartitionStats::haloNodes).sum();
      assertEquals(parts == 1, halo == 0, "halo " + halo);
    }
  }

  @Test
  void missingFeaturesZeroAddsEndpointsToTheirOwners() throws Exception {
    Path nodes = text("nodes.tsv", "1\t0.5\n2\t1.5\n");
    Path edges = text("edges.tsv", "1\t2\n7\t1\n2\t9\n");
    GraphBuildOptions o = GraphBuildOptions.builder().missingFeatures(MissingFeatures.ZERO).build();
    LocalGraph whole = GraphBuilder.build(edgeTable(edges), nodeTable(nodes), o);
    assertEquals(4, whole.block().numNodes());
    for (int parts = 1; parts <= 3; parts++) {
      TestGraphs.assertPartitionsEqual(whole,
          GraphBuilder.buildPartitions(edgeTable(edges), nodeTable(nodes), parts, o));
    }
  }

  @Test
  void danglingEndpointNamesTheRow() throws Exception {
    Path nodes = text("nodes.tsv", "1\t0.5\n2\t1.5\n");
    Path edges = text("edges/a.tsv", "1\t2\n");
    text("edges/b.tsv", "2\t1\n# comment\n2\t5\n5\t1\n");
    InputException e = assertThrows(InputException.class,
        () -> GraphBuilder.buildPartitions(edgeTable(edges), nodeTable(nodes), 2, opts(false)));
    assertTrue(e.getMessage().matches(".*b\\.tsv:3: dst 5 has no row in the nodes table.*"), e.getMessage());
  }

  @Test
  void duplicateIdNamesTheSecondRow() throws Exception {
    Path nodes = text("nodes.tsv", "1\t0.5\n2\t1.5\n1\t2.5\n");
    Path edges = text("edges.tsv", "1\t2\n");
    InputException e = assertThrows(InputException.class,
        () -> GraphBuilder.buildPartitions(edgeTable(edges), nodeTable(nodes), 3, opts(false)));
    assertTrue(e.getMessage().matches(".*nodes\\.tsv:3: duplicate node id 1"), e.getMessage());
  }

  private Path text(String name, String body) throws Exception {
    java.nio.file.Path p = dir.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, body);
    return new Path((name.contains("/") ? p.getParent() : p).toUri());
  }

  private static EdgeTable edgeTable(Path p) {
    return EdgeTable.open(TestGraphs.CONF, p, TableReadOptions.defaults());
  }

  private static NodeTable nodeTable(Path p) {
    return NodeTable.open(TestGraphs.CONF, p, TableReadOptions.defaults());
  }
}
