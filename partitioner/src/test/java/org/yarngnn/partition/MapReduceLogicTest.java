package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.io.EdgeTable;
import org.yarngnn.io.NodeTable;
import org.yarngnn.io.TableFormat;

/** The partition job's map, partition, sort and reduce logic, driven without Hadoop's runtime. */
class MapReduceLogicTest {
  @TempDir
  java.nio.file.Path dir;

  /** A serialised map output record, as the shuffle holds it. */
  private record Shuffled(byte[] key, byte[] value, int partition) {}

  private static byte[] bytes(org.apache.hadoop.io.Writable w) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    w.write(new DataOutputStream(b));
    return b.toByteArray();
  }

  /** Maps every file, partitions, sorts with the raw comparator and reduces each group. */
  private static List<GraphPartition> runLogic(EdgeTable edges, NodeTable nodes, Ownership own, boolean undirected,
      MissingFeatures missing, List<InputError> errors) throws Exception {
    List<Shuffled> out = new ArrayList<>();
    PartitionKey.OwnerPartitioner partitioner = new PartitionKey.OwnerPartitioner();
    RecordRouter.Emitter emit = (k, r) -> {
      try {
        out.add(new Shuffled(bytes(k), bytes(r), partitioner.getPartition(k, r, own.parts())));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
    for (int f = 0; f < nodes.files().size(); f++) {
      nodes.readFile(f, new RecordRouter(own, undirected, missing, nodes.featureWidth(), f, emit));
    }
    for (int f = 0; f < edges.files().size(); f++) {
      edges.readFile(f, new RecordRouter(own, undirected, missing, nodes.featureWidth(), f, emit));
    }
    PartitionKey.SortComparator sort = new PartitionKey.SortComparator();
    out.sort((a, b) -> sort.compare(a.key, 0, a.key.length, b.key, 0, b.key.length));
    List<GraphPartition> parts = new ArrayList<>();
    for (int p = 0; p < own.parts(); p++) {
      PartitionAssembler a = new PartitionAssembler(p, own, nodes.featureWidth(), edges.weighted(),
          nodes.hasLabels(), nodes.hasSplits(), missing);
      GraphRecord r = new GraphRecord();
      for (Shuffled s : out) {
        if (s.partition == p) {
          r.readFields(new DataInputStream(new java.io.ByteArrayInputStream(s.value)));
          a.accept(r);
        }
      }
      if (a.error() != null) {
        errors.add(a.error());
      } else {
        parts.add(a.finish());
      }
    }
    return parts;
  }

  @Test
  void mapSortReduceEqualsTheInMemoryBuild() throws Exception {
    TestGraphs.Tables t = TestGraphs.random(dir, 300, 2000, 4, false, true, 2, TableFormat.TSV, 9);
    for (boolean undirected : new boolean[] {false, true}) {
      GraphBuildOptions o = GraphBuildOptions.builder().undirected(undirected).build();
      LocalGraph whole = GraphBuilder.build(t.edgeTable(), t.nodeTable(), o);
      for (int parts = 1; parts <= 4; parts++) {
        List<InputError> errors = new ArrayList<>();
        List<GraphPartition> ps = runLogic(t.edgeTable(), t.nodeTable(), Ownership.hash(parts), undirected,
            MissingFeatures.ERROR, errors);
        assertTrue(errors.isEmpty());
        TestGraphs.assertPartitionsEqual(whole, ps);
      }
    }
  }

  @Test
  void reducerFindsTheFirstDanglingRowAndDuplicate() throws Exception {
    java.nio.file.Files.writeString(dir.resolve("nodes.tsv"), "1\t0.5\n2\t1.5\n3\t2\n2\t9\n2\t8\n");
    java.nio.file.Files.writeString(dir.resolve("edges.tsv"), "1\t2\n2\t3\n40\t1\n3\t50\n");
    EdgeTable edges = EdgeTable.open(TestGraphs.CONF, new org.apache.hadoop.fs.Path(dir.resolve("edges.tsv").toUri()),
        org.yarngnn.io.TableReadOptions.defaults());
    NodeTable nodes = NodeTable.open(TestGraphs.CONF, new org.apache.hadoop.fs.Path(dir.resolve("nodes.tsv").toUri()),
        org.yarngnn.io.TableReadOptions.defaults());
    List<InputError> errors = new ArrayList<>();
    runLogic(edges, nodes, Ownership.hash(3), false, MissingFeatures.ERROR, errors);
    InputError first = errors.stream().min(InputError::compareTo).orElseThrow();
    assertEquals(InputError.NODES, first.table());
    assertEquals(4, first.row());
    assertEquals("duplicate node id 2", first.message());
    // Each reducer keeps only its own first finding; the driver reports the smallest.
    assertTrue(errors.stream().anyMatch(e -> e.table() == InputError.EDGES
        && e.message().matches("(src 40|dst 50) has no row.*")), errors.toString());
    List<InputError> edgeOnly = new ArrayList<>();
    java.nio.file.Files.writeString(dir.resolve("nodes.tsv"), "1\t0.5\n2\t1.5\n3\t2\n");
    runLogic(edges, NodeTable.open(TestGraphs.CONF, new org.apache.hadoop.fs.Path(dir.resolve("nodes.tsv").toUri()),
        org.yarngnn.io.TableReadOptions.defaults()), Ownership.hash(3), false, MissingFeatures.ERROR, edgeOnly);
    InputError firstEdge = edgeOnly.stream().min(InputError::compareTo).orElseThrow();
    assertEquals(3, firstEdge.row());
    assertTrue(firstEdge.message().startsWith("src 40 has no row"), firstEdge.message());
  }

  @Test
  void missingFeaturesZeroAddsNodesAtTheirOwners() throws Exception {
    java.nio.file.Files.writeString(dir.resolve("nodes.tsv"), "10\t0.5\n20\t1.5\n");
    java.nio.file.Files.writeString(dir.resolve("edges.tsv"), "10\t20\n7\t10\n20\t99\n99\t7\n");
    EdgeTable edges = EdgeTable.open(TestGraphs.CONF, new org.apache.hadoop.fs.Path(dir.resolve("edges.tsv").toUri()),
        org.yarngnn.io.TableReadOptions.defaults());
    NodeTable nodes = NodeTable.open(TestGraphs.CONF, new org.apache.hadoop.fs.Path(dir.resolve("nodes.tsv").toUri()),
        org.yarngnn.io.TableReadOptions.defaults());
    GraphBuildOptions o = GraphBuildOptions.builder().missingFeatures(MissingFeatures.ZERO).build();
    LocalGraph whole = GraphBuilder.build(edges, nodes, o);
    for (int parts = 1; parts <= 3; parts++) {
      List<InputError> errors = new ArrayList<>();
      List<GraphPartition> ps = runLogic(edges, nodes, Ownership.hash(parts), false, MissingFeatures.ZERO, errors);
      assertTrue(errors.isEmpty());
      TestGraphs.assertPartitionsEqual(whole, ps);
    }
  }

  @Test
  void rawKeyComparatorAgreesWithCompareTo() throws Exception {
    SplittableRandom rnd = new SplittableRandom(3);
    PartitionKey.SortComparator raw = new PartitionKey.SortComparator();
    PartitionKey.GroupComparator group = new PartitionKey.GroupComparator();
    for (int i = 0; i < 2000; i++) {
      PartitionKey a = new PartitionKey().set(rnd.nextInt(3), (byte) rnd.nextInt(3), rnd.nextLong() >> rnd.nextInt(64));
      PartitionKey b = new PartitionKey().set(rnd.nextInt(3), (byte) rnd.nextInt(3), rnd.nextLong() >> rnd.nextInt(64));
      byte[] x = bytes(a);
      byte[] y = bytes(b);
      assertEquals(PartitionKey.BYTES, x.length);
      assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(raw.compare(x, 0, x.length, y, 0, y.length)));
      assertEquals(Integer.signum(Integer.compare(a.partition(), b.partition())),
          Integer.signum(group.compare(x, 0, x.length, y, 0, y.length)));
    }
  }

  @Test
  void partitionerSendsKeysToTheirOwner() {
    PartitionKey.OwnerPartitioner p = new PartitionKey.OwnerPartitioner();
    for (int part = 0; part < 5; part++) {
      assertEquals(part, p.getPartition(new PartitionKey().set(part, PartitionKey.EDGE, 0), null, 5));
    }
  }

  @Test
  void recordsRoundTrip() throws Exception {
    GraphRecord n = new GraphRecord().node(5, 2, (byte) 1, new float[] {1, 2, 3}, 3, 1, 7);
    GraphRecord back = new GraphRecord();
    back.readFields(new DataInputStream(new java.io.ByteArrayInputStream(bytes(n))));
    assertEquals(5, back.id);
    assertEquals(3, back.width);
    assertEquals(3f, back.features[2]);
    assertEquals(7, back.row);
    GraphRecord e = new GraphRecord().edge(9, -4, 2.5f, true, 3, 11);
    back.readFields(new DataInputStream(new java.io.ByteArrayInputStream(bytes(e))));
    assertEquals(-4, back.from);
    assertEquals(2.5f, back.weight);
    assertEquals(1, back.column);
  }
}
