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
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableFormat;

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
      MissingFeatures missing, List<InputFinding> errors) throws Exception {
    return runLogic(edges, nodes, own, undirected, missing, RecordRouter.MAX_BLOCK_ROWS, errors);
  }

  /** As above with blocks of at most {@code blockRows} edges or references. */
  private static List<GraphPartition> runLogic(EdgeTable edges, NodeTable nodes, Ownership own, boolean undirected,
      MissingFeatures missing, int blockRows, List<InputFinding> errors) throws Exception {
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
      RecordRouter router = new RecordRouter(own, undirected, missing, nodes.featureWidth(), f, blockRows, emit);
      nodes.readFile(f, router);
      router.finish();
    }
    for (int f = 0; f < edges.files().size(); f++) {
      RecordRouter router = new RecordRouter(own, undirected, missing, nodes.featureWidth(), f, blockRows, emit);
      edges.readFile(f, router);
      router.finish();
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

  private EdgeTable edgesTsv() {
    return EdgeTable.open(TestGraphs.CONF, new org.apache.hadoop.fs.Path(dir.resolve("edges.tsv").toUri()),
        org.yarngnn.io.table.TableReadOptions.defaults());
  }

  private NodeTable nodesTsv() {
    return NodeTable.open(TestGraphs.CONF, new org.apache.hadoop.fs.Path(dir.resolve("nodes.tsv").toUri()),
        org.yarngnn.io.table.TableReadOptions.defaults());
  }

  @Test
  void mapSortReduceEqualsTheInMemoryBuild() throws Exception {
    TestGraphs.Tables t = TestGraphs.random(dir, 300, 2000, 4, false, true, 2, TableFormat.TSV, 9);
    for (boolean undirected : new boolean[] {false, true}) {
      GraphBuildOptions o = GraphBuildOptions.builder().undirected(undirected).build();
      LocalGraph whole = GraphBuilder.build(t.edgeTable(), t.nodeTable(), o);
      for (int parts = 1; parts <= 4; parts++) {
        // Blocks of one row, a few, and the most: the block size never changes the result.
        for (int rows : new int[] {1, 7, RecordRouter.MAX_BLOCK_ROWS}) {
          List<InputFinding> errors = new ArrayList<>();
          List<GraphPartition> ps = runLogic(t.edgeTable(), t.nodeTable(), Ownership.hash(parts), undirected,
              MissingFeatures.ERROR, rows, errors);
          assertTrue(errors.isEmpty());
          TestGraphs.assertPartitionsEqual(whole, ps);
        }
      }
    }
  }

  @Test
  void reducerFindsTheFirstDanglingRowAndDuplicate() throws Exception {
    java.nio.file.Files.writeString(dir.resolve("nodes.tsv"), "1\t0.5\n2\t1.5\n3\t2\n2\t9\n2\t8\n");
    java.nio.file.Files.writeString(dir.resolve("edges.tsv"), "1\t2\n2\t3\n40\t1\n3\t50\n");
    EdgeTable edges = edgesTsv();
    NodeTable nodes = nodesTsv();
    List<InputFinding> errors = new ArrayList<>();
    runLogic(edges, nodes, Ownership.hash(3), false, MissingFeatures.ERROR, errors);
    InputFinding first = errors.stream().min(InputFinding::compareTo).orElseThrow();
    assertEquals(InputFinding.NODES, first.table());
    assertEquals(4, first.row());
    assertEquals("duplicate node id 2", first.message());
    // Each reducer keeps only its own first finding; the driver reports the smallest.
    assertTrue(errors.stream().anyMatch(e -> e.table() == InputFinding.EDGES
        && e.message().matches("(src 40|dst 50) has no row.*")), errors.toString());
    List<InputFinding> edgeOnly = new ArrayList<>();
    java.nio.file.Files.writeString(dir.resolve("nodes.tsv"), "1\t0.5\n2\t1.5\n3\t2\n");
    runLogic(edges, nodesTsv(), Ownership.hash(3), false, MissingFeatures.ERROR, edgeOnly);
    InputFinding firstEdge = edgeOnly.stream().min(InputFinding::compareTo).orElseThrow();
    assertEquals(3, firstEdge.row());
    assertTrue(firstEdge.message().startsWith("src 40 has no row"), firstEdge.message());
  }

  @Test
  void missingFeaturesZeroAddsNodesAtTheirOwners() throws Exception {
    java.nio.file.Files.writeString(dir.resolve("nodes.tsv"), "10\t0.5\n20\t1.5\n");
    java.nio.file.Files.writeString(dir.resolve("edges.tsv"), "10\t20\n7\t10\n20\t99\n99\t7\n");
    EdgeTable edges = edgesTsv();
    NodeTable nodes = nodesTsv();
    GraphBuildOptions o = GraphBuildOptions.builder().missingFeatures(MissingFeatures.ZERO).build();
    LocalGraph whole = GraphBuilder.build(edges, nodes, o);
    for (int parts = 1; parts <= 3; parts++) {
      List<InputFinding> errors = new ArrayList<>();
      for (int rows : new int[] {1, 2, RecordRouter.MAX_BLOCK_ROWS}) {
        // Blocks of one or two rows repeat a missing id across blocks: it must be added once.
        List<GraphPartition> ps = runLogic(edges, nodes, Ownership.hash(parts), false, MissingFeatures.ZERO, rows,
            errors);
        assertTrue(errors.isEmpty());
        TestGraphs.assertPartitionsEqual(whole, ps);
      }
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
    NodeBlock n = new NodeBlock(3);
    n.reserve(2, 1);
    n.add(5, 2, (byte) 1, new float[] {1, 2, 3}, 7);
    n.add(-6, -1, (byte) 0, new float[] {4, 5, 6}, 9);
    GraphRecord back = new GraphRecord();
    back.readFields(new DataInputStream(new java.io.ByteArrayInputStream(bytes(new GraphRecord().nodes(n)))));
    assertEquals(PartitionKey.NODE, back.kind);
    assertEquals(1, back.nodes.file);
    assertEquals(2, back.nodes.count);
    assertEquals(3, back.nodes.width);
    assertEquals(-6, back.nodes.ids[1]);
    assertEquals(2, back.nodes.label(0));
    assertEquals(-1, back.nodes.label(1));
    assertEquals(1, back.nodes.split(0));
    assertEquals(3f, back.nodes.features[2]);
    assertEquals(6f, back.nodes.features[5]);
    assertEquals(9, back.nodes.row(1));
    NodeBlock plain = new NodeBlock(0);
    plain.reserve(1, 0);
    plain.add(8, -1, (byte) 0, new float[0], 3);
    byte[] wire = bytes(new GraphRecord().nodes(plain));
    // No labels, splits or features: the id as a minimum and a zero bit width, the row's varint and flag byte.
    assertEquals(1 + 17 + 9 + 2, wire.length);
    back.readFields(new DataInputStream(new java.io.ByteArrayInputStream(wire)));
    assertEquals(8, back.nodes.ids[0]);
    assertEquals(-1, back.nodes.label(0));
    assertEquals(0, back.nodes.split(0));
    NodeBlock empty = new NodeBlock(4);
    empty.reserve(3, 2);
    back.readFields(new DataInputStream(new java.io.ByteArrayInputStream(bytes(new GraphRecord().nodes(empty)))));
    assertEquals(0, back.nodes.count);
    assertEquals(2, back.nodes.file);
    EdgeBlock e = new EdgeBlock();
    e.ensureCapacity(1);
    e.clear(3);
    e.add(9, -4, 2.5f, true, 11);
    back.readFields(new DataInputStream(new java.io.ByteArrayInputStream(bytes(new GraphRecord().edges(e)))));
    assertEquals(PartitionKey.EDGE, back.kind);
    assertEquals(1, back.edges.count);
    assertEquals(-4, back.edges.from[0]);
    assertEquals(2.5f, back.edges.weight(0));
    assertTrue(back.edges.reversed(0));
    assertEquals(11, back.edges.row(0));
  }

  /**
   * {@link GraphRecord#encodeBlock} is the shuffle's wire form of the block (without the kind byte), in an array of
   * exactly its length, and {@link GraphRecord#decode} reads it in place from within a larger array.
   */
  @Test
  void encodedBlocksAreTheWireFormAndDecodeInPlace() throws Exception {
    SplittableRandom rnd = new SplittableRandom(5);
    List<GraphRecord> records = new ArrayList<>();
    for (int count : new int[] {0, 1, 2, 7, 9, 300}) {
      for (boolean weighted : new boolean[] {false, true}) {
        records.add(new GraphRecord().edges(randomEdges(rnd, count, weighted, count)));
      }
      NodeBlock n = new NodeBlock(3);
      n.reserve(Math.max(1, count), count);
      RefBlock refs = new RefBlock();
      refs.reserve(Math.max(1, count), count);
      for (int i = 0; i < count; i++) {
        n.add(rnd.nextLong() >> rnd.nextInt(64), count > 5 ? rnd.nextInt(5) : -1, (byte) (count > 7 ? 1 : 0),
            new float[] {i, -i, 0.5f * i}, i * 3L);
        refs.add(rnd.nextLong() >> rnd.nextInt(64), i & 1, i);
      }
      records.add(new GraphRecord().nodes(n));
      records.add(new GraphRecord().refs(refs));
    }
    GraphRecord back = new GraphRecord();
    for (GraphRecord r : records) {
      byte[] wire = bytes(r);
      byte[] encoded = r.encodeBlock();
      assertTrue(java.util.Arrays.equals(wire, 1, wire.length, encoded, 0, encoded.length),
          "kind " + r.kind + ", " + r.count() + " rows");
      byte[] within = new byte[encoded.length + 7];
      System.arraycopy(encoded, 0, within, 3, encoded.length);
      back.decode(r.kind, within, 3, encoded.length, 3);
      assertEquals(r.count(), back.count());
      assertTrue(java.util.Arrays.equals(wire, bytes(back)), "kind " + r.kind + " decoded in place");
    }
  }

  private static EdgeBlock randomEdges(SplittableRandom rnd, int count, boolean weighted, int file) {
    EdgeBlock b = new EdgeBlock();
    b.ensureCapacity(count);
    b.clear(file);
    long row = rnd.nextLong(1L << 40);
    for (int i = 0; i < count; i++) {
      // Rows mostly ascend by small steps, sometimes jump far either way (the codec takes any row order).
      row += rnd.nextInt(10) == 0 ? rnd.nextLong() >> 2 : rnd.nextInt(3);
      b.add(rnd.nextLong() >> rnd.nextInt(64), rnd.nextLong() >> rnd.nextInt(64),
          weighted ? (float) rnd.nextGaussian() : 1f, rnd.nextBoolean(), row);
    }
    return b;
  }

  private static EdgeBlock readEdges(byte[] wire, GraphRecord into) throws Exception {
    into.readFields(new DataInputStream(new java.io.ByteArrayInputStream(wire)));
    return into.edges;
  }

  @Test
  void edgeBlocksRoundTripAtEverySize() throws Exception {
    SplittableRandom rnd = new SplittableRandom(17);
    GraphRecord into = new GraphRecord();
    for (int count : new int[] {0, 1, 9, 1000, RecordRouter.MAX_BLOCK_ROWS}) {
      for (boolean weighted : new boolean[] {false, true}) {
        EdgeBlock b = randomEdges(rnd, count, weighted, 4);
        byte[] wire = bytes(new GraphRecord().edges(b));
        // Unweighted blocks leave the weights out; rows take a few bytes each, not eight.
        assertTrue(wire.length <= 14 + 18 + count * (weighted ? 20 : 16) + count * 10 + (count + 7) / 8);
        EdgeBlock back = readEdges(wire, into);
        assertEquals(4, back.file);
        assertEquals(count, back.count);
        assertEquals(weighted && count > 0, back.weighted);
        for (int i = 0; i < count; i++) {
          assertEquals(b.to[i], back.to[i]);
          assertEquals(b.from[i], back.from[i]);
          assertEquals(b.weight(i), back.weight(i));
          assertEquals(b.rows[i], back.row(i));
          assertEquals(b.flags[i] == 1, back.reversed(i));
        }
      }
    }
  }

  @Test
  void idsArePackedInTheBitsTheirSpanNeeds() throws Exception {
    SplittableRandom rnd = new SplittableRandom(8);
    long[][] spans = {{0, 0}, {5, 1}, {1L << 40, 1L << 20}, {-3, (1L << 56) - 1}, {0, 1L << 56},
        {Long.MIN_VALUE, 1L << 57}, {Long.MIN_VALUE, Long.MAX_VALUE}};
    for (long[] span : spans) {
      for (int count : new int[] {0, 1, 3, 64, 1001}) {
        long[] v = new long[count];
        for (int i = 0; i < count; i++) {
          v[i] = span[0] + (span[1] == Long.MAX_VALUE ? rnd.nextLong() : rnd.nextLong(span[1] + 1));
        }
        if (count > 1) {
          v[0] = span[0];
          v[1] = span[0] + span[1];
        }
        byte[] b = new byte[ShuffleBlock.maxPackedBytes(count) + 8];
        java.util.Arrays.fill(b, (byte) 0x55);
        int end = ShuffleBlock.packLongs(v, count, b, 0);
        int bits = count < 2 ? 0 : 64 - Long.numberOfLeadingZeros(span[1]);
        assertEquals(9 + (bits > 56 ? 8L * count : ((long) count * bits + 7) / 8), end,
            "span " + span[1] + ", " + count + " values");
        assertEquals(end, ShuffleBlock.packedBytes(v, count));
        for (int i = end; i < b.length; i++) {
          assertEquals((byte) 0x55, b[i], "written past the end at " + i);
        }
        long[] back = new long[count];
        assertEquals(end, ShuffleBlock.unpackLongs(b, 0, back, count, b.length - 8));
        assertTrue(java.util.Arrays.equals(v, back), "span " + span[1]);
        // Decoded from an array that ends where the values do: nothing past it is read.
        long[] exact = new long[count];
        assertEquals(end, ShuffleBlock.unpackLongs(java.util.Arrays.copyOf(b, end), 0, exact, count, end));
        assertTrue(java.util.Arrays.equals(v, exact), "span " + span[1] + " from an exact array");
      }
    }
  }

  @Test
  void referenceBlocksKeepEachIdOnceAtItsFirstRow() throws Exception {
    RefBlock b = new RefBlock();
    b.reserve(8, 2);
    b.add(40, 1, 5);
    b.add(-7, 0, 6);
    b.add(40, 0, 5);
    b.add(40, 0, 9);
    b.add(-7, 1, 8);
    assertEquals(2, b.count);
    GraphRecord into = new GraphRecord();
    into.readFields(new DataInputStream(new java.io.ByteArrayInputStream(bytes(new GraphRecord().refs(b)))));
    RefBlock back = into.refs;
    assertEquals(2, back.file);
    assertEquals(2, back.count);
    assertEquals(40, back.ids[0]);
    assertEquals(5, back.row(0));
    assertEquals(0, back.column(0));
    assertEquals(-7, back.ids[1]);
    assertEquals(6, back.row(1));
    assertEquals(0, back.column(1));
    b.clear(3);
    b.add(40, 1, 100);
    assertEquals(1, b.count);
    into.readFields(new DataInputStream(new java.io.ByteArrayInputStream(bytes(new GraphRecord().refs(b)))));
    assertEquals(100, into.refs.row(0));
    assertEquals(1, into.refs.column(0));
    RefBlock empty = new RefBlock();
    empty.reserve(4, 0);
    into.readFields(new DataInputStream(new java.io.ByteArrayInputStream(bytes(new GraphRecord().refs(empty)))));
    assertEquals(0, into.refs.count);
  }

  @Test
  void referenceBlocksForgetRepeatsButNeverIdsOrFirstRows() {
    RefBlock b = new RefBlock();
    int ids = 20_000;
    b.reserve(2 * ids, 0);
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < ids; i++) {
        b.add(i * 7919L, 1 - pass, pass * ids + i);
      }
    }
    // More ids than cache slots: some repeats become second entries, each still at a row the id was seen at.
    assertTrue(b.count >= ids && b.count < 2 * ids, "entries " + b.count);
    long[] firstRow = new long[ids];
    java.util.Arrays.fill(firstRow, Long.MAX_VALUE);
    for (int e = 0; e < b.count; e++) {
      int i = (int) (b.ids[e] / 7919L);
      assertEquals(b.ids[e], i * 7919L);
      firstRow[i] = Math.min(firstRow[i], b.row(e));
    }
    for (int i = 0; i < ids; i++) {
      assertEquals(i, firstRow[i]);
    }
  }

  @Test
  void danglingSourceInTwoBlocksNamesTheEarlierRow() throws Exception {
    java.nio.file.Files.writeString(dir.resolve("nodes.tsv"), "1\t0.5\n2\t1.5\n3\t2\n");
    // Source 40 (owned elsewhere for most destinations) dangles at rows 3 and 6, blocks of 2 split them.
    java.nio.file.Files.writeString(dir.resolve("edges.tsv"), "1\t2\n2\t3\n40\t1\n3\t1\n2\t1\n40\t2\n");
    EdgeTable edges = edgesTsv();
    NodeTable nodes = nodesTsv();
    for (int parts = 1; parts <= 3; parts++) {
      for (int rows : new int[] {1, 2, 64}) {
        List<InputFinding> errors = new ArrayList<>();
        runLogic(edges, nodes, Ownership.hash(parts), false, MissingFeatures.ERROR, rows, errors);
        InputFinding first = errors.stream().min(InputFinding::compareTo).orElseThrow();
        assertEquals(3, first.row(), parts + " parts, blocks of " + rows);
        assertEquals(0, first.column());
        assertTrue(first.message().startsWith("src 40 has no row"), first.message());
      }
    }
    // Whatever order the blocks reach the reducer in, the earlier row is named.
    PartitionAssembler a = new PartitionAssembler(0, Ownership.hash(1), 0, false, false, false,
        MissingFeatures.ERROR);
    NodeBlock one = new NodeBlock(0);
    one.reserve(1, 0);
    one.add(1, -1, (byte) 0, new float[0], 1);
    a.accept(new GraphRecord().nodes(one));
    RefBlock late = new RefBlock();
    late.reserve(2, 0);
    late.add(40, 0, 6);
    a.accept(new GraphRecord().refs(late));
    RefBlock early = new RefBlock();
    early.reserve(2, 0);
    early.add(40, 0, 3);
    a.accept(new GraphRecord().refs(early));
    assertEquals(3, a.error().row());
  }

  @Test
  void duplicateNodeNamesItsSecondRowWhateverTheBlockOrder() {
    // Id 7 at rows (file 0, 9), (file 1, 2) and (file 0, 4): the second in table order is (file 0, 9).
    long[][] rows = {{0, 9}, {1, 2}, {0, 4}};
    int[][] orders = {{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {1, 2, 0}};
    for (int[] order : orders) {
      PartitionAssembler a = new PartitionAssembler(0, Ownership.hash(1), 1, false, false, false,
          MissingFeatures.ERROR);
      for (int k : order) {
        NodeBlock b = new NodeBlock(1);
        b.reserve(2, (int) rows[k][0]);
        b.add(3 + k, -1, (byte) 0, new float[] {k}, 1);
        b.add(7, -1, (byte) 0, new float[] {k}, rows[k][1]);
        a.accept(new GraphRecord().nodes(b));
      }
      InputFinding e = a.error();
      assertEquals(0, e.file(), java.util.Arrays.toString(order));
      assertEquals(9, e.row(), java.util.Arrays.toString(order));
      assertEquals("duplicate node id 7", e.message());
    }
  }

  @Test
  void blockRowsFitTheMapBuffer() {
    assertEquals(RecordRouter.MAX_BLOCK_ROWS, RecordRouter.blockRows(2, 64L << 20, RecordRouter.MAX_BLOCK_ROWS));
    int many = RecordRouter.blockRows(1000, 64L << 20, RecordRouter.MAX_BLOCK_ROWS);
    assertTrue(many < RecordRouter.MAX_BLOCK_ROWS && many * 1000L * 99 <= 64L << 20, "rows " + many);
    assertEquals(64, RecordRouter.blockRows(1 << 20, 1 << 20, RecordRouter.MAX_BLOCK_ROWS));
    assertEquals(5, RecordRouter.blockRows(2, 64L << 20, 5));
  }
}
