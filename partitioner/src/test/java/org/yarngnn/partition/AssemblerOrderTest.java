package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;

/**
 * {@link PartitionAssembler} as the workers feed it: every node block first, then reference and edge blocks in any
 * interleaving. Whatever the order, the partition and the first finding are those of the shuffle order.
 */
class AssemblerOrderTest {
  @TempDir java.nio.file.Path dir;

  /**
   * Each partition's routed blocks, in the order the routers emitted them: taken over ({@link GraphRecord#take},
   * as a worker keeps its own blocks) for even partitions, copies for odd ones, so both must leave intact blocks.
   */
  private static List<List<GraphRecord>> route(EdgeTable edges, NodeTable nodes, Ownership own, boolean undirected,
      MissingFeatures missing, int blockRows) {
    List<List<GraphRecord>> out = new ArrayList<>();
    for (int p = 0; p < own.parts(); p++) {
      out.add(new ArrayList<>());
    }
    RecordRouter.Emitter emit = (k, r) -> out.get(k.partition()).add(k.partition() % 2 == 0 ? r.take() : r.copy());
    RecordRouter router = new RecordRouter(own, undirected, missing, nodes.featureWidth(), 0, blockRows, emit);
    for (int f = 0; f < nodes.files().size(); f++) {
      router.file(f);
      nodes.readFile(f, router);
    }
    router.finish();
    // One router over several files, as a worker's reader thread is.
    RecordRouter edgeRouter = new RecordRouter(own, undirected, missing, nodes.featureWidth(), 0, blockRows, emit);
    for (int f = 0; f < edges.files().size(); f++) {
      edgeRouter.file(f);
      edges.readFile(f, edgeRouter);
    }
    edgeRouter.finish();
    return out;
  }

  /** Node blocks first (shuffled among themselves when asked), the rest in {@code order}. */
  private static List<GraphRecord> order(List<GraphRecord> blocks, Random rnd, boolean shuffleOrShuffleOrder) {
    List<GraphRecord> nodes = new ArrayList<>();
    List<GraphRecord> rest = new ArrayList<>();
    for (GraphRecord r : blocks) {
      (r.kind() == PartitionKey.NODE ? nodes : rest).add(r);
    }
    if (rnd == null) {
      // Shuffle order: references, then edges.
      rest.sort((a, b) -> Byte.compare(a.kind(), b.kind()));
    } else {
      Collections.shuffle(nodes, rnd);
      Collections.shuffle(rest, rnd);
      if (shuffleOrShuffleOrder) {
        // Worst case for zero-missing: every edge before any reference.
        rest.sort((a, b) -> Byte.compare(b.kind(), a.kind()));
      }
    }
    nodes.addAll(rest);
    return nodes;
  }

  private static PartitionAssembler assemble(int p, Ownership own, NodeTable nodes, EdgeTable edges,
      MissingFeatures missing, List<GraphRecord> blocks) {
    return assemble(p, own, nodes, edges, missing, blocks, -1);
  }

  /** As above, told to expect {@code edgeHint} edges first (none when negative). */
  private static PartitionAssembler assemble(int p, Ownership own, NodeTable nodes, EdgeTable edges,
      MissingFeatures missing, List<GraphRecord> blocks, long edgeHint) {
    return assemble(p, own, nodes, edges, missing, blocks, edgeHint, false);
  }

  /** As above; {@code dense}: the node ids declared dense, so sources are held as ints. */
  private static PartitionAssembler assemble(int p, Ownership own, NodeTable nodes, EdgeTable edges,
      MissingFeatures missing, List<GraphRecord> blocks, long edgeHint, boolean dense) {
    return assemble(p, own, nodes, edges, missing, blocks, edgeHint, dense, -1);
  }

  /** As above, told to expect {@code nodeHint} node rows first (none when negative). */
  private static PartitionAssembler assemble(int p, Ownership own, NodeTable nodes, EdgeTable edges,
      MissingFeatures missing, List<GraphRecord> blocks, long edgeHint, boolean dense, long nodeHint) {
    PartitionAssembler a = new PartitionAssembler(p, own, nodes.featureWidth(), edges.weighted(), nodes.hasLabels(),
        nodes.hasSplits(), missing);
    if (dense) {
      assertTrue(a.denseNodeIds());
    }
    if (nodeHint >= 0) {
      a.expectNodes(nodeHint);
    }
    if (edgeHint >= 0) {
      a.expectEdges(edgeHint);
    }
    for (GraphRecord r : blocks) {
      a.accept(r);
    }
    return a;
  }

  private void writeGraph(int n, int m, int missingIds, long seed, boolean consecutive) throws Exception {
    Random rnd = new Random(seed);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(consecutive ? i : 1000L + 7L * i + rnd.nextInt(5));
    }
    Collections.shuffle(ids, rnd);
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      (i % 2 == 0 ? a : b).append(ids.get(i)).append('\t').append(i % 3).append(',').append(i * 0.5f).append('\n');
    }
    Files.createDirectories(dir.resolve("nodes"));
    Files.writeString(dir.resolve("nodes/a.tsv"), a);
    Files.writeString(dir.resolve("nodes/b.tsv"), b);
    StringBuilder[] e = {new StringBuilder(), new StringBuilder(), new StringBuilder()};
    for (int j = 0; j < m; j++) {
      long s = rnd.nextInt(n + missingIds) < n ? ids.get(rnd.nextInt(n)) : -1 - rnd.nextInt(Math.max(1, missingIds));
      long d = rnd.nextInt(n + missingIds) < n ? ids.get(rnd.nextInt(n)) : -1 - rnd.nextInt(Math.max(1, missingIds));
      e[j % 3].append(s).append('\t').append(d).append('\t').append(1 + rnd.nextInt(3)).append('\n');
    }
    Files.createDirectories(dir.resolve("edges"));
    for (int f = 0; f < 3; f++) {
      Files.writeString(dir.resolve("edges/e" + f + ".tsv"), e[f]);
    }
  }

  /** Nodes 0..n-1 and m edges among them, then {@code extraRows} (bad ones, say) at the end of an edge file. */
  private void writeDenseGraph(int n, int m, long seed, String extraRows) throws Exception {
    writeGraph(n, m, 0, seed, true);
    Files.writeString(dir.resolve("edges/e1.tsv"), extraRows, java.nio.file.StandardOpenOption.APPEND);
  }

  /** The tables built whole, in one JVM. */
  private LocalGraph whole(boolean undirected) {
    return GraphBuilder.build(edges(), nodes(),
        GraphBuildOptions.builder().undirected(undirected).missingFeatures(MissingFeatures.ERROR).build());
  }

  private EdgeTable edges() {
    return EdgeTable.open(TestGraphs.CONF, new org.apache.hadoop.fs.Path(dir.resolve("edges").toUri()),
        TableReadOptions.defaults());
  }

  private NodeTable nodes() {
    return NodeTable.open(TestGraphs.CONF, new org.apache.hadoop.fs.Path(dir.resolve("nodes").toUri()),
        TableReadOptions.defaults());
  }

  @Test
  void samePartitionWhateverTheInterleaving() throws Exception {
    for (boolean consecutive : new boolean[] {true, false}) {
      for (MissingFeatures missing : MissingFeatures.values()) {
        writeGraph(200, 1500, missing == MissingFeatures.ZERO ? 15 : 0, consecutive ? 1 : 2, consecutive);
        EdgeTable edges = edges();
        NodeTable nodes = nodes();
        for (boolean undirected : new boolean[] {false, true}) {
          LocalGraph whole = GraphBuilder.build(edges, nodes,
              GraphBuildOptions.builder().undirected(undirected).missingFeatures(missing).build());
          for (Ownership own : List.of(Ownership.hash(3), Ownership.ranges(2, 200), Ownership.hash(1))) {
            List<List<GraphRecord>> routed = route(edges, nodes, own, undirected, missing, 16);
            for (int trial = 0; trial < 6; trial++) {
              Random rnd = trial == 0 ? null : new Random(trial);
              List<GraphPartition> parts = new ArrayList<>();
              for (int p = 0; p < own.parts(); p++) {
                // Edge-count hints as a worker gives them from footers: none, far too many, too few, plenty; once a
                // hostile footer's (capped at a quarter of the heap, not an OutOfMemoryError).
                boolean once = consecutive && missing == MissingFeatures.ERROR && !undirected && p == 0;
                long hint = trial == 3 ? (once ? Long.MAX_VALUE : 1 << 20) : trial == 4 ? 10 : trial == 5 ? 4000 : -1;
                // Node-count hints likewise: none, far too many (or past int range), too few, about the share.
                long nodeHint = trial == 3 ? (once ? Long.MAX_VALUE : 5000) : trial == 4 ? 3
                    : trial == 5 ? 200 / own.parts() : -1;
                PartitionAssembler a = assemble(p, own, nodes, edges, missing,
                    order(routed.get(p), rnd, trial % 2 == 1), hint, false, nodeHint);
                assertNull(a.error(), () -> "order " + 0 + ": " + a.error());
                if (trial == 2 && missing == MissingFeatures.ERROR) {
                  a.endNodes();
                  a.gatherRows();
                }
                parts.add(a.finish());
              }
              TestGraphs.assertPartitionsEqual(whole, parts);
            }
          }
        }
      }
    }
  }

  /**
   * A worker alone writes its edges straight into the assembler ({@link PartitionAssembler#directEdges}) from two
   * threads, its arrays grown from a small hint: the same partition as the routed blocks make, and, with dangling
   * endpoints, the same first finding (file, row, column), directed and undirected.
   */
  @Test
  void directEdgesMakeTheBlockPathsPartitionAndFinding() throws Exception {
    for (int dangling : new int[] {0, 10}) {
      for (boolean consecutive : new boolean[] {true, false}) {
        writeGraph(200, 1500, dangling, consecutive ? 3 : 4, consecutive);
        if (dangling > 0) {
          // First of all an edge with neither endpoint in the nodes table: which column is reported then differs
          // between directed (the destination) and undirected (the source).
          java.nio.file.Path e0 = dir.resolve("edges/e0.tsv");
          Files.writeString(e0, "-100\t-200\t1\n" + Files.readString(e0));
        }
        EdgeTable edges = edges();
        NodeTable nodes = nodes();
        for (boolean undirected : new boolean[] {false, true}) {
          Ownership own = consecutive ? Ownership.ranges(1, 200) : Ownership.hash(1);
          List<GraphRecord> blocks = routed(edges, nodes, own, undirected);
          PartitionAssembler viaBlocks = assemble(0, own, nodes, edges, MissingFeatures.ERROR, blocks);
          PartitionAssembler direct = new PartitionAssembler(0, own, nodes.featureWidth(), edges.weighted(),
              nodes.hasLabels(), nodes.hasSplits(), MissingFeatures.ERROR);
          // Ids 0..199 under ranges: sources held as ints, as a lone worker holds them.
          assertEquals(consecutive, direct.denseNodeIds());
          for (GraphRecord r : routed(edges, nodes, own, undirected)) {
            if (r.kind() == PartitionKey.NODE) {
              direct.accept(r);
            }
          }
          direct.expectEdges(10);
          PartitionAssembler.DirectEdges d = direct.directEdges(undirected);
          List<Thread> threads = new ArrayList<>();
          List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
          for (int t = 0; t < 2; t++) {
            int first = t;
            Thread th = new Thread(() -> {
              PartitionAssembler.DirectEdges.Writer w = d.writer();
              for (int f = first; f < edges.files().size(); f += 2) {
                w.file(f);
                edges.readFile(f, w);
              }
              w.flush();
            });
            th.setUncaughtExceptionHandler((x, e) -> failures.add(e));
            threads.add(th);
            th.start();
          }
          for (Thread th : threads) {
            th.join();
          }
          assertEquals(List.of(), failures);
          d.close();
          String where = "dangling " + dangling + ", consecutive " + consecutive + ", undirected " + undirected;
          assertEquals(viaBlocks.error(), direct.error(), where);
          if (dangling == 0) {
            assertNull(direct.error(), where);
            LocalGraph whole = GraphBuilder.build(edges, nodes, GraphBuildOptions.builder().undirected(undirected)
                .missingFeatures(MissingFeatures.ERROR).build());
            TestGraphs.assertPartitionsEqual(whole, List.of(direct.finish()));
          } else {
            assertNotNull(direct.error(), where);
          }
        }
      }
    }
  }

  /**
   * Workers with peers: each worker's two readers route its share of the files with {@link RecordRouter.OwnEdges}
   * writing what the worker keeps straight into its assembler, while a consumer thread per worker takes the peers'
   * blocks at the same time, arrays grown from a small hint. Each partition, and each partition's own first finding,
   * is the block path's, directed and undirected, for hash and range ownership.
   */
  @Test
  void routedOwnEdgesWithPeersMakeTheBlockPathsPartitionsAndFindings() throws Exception {
    for (int dangling : new int[] {0, 10}) {
      for (boolean consecutive : new boolean[] {true, false}) {
        writeGraph(200, 1500, dangling, consecutive ? 5 : 6, consecutive);
        EdgeTable edges = edges();
        NodeTable nodes = nodes();
        for (boolean undirected : new boolean[] {false, true}) {
          for (Ownership own : List.of(Ownership.hash(3), Ownership.ranges(2, 200))) {
            String where = "dangling " + dangling + ", consecutive " + consecutive + ", undirected " + undirected
                + ", " + own.parts() + " parts";
            List<List<GraphRecord>> routed = route(edges, nodes, own, undirected, MissingFeatures.ERROR, 16);
            List<PartitionAssembler> direct = routeWithPeers(edges, nodes, own, undirected, routed);
            List<GraphPartition> parts = new ArrayList<>();
            for (int p = 0; p < own.parts(); p++) {
              List<GraphRecord> blocks = new ArrayList<>();
              for (GraphRecord r : order(routed.get(p), null, false)) {
                blocks.add(r.copy());
              }
              PartitionAssembler viaBlocks = assemble(p, own, nodes, edges, MissingFeatures.ERROR, blocks);
              assertEquals(viaBlocks.error(), direct.get(p).error(), where + ", partition " + p);
              if (dangling == 0) {
                assertNull(direct.get(p).error(), where);
                parts.add(direct.get(p).finish());
              }
            }
            if (dangling == 0) {
              LocalGraph whole = GraphBuilder.build(edges, nodes, GraphBuildOptions.builder().undirected(undirected)
                  .missingFeatures(MissingFeatures.ERROR).build());
              TestGraphs.assertPartitionsEqual(whole, parts);
            } else {
              InputFinding first = null;
              for (PartitionAssembler a : direct) {
                first = InputFinding.min(first, a.error());
              }
              assertNotNull(first, where);
            }
          }
        }
      }
    }
  }

  /**
   * Every worker reading the whole edge table through an {@link OwnEdgeFilter} on two threads, straight into its
   * assembler, nothing routed: each partition and each partition's own first finding is the block path's,
   * directed and undirected, for hash and range ownership; a source without a node row whose edge another
   * partition keeps is found by the source's owner.
   */
  @Test
  void ownEdgeFiltersOverTheWholeTableMakeTheBlockPathsPartitionsAndFindings() throws Exception {
    for (int dangling : new int[] {0, 10, -1}) {
      writeGraph(200, 1500, Math.max(0, dangling), 7, true);
      if (dangling < 0) {
        // One dangling source alone (-5 is no node's id), into a node of another owner under both ownerships.
        long to = 0;
        while (Ownership.hash(3).owner(-5) == Ownership.hash(3).owner(to)
            || Ownership.ranges(2, 200).owner(-5) == Ownership.ranges(2, 200).owner(to)) {
          to++;
        }
        assertTrue(to < 200);
        Files.writeString(dir.resolve("edges/e1.tsv"), "-5\t" + to + "\t1\n", java.nio.file.StandardOpenOption.APPEND);
      }
      EdgeTable edges = edges();
      NodeTable nodes = nodes();
      for (boolean undirected : new boolean[] {false, true}) {
        for (Ownership own : List.of(Ownership.hash(3), Ownership.ranges(2, 200))) {
          String where = "dangling " + dangling + ", undirected " + undirected + ", " + own.parts() + " parts";
          List<List<GraphRecord>> routed = route(edges, nodes, own, undirected, MissingFeatures.ERROR, 16);
          List<GraphPartition> parts = new ArrayList<>();
          InputFinding first = null;
          for (int p = 0; p < own.parts(); p++) {
            PartitionAssembler a = filterAll(edges, nodes, own, undirected, routed.get(p), p);
            List<GraphRecord> blocks = new ArrayList<>();
            for (GraphRecord r : order(routed.get(p), null, false)) {
              blocks.add(r.copy());
            }
            PartitionAssembler viaBlocks = assemble(p, own, nodes, edges, MissingFeatures.ERROR, blocks);
            assertEquals(viaBlocks.error(), a.error(), where + ", partition " + p);
            if (dangling < 0 && !undirected) {
              assertEquals(p == own.owner(-5), a.error() != null, where + ", partition " + p);
            }
            first = InputFinding.min(first, a.error());
            if (dangling == 0) {
              assertNull(a.error(), where);
              parts.add(a.finish());
            }
          }
          if (dangling == 0) {
            LocalGraph whole = GraphBuilder.build(edges, nodes, GraphBuildOptions.builder().undirected(undirected)
                .missingFeatures(MissingFeatures.ERROR).build());
            TestGraphs.assertPartitionsEqual(whole, parts);
          } else {
            assertNotNull(first, where);
          }
        }
      }
    }
  }

  /**
   * Node ids 0..n-1 under range ownership with the sources held as ints ({@link PartitionAssembler#denseNodeIds}):
   * the block path, the whole-table filter and routing with peers each make the partitions that longs make, one
   * partition or two, directed and undirected; with sources past the table's range (n + 5) and below it (-3), the
   * same first finding (the edge's keeper now finds such a source too, besides the source's hash owner).
   */
  @Test
  void denseIdsHeldAsIntsMakeTheSamePartitionsAndFindings() throws Exception {
    for (int dangling : new int[] {0, 1}) {
      writeDenseGraph(200, 1500, 9, dangling > 0 ? "205\t3\t1\n-3\t150\t2\n" : "");
      EdgeTable edges = edges();
      NodeTable nodes = nodes();
      for (boolean undirected : new boolean[] {false, true}) {
        LocalGraph whole = dangling > 0 ? null : whole(undirected);
        for (Ownership own : List.of(Ownership.ranges(1, 200), Ownership.ranges(2, 200))) {
          String where = "dangling " + dangling + ", undirected " + undirected + ", " + own.parts() + " parts";
          List<List<GraphRecord>> routed = route(edges, nodes, own, undirected, MissingFeatures.ERROR, 16);
          List<PartitionAssembler> peers = routeWithPeers(edges, nodes, own, undirected, routed, true);
          InputFinding wideFirst = null;
          InputFinding[] narrowFirst = new InputFinding[3];
          List<List<GraphPartition>> parts = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
          for (int p = 0; p < own.parts(); p++) {
            List<GraphRecord> blocks = new ArrayList<>();
            for (GraphRecord r : order(routed.get(p), null, false)) {
              blocks.add(r.copy());
            }
            List<GraphRecord> blocks2 = new ArrayList<>();
            for (GraphRecord r : blocks) {
              blocks2.add(r.copy());
            }
            wideFirst = InputFinding.min(wideFirst,
                assemble(p, own, nodes, edges, MissingFeatures.ERROR, blocks, 4000, false).error());
            PartitionAssembler[] narrow = {
                assemble(p, own, nodes, edges, MissingFeatures.ERROR, blocks2, 4000, true),
                filterAll(edges, nodes, own, undirected, routed.get(p), p, true), peers.get(p)};
            for (int k = 0; k < narrow.length; k++) {
              narrowFirst[k] = InputFinding.min(narrowFirst[k], narrow[k].error());
              if (dangling == 0) {
                assertNull(narrow[k].error(), where);
                parts.get(k).add(narrow[k].finish());
              }
            }
          }
          for (int k = 0; k < 3; k++) {
            assertEquals(wideFirst, narrowFirst[k], where + ", path " + k);
            if (dangling == 0) {
              TestGraphs.assertPartitionsEqual(whole, parts.get(k));
            }
          }
          assertEquals(dangling > 0, wideFirst != null, where);
        }
      }
    }
  }

  /**
   * The whole-table filter handed blocks of rows, as the Parquet reader hands them (under range ownership of dense
   * ids the writer's block path takes them), makes the partitions and the first findings of the same filter fed
   * row by row: one, two and three ranges, directed and undirected, blocks that straddle the writer's batch, and
   * rows with a source or a destination outside the ids in the middle of a block; and the slot count the build
   * tells before sorting its columns ({@link PartitionAssembler#onSlotsKnown}) is the built block's.
   */
  @Test
  void ownEdgeFilterBlocksMakeTheRowByRowPartitionsAndFindings() throws Exception {
    for (int dangling : new int[] {0, 1}) {
      writeDenseGraph(300, 20_000, 11, dangling > 0 ? "305\t3\t1\n-3\t150\t2\n7\t-9\t1\n" : "");
      EdgeTable edges = edges();
      NodeTable nodes = nodes();
      for (boolean undirected : new boolean[] {false, true}) {
        LocalGraph whole = dangling > 0 ? null : whole(undirected);
        for (int parts = 1; parts <= 3; parts++) {
          Ownership own = Ownership.ranges(parts, 300);
          String where = "dangling " + dangling + ", undirected " + undirected + ", " + parts + " parts";
          List<List<GraphRecord>> routed = route(edges, nodes, own, undirected, MissingFeatures.ERROR, 16);
          List<GraphPartition> byRows = new ArrayList<>();
          List<GraphPartition> byBlocks = new ArrayList<>();
          InputFinding first = null;
          for (int p = 0; p < parts; p++) {
            PartitionAssembler rows = filterAll(edges, nodes, own, undirected, routed.get(p), p, true, 0);
            PartitionAssembler blocks = filterAll(edges, nodes, own, undirected, routed.get(p), p, true, 997);
            assertEquals(rows.error(), blocks.error(), where + ", partition " + p);
            first = InputFinding.min(first, blocks.error());
            if (dangling == 0) {
              assertNull(blocks.error(), where);
              byRows.add(rows.finish());
              long[] told = {-1};
              blocks.onSlotsKnown(slots -> told[0] = slots);
              GraphPartition built = blocks.finish();
              assertEquals(built.block().numSlots(), told[0], where + ": the slot count told before the build");
              byBlocks.add(built);
            }
          }
          assertEquals(dangling > 0, first != null, where);
          if (dangling == 0) {
            TestGraphs.assertPartitionsEqual(whole, byRows);
            TestGraphs.assertPartitionsEqual(whole, byBlocks);
          }
        }
      }
    }
  }

  /** A row-by-row table's rows handed on in blocks of consecutive rows, as a columnar reader hands them. */
  private static final class RowBlocks implements org.yarngnn.io.table.EdgeSink {
    private final org.yarngnn.io.table.EdgeSink sink;
    private final long[] src;
    private final long[] dst;
    private final float[] weight;
    private int n;
    private long first;

    RowBlocks(org.yarngnn.io.table.EdgeSink sink, int size, boolean weighted) {
      this.sink = sink;
      src = new long[size];
      dst = new long[size];
      weight = weighted ? new float[size] : null;
    }

    @Override
    public void edge(long s, long d, float w, long row) {
      if (n > 0 && row != first + n) {
        flush();
      }
      if (n == 0) {
        first = row;
      }
      src[n] = s;
      dst[n] = d;
      if (weight != null) {
        weight[n] = w;
      }
      if (++n == src.length) {
        flush();
      }
    }

    void flush() {
      if (n > 0) {
        sink.edges(src, dst, weight, n, first);
        n = 0;
      }
    }
  }

  /** Partition {@code p}'s assembler: its node blocks of {@code routed}, then every edge file filtered, 2 threads. */
  private static PartitionAssembler filterAll(EdgeTable edges, NodeTable nodes, Ownership own, boolean undirected,
      List<GraphRecord> routed, int p) throws Exception {
    return filterAll(edges, nodes, own, undirected, routed, p, false);
  }

  /** As above; {@code dense}: the node ids declared dense, so sources are held as ints. */
  private static PartitionAssembler filterAll(EdgeTable edges, NodeTable nodes, Ownership own, boolean undirected,
      List<GraphRecord> routed, int p, boolean dense) throws Exception {
    return filterAll(edges, nodes, own, undirected, routed, p, dense, 0);
  }

  /** As above, the filter handed blocks of up to {@code block} rows (as the Parquet reader does) when positive. */
  private static PartitionAssembler filterAll(EdgeTable edges, NodeTable nodes, Ownership own, boolean undirected,
      List<GraphRecord> routed, int p, boolean dense, int block) throws Exception {
    PartitionAssembler a = new PartitionAssembler(p, own, nodes.featureWidth(), edges.weighted(),
        nodes.hasLabels(), nodes.hasSplits(), MissingFeatures.ERROR);
    if (dense) {
      assertTrue(a.denseNodeIds());
    }
    for (GraphRecord r : routed) {
      if (r.kind() == PartitionKey.NODE) {
        a.accept(r.copy());
      }
    }
    a.expectEdges(10);
    PartitionAssembler.DirectEdges direct = a.directEdges(undirected);
    List<Thread> readers = new ArrayList<>();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 2; t++) {
      int firstFile = t;
      Thread th = new Thread(() -> {
        PartitionAssembler.DirectEdges.Writer w = direct.writer();
        OwnEdgeFilter filter = new OwnEdgeFilter(own, undirected, p, w);
        for (int f = firstFile; f < edges.files().size(); f += 2) {
          filter.file(f);
          if (block > 0) {
            RowBlocks blocks = new RowBlocks(filter, block, edges.weighted());
            edges.readFile(f, blocks);
            blocks.flush();
          } else {
            edges.readFile(f, filter);
          }
        }
        w.flush();
      });
      th.setUncaughtExceptionHandler((x, e) -> failures.add(e));
      readers.add(th);
      th.start();
    }
    for (Thread th : readers) {
      th.join();
    }
    assertEquals(List.of(), failures);
    direct.close();
    return a;
  }

  /**
   * One assembler per worker, fed as {@link RecordRouter.OwnEdges} and peers' blocks feed it: worker q reads files
   * q, q + parts, ... on two threads; peers' blocks reach its consumer thread through a queue as they are emitted.
   */
  private static List<PartitionAssembler> routeWithPeers(EdgeTable edges, NodeTable nodes, Ownership own,
      boolean undirected, List<List<GraphRecord>> routed) throws Exception {
    return routeWithPeers(edges, nodes, own, undirected, routed, false);
  }

  /** As above; {@code dense}: the node ids declared dense, so sources are held as ints. */
  private static List<PartitionAssembler> routeWithPeers(EdgeTable edges, NodeTable nodes, Ownership own,
      boolean undirected, List<List<GraphRecord>> routed, boolean dense) throws Exception {
    int parts = own.parts();
    List<PartitionAssembler> out = new ArrayList<>();
    List<PartitionAssembler.DirectEdges> direct = new ArrayList<>();
    List<java.util.concurrent.BlockingQueue<GraphRecord>> inbox = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      PartitionAssembler a = new PartitionAssembler(p, own, nodes.featureWidth(), edges.weighted(),
          nodes.hasLabels(), nodes.hasSplits(), MissingFeatures.ERROR);
      if (dense) {
        assertTrue(a.denseNodeIds());
      }
      for (GraphRecord r : routed.get(p)) {
        if (r.kind() == PartitionKey.NODE) {
          a.accept(r.copy());
        }
      }
      a.expectEdges(10);
      out.add(a);
      direct.add(a.directEdges(undirected));
      inbox.add(new java.util.concurrent.LinkedBlockingQueue<>());
    }
    GraphRecord end = new GraphRecord();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    List<Thread> readers = new ArrayList<>();
    List<Thread> consumers = new ArrayList<>();
    for (int q = 0; q < parts; q++) {
      int worker = q;
      for (int t = 0; t < 2; t++) {
        int first = worker + t * parts;
        readers.add(new Thread(() -> {
          PartitionAssembler.DirectEdges.Writer w = direct.get(worker).writer();
          RecordRouter router = new RecordRouter(own, undirected, MissingFeatures.ERROR, nodes.featureWidth(), 0,
              16, (k, r) -> {
                if (k.partition() == worker) {
                  throw new AssertionError("worker " + worker + " emitted a block of its own");
                }
                inbox.get(k.partition()).add(r.copy());
              }, worker, w);
          for (int f = first; f < edges.files().size(); f += 2 * parts) {
            router.file(f);
            edges.readFile(f, router);
          }
          router.finish();
          w.flush();
        }));
      }
      consumers.add(new Thread(() -> {
        try {
          for (GraphRecord r = inbox.get(worker).take(); r != end; r = inbox.get(worker).take()) {
            out.get(worker).accept(r);
          }
          direct.get(worker).close();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
      }));
    }
    for (Thread th : readers) {
      th.setUncaughtExceptionHandler((x, e) -> failures.add(e));
      th.start();
    }
    for (Thread th : consumers) {
      th.setUncaughtExceptionHandler((x, e) -> failures.add(e));
      th.start();
    }
    for (Thread th : readers) {
      th.join();
    }
    for (java.util.concurrent.BlockingQueue<GraphRecord> q : inbox) {
      q.add(end);
    }
    for (Thread th : consumers) {
      th.join();
    }
    assertEquals(List.of(), failures);
    return out;
  }

  /** Partition 0's routed blocks in shuffle order, fresh. */
  private static List<GraphRecord> routed(EdgeTable edges, NodeTable nodes, Ownership own, boolean undirected) {
    List<GraphRecord> out = new ArrayList<>();
    for (GraphRecord r : order(route(edges, nodes, own, undirected, MissingFeatures.ERROR, 16).get(0), null, false)) {
      out.add(r.copy());
    }
    return out;
  }

  @Test
  void sameFirstFindingWhateverTheInterleaving() throws Exception {
    writeGraph(150, 1200, 10, 5, false);
    EdgeTable edges = edges();
    NodeTable nodes = nodes();
    for (Ownership own : List.of(Ownership.hash(1), Ownership.hash(2), Ownership.hash(3))) {
      List<List<GraphRecord>> routed = route(edges, nodes, own, false, MissingFeatures.ERROR, 8);
      InputFinding expectedAll = null;
      for (int trial = 0; trial < 8; trial++) {
        Random rnd = trial == 0 ? null : new Random(40 + trial);
        InputFinding all = null;
        for (int p = 0; p < own.parts(); p++) {
          // Fresh decoded blocks per trial: findings decode rows lazily.
          List<GraphRecord> blocks = new ArrayList<>();
          for (GraphRecord r : order(routed.get(p), rnd, trial % 2 == 1)) {
            blocks.add(r.copy());
          }
          InputFinding e = assemble(p, own, nodes, edges, MissingFeatures.ERROR, blocks).error();
          all = InputFinding.min(all, e);
        }
        assertNotNull(all);
        if (expectedAll == null) {
          expectedAll = all;
        }
        assertEquals(expectedAll, all, "trial " + trial + " with " + own.parts() + " parts");
      }
      // The first dangling row of the edge files in table order, as a single scan finds it.
      assertEquals(firstDangling(edges, nodes), expectedAll.file() + ":" + expectedAll.row() + ":"
          + expectedAll.message().substring(0, 3), "for " + own.parts() + " parts");
    }
  }

  /** "file:row:column" of the first edge with an endpoint outside the nodes table (src before dst). */
  private static String firstDangling(EdgeTable edges, NodeTable nodes) {
    java.util.Set<Long> known = new java.util.HashSet<>();
    for (int f = 0; f < nodes.files().size(); f++) {
      nodes.readFile(f, (id, label, split, features, row) -> known.add(id));
    }
    for (int f = 0; f < edges.files().size(); f++) {
      String[] first = {null};
      int file = f;
      edges.readFile(f, (src, dst, weight, row) -> {
        if (first[0] == null && (!known.contains(src) || !known.contains(dst))) {
          first[0] = file + ":" + row + ":" + (!known.contains(src) ? "src" : "dst");
        }
      });
      if (first[0] != null) {
        return first[0];
      }
    }
    return null;
  }
}
