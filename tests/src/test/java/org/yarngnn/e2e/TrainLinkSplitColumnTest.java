package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.io.table.EmbeddingTable;

/**
 * The edges table's {@code split} column through the CLI, on Cora with a split word as each row's last field:
 * {@code train --task link} holds out exactly the table's {@code val} and {@code test} rows and trains on its
 * {@code train} rows as positives, {@code none} rows carrying messages only; an edges table without a {@code train}
 * row, a bad split word and the column together with {@code --link-split} exit 2 with one line and write nothing;
 * {@code infer}, node classification and {@code partition} read the same table as if it had no split column.
 */
class TrainLinkSplitColumnTest {
  @TempDir static Path work;
  static Path plainEdges;
  static Path splitEdges;
  static Path nodes;
  static Path linkSpec;
  /** The table's rows by split: train, val, test, none; each row {src, dst}. */
  static final List<List<long[]>> BY_SPLIT = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
      new ArrayList<>());

  @BeforeAll
  static void setUp() throws Exception {
    plainEdges = SharedData.planetoid("cora").resolve("edges.tsv");
    nodes = SharedData.planetoid("cora").resolve("nodes.tsv.gz");
    linkSpec = Files.writeString(work.resolve("gae.json"), TrainLinkOptionsTest.GAE_SPEC);
    // Not LinkSplit.ofPair's split: per row, so the two directions of a pair may differ; words in any case.
    String[] words = {"train", "VAL", "Test", "none"};
    StringBuilder text = new StringBuilder("# src\tdst\tsplit\n");
    int i = 0;
    for (String line : Files.readAllLines(plainEdges)) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t");
      int split = i % 20 == 7 ? 1 : i % 10 == 3 ? 2 : i % 10 == 5 ? 3 : 0;
      i++;
      BY_SPLIT.get(split).add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
      text.append(f[0]).append('\t').append(f[1]).append('\t').append(words[split]).append('\n');
    }
    splitEdges = Files.writeString(work.resolve("edges-split.tsv"), text.toString());
  }

  private static CliRun link(Path edges, Path out, String... extra) {
    List<String> a = new ArrayList<>(List.of("train", "--local", "--task", "link", "--edges", edges.toString(),
        "--nodes", nodes.toString(), "--model-spec", linkSpec.toString(), "--output", out.toString(), "--epochs",
        "2", "--dropout", "0", "--seed", "3"));
    a.addAll(List.of(extra));
    CliRun run = CliRun.of(a.toArray(new String[0]));
    System.out.print(run.out());
    System.err.print(run.err());
    return run;
  }

  private static List<long[]> sorted(List<long[]> rows) {
    List<long[]> s = new ArrayList<>(rows);
    s.sort(Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1]));
    return s;
  }

  private static void assertSameRows(List<long[]> want, List<long[]> got, String what) {
    assertArrayEquals(sorted(want).toArray(new long[0][]), sorted(got).toArray(new long[0][]), what);
  }

  /**
   * A successful run on the split table: its positives are the train rows alone (none rows carry messages but are
   * no positives), its --link-pairs val and test tables exactly the val and test rows, its message graph the train
   * and none rows.
   */
  private static void assertHeldOutAsTheTableSays(CliRun run, Path pairs) {
    assertEquals(0, run.status(), run.toString());
    String counts = String.format(Locale.ROOT, "yarn-gnn train: %,d train, %,d val, %,d test edges",
        BY_SPLIT.get(0).size(), BY_SPLIT.get(1).size(), BY_SPLIT.get(2).size());
    assertTrue(run.out().contains(counts) || run.err().contains(counts), counts + " in " + run);
    assertSameRows(BY_SPLIT.get(1), TrainLinkLocalTest.pairs(pairs.resolve("val")), "val pairs = the val rows");
    assertSameRows(BY_SPLIT.get(2), TrainLinkLocalTest.pairs(pairs.resolve("test")), "test pairs = the test rows");
    List<long[]> messages = new ArrayList<>(BY_SPLIT.get(0));
    messages.addAll(BY_SPLIT.get(3));
    assertSameRows(messages, TrainLinkLocalTest.pairs(pairs.resolve("train")), "message graph = train + none rows");
  }

  @Test
  void theColumnDecidesTheHeldOutEdgesAndNoneEdgesAreNoPositives() throws Exception {
    Path out = work.resolve("model");
    Path pairs = work.resolve("pairs");
    CliRun run = link(splitEdges, out, "--workers", "2", "--link-pairs", pairs.toString());
    assertHeldOutAsTheTableSays(run, pairs);
    Map<?, ?> best = (Map<?, ?>) TrainLocalTest.metrics(out).get("best");
    double auc = ((Number) best.get("test_auc")).doubleValue();
    assertTrue(auc > 0 && auc <= 1, "test auc " + auc);

    // infer ignores the column: every row carries messages, as in the table without it.
    Path withColumn = work.resolve("emb-split");
    Path without = work.resolve("emb-plain");
    for (Path[] io : new Path[][] {{splitEdges, withColumn}, {plainEdges, without}}) {
      CliRun inf = CliRun.of("infer", "--local", "--edges", io[0].toString(), "--nodes", nodes.toString(),
          "--model", out.toString(), "--output", io[1].toString(), "--workers", "2");
      assertEquals(0, inf.status(), inf.toString());
    }
    Map<Long, float[]> want = embeddings(without);
    Map<Long, float[]> got = embeddings(withColumn);
    assertEquals(want.size(), got.size());
    for (Map.Entry<Long, float[]> e : want.entrySet()) {
      assertArrayEquals(e.getValue(), got.get(e.getKey()), "embedding of node " + e.getKey());
    }

    // partition ignores it too: infer on the partitioned graph gives the same embeddings.
    Path graph = work.resolve("graph");
    CliRun part = CliRun.of("partition", "--local", "--edges", splitEdges.toString(), "--nodes", nodes.toString(),
        "--output", graph.toString(), "--partitions", "2");
    assertEquals(0, part.status(), part.toString());
    Path fromGraph = work.resolve("emb-graph");
    CliRun inf = CliRun.of("infer", "--local", "--graph", graph.toString(), "--model", out.toString(), "--output",
        fromGraph.toString());
    assertEquals(0, inf.status(), inf.toString());
    Map<Long, float[]> partitioned = embeddings(fromGraph);
    for (Map.Entry<Long, float[]> e : want.entrySet()) {
      assertArrayEquals(e.getValue(), partitioned.get(e.getKey()), 1e-5f, "embedding of node " + e.getKey());
    }
  }

  private static Map<Long, float[]> embeddings(Path dir) {
    return EmbeddingTable.read(new Configuration(), new org.apache.hadoop.fs.Path(dir.toUri())).embeddings();
  }

  /** Node classification reads the table as the one without the column: the same losses. */
  @Test
  void nodeClassificationIgnoresTheColumn() throws Exception {
    Path spec = Files.writeString(work.resolve("classify.json"), TrainLocalTest.SPEC);
    double[][] losses = new double[2][];
    Path[] tables = {plainEdges, splitEdges};
    for (int t = 0; t < 2; t++) {
      Path out = work.resolve("classify-" + t);
      CliRun run = CliRun.of("train", "--local", "--edges", tables[t].toString(), "--nodes", nodes.toString(),
          "--model-spec", spec.toString(), "--output", out.toString(), "--epochs", "3", "--seed", "1");
      assertEquals(0, run.status(), run.toString());
      losses[t] = TrainLocalTest.losses(TrainLocalTest.metrics(out));
    }
    assertArrayEquals(losses[0], losses[1]);
  }

  /**
   * The same table imported to Parquet (import keeps the column): the held-out edges come through the columnar
   * readers' blocks, compacted by the held-out filter, and are again exactly the table's rows.
   */
  @Test
  void aParquetSplitColumnGivesTheSameHeldOutEdges() throws Exception {
    Path parquet = work.resolve("edges-parquet");
    CliRun imp = CliRun.of("import", "--edges", splitEdges.toString(), "--output", parquet.toString());
    assertEquals(0, imp.status(), imp.toString());
    Path pairs = work.resolve("pairs-parquet");
    CliRun run = link(parquet, work.resolve("model-parquet"), "--workers", "3", "--link-pairs", pairs.toString());
    assertHeldOutAsTheTableSays(run, pairs);
  }

  /** A pair with train and none copies: one positive per train copy, every copy a message. */
  @Test
  void parallelCopiesOfAPairGiveOnePositivePerTrainRow() throws Exception {
    Path dir = Files.createDirectories(work.resolve("copies"));
    Path edges = Files.writeString(dir.resolve("edges.tsv"), "0\t1\tnone\n0\t1\ttrain\n0\t1\tnone\n"
        + "0\t1\ttrain\n1\t2\tnone\n2\t3\ttrain\n3\t0\ttest\n1\t0\tval\n0\t1\tnone\n");
    Path pairs = dir.resolve("pairs");
    CliRun run = link(edges, dir.resolve("model"), "--workers", "2", "--link-pairs", pairs.toString());
    assertEquals(0, run.status(), run.toString());
    String counts = "yarn-gnn train: 3 train, 1 val, 1 test edges";
    assertTrue(run.out().contains(counts) || run.err().contains(counts), counts + " in " + run);
    assertEquals(7, TrainLinkLocalTest.pairs(pairs.resolve("train")).size(), "every train and none row a message");
  }

  private static void assertRefused(CliRun run, Path out, String... says) {
    assertEquals(2, run.status(), run.toString());
    for (String s : says) {
      assertTrue(run.err().contains(s), "'" + s + "' in " + run);
    }
    assertEquals(1, run.err().strip().lines().count(), "one line: " + run.err());
    assertFalse(Files.exists(out), "nothing written: " + run);
  }

  @Test
  void noTrainRowABadWordAndTheColumnWithLinkSplitAreRefused() throws Exception {
    Path tiny = Files.createDirectories(work.resolve("tiny"));
    Path held = Files.writeString(tiny.resolve("held.tsv"), "0\t1\tval\n1\t0\ttest\n1\t2\tnone\n2\t1\tVal\n");
    Path pairs = tiny.resolve("pairs");
    Path out = tiny.resolve("out");
    assertRefused(link(held, out, "--link-pairs", pairs.toString()), out, held.toString(),
        "no training edge is left (0 train, 2 val, 1 test edges");
    assertFalse(Files.exists(pairs), "no evaluation pairs either");

    Path bad = Files.writeString(tiny.resolve("bad.tsv"), "0\t1\ttrain\n\n1\t0\tvalidation\n");
    assertRefused(link(bad, out, "--workers", "2"), out, bad + ":3: bad split 'validation' (expected train, val, "
        + "test or none)");

    assertRefused(link(splitEdges, out, "--link-split", "0.1,0.1"), out, "option --link-split",
        splitEdges.toString(), "has a split column");
    assertFalse(Files.list(work).anyMatch(p -> p.getFileName().toString().startsWith(".out")));
  }
}
