package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.link.LinkSplit;

/**
 * {@code train --task link} on the two inputs classification takes beside the plain tables: a nodes table without
 * some endpoints' rows under {@code --missing-features zero}, and a graph partitioned by {@code partition}
 * ({@code --graph}). Cora, the graph auto-encoder's protocol of {@link TrainLinkLocalTest}, 2 graph workers.
 */
class TrainLinkInputsTest {
  private static final int EPOCHS = 8;

  @TempDir Path work;
  private Path edgesTable;
  private Path nodesTable;
  private Path spec;

  @BeforeEach
  void setUp() throws Exception {
    edgesTable = SharedData.planetoid("cora").resolve("edges.tsv");
    nodesTable = SharedData.planetoid("cora").resolve("nodes.tsv.gz");
    spec = Files.writeString(work.resolve("gae.json"), TrainLinkLocalTest.GAE_SPEC);
  }

  /** Cora's edge rows as {src, dst}, in table order. */
  private List<long[]> coraEdges() throws Exception {
    List<long[]> l = new ArrayList<>();
    for (String line : Files.readAllLines(edgesTable)) {
      if (!line.startsWith("#") && !line.isBlank()) {
        String[] f = line.split("\t");
        l.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])});
      }
    }
    return l;
  }

  /**
   * Nodes missing from the table: three endpoints of held-out edges (a validation edge's source, a test edge's
   * destination) and three destinations of training edges, so that both kinds of edge meet a missing node.
   */
  private static Set<Long> missingNodes(List<long[]> edges) {
    Set<Long> heldOut = new LinkedHashSet<>();
    Set<Long> train = new LinkedHashSet<>();
    for (long[] e : edges) {
      byte split = LinkSplit.ofPair(TrainLinkLocalTest.SEED, e[0], e[1], 0.05, 0.10);
      (split == LinkSplit.TRAIN ? train : heldOut).add(split == LinkSplit.VAL ? e[0] : e[1]);
    }
    Set<Long> missing = new LinkedHashSet<>();
    heldOut.stream().filter(id -> !train.contains(id)).limit(3).forEach(missing::add);
    train.stream().filter(id -> !heldOut.contains(id)).limit(3).forEach(missing::add);
    return missing;
  }

  /** Not a Cora id: the endpoint of one more edge, a held-out one, so a node met on no message edge. */
  private static final long HELD_OUT_ONLY = 5000;

  /**
   * Cora's edges plus {@code s -> HELD_OUT_ONLY}, the first {@code s} whose pair {@code --link-split} holds out;
   * its row is the table's last.
   */
  private Path edgesWithAHeldOutOnlyNode() throws Exception {
    long s = 0;
    while (LinkSplit.ofPair(TrainLinkLocalTest.SEED, s, HELD_OUT_ONLY, 0.05, 0.10) == LinkSplit.TRAIN) {
      s++;
    }
    Path p = work.resolve("edges.tsv");
    List<String> lines = new ArrayList<>(Files.readAllLines(edgesTable));
    lines.add(s + "\t" + HELD_OUT_ONLY);
    Files.write(p, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    return p;
  }

  /**
   * Cora's nodes table with the rows of {@code missing} left out ({@code zero}: false) or all-zero (true, and a
   * zero row for {@link #HELD_OUT_ONLY}).
   */
  private Path nodes(String name, Set<Long> missing, boolean zero) throws Exception {
    Path p = work.resolve(name + ".tsv");
    StringBuilder b = new StringBuilder();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(
        Files.newInputStream(nodesTable)), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String[] f = line.split("\t");
        if (line.startsWith("#") || !missing.contains(Long.parseLong(f[0]))) {
          b.append(line).append('\n');
        } else if (zero) {
          String[] values = f[3].split(",");
          Arrays.fill(values, "0");
          b.append(f[0]).append('\t').append(f[1]).append('\t').append(f[2]).append('\t')
              .append(String.join(",", values)).append('\n');
        }
      }
    }
    if (zero) {
      b.append(HELD_OUT_ONLY).append("\t0\tnone\t").append(String.join(",", java.util.Collections.nCopies(1433,
          "0"))).append('\n');
    }
    return Files.writeString(p, b.toString());
  }

  private CliRun link(Path out, String... inputs) {
    return link(out, 2, inputs);
  }

  private CliRun link(Path out, int workers, String... inputs) {
    List<String> a = new ArrayList<>(List.of("train", "--local", "--task", "link", "--model-spec",
        spec.toString(), "--output", out.toString(), "--workers", Integer.toString(workers), "--epochs",
        Integer.toString(EPOCHS), "--dropout", "0", "--seed", Long.toString(TrainLinkLocalTest.SEED)));
    a.addAll(List.of(inputs));
    CliRun run = CliRun.of(a.toArray(new String[0]));
    System.out.print(run.out());
    System.err.print(run.err());
    return run;
  }

  /** The driver's count line ({@code N train, V val, T test edges}). */
  private static String counts(CliRun run) {
    return run.out().lines().filter(l -> l.endsWith(" test edges")).findFirst().orElse("none: " + run.out());
  }

  /**
   * Edges with an endpoint that has no node row (a training edge's, a held-out edge's, and one met on a held-out edge
   * only): refused without {@code --missing-features zero} (exit 2, one line naming edges.tsv and the row, nothing
   * written); with it the job runs, and gives what the same job gives on a nodes table that has those rows with
   * all-zero features: the same node count, losses, validation AUCs and edge counts.
   */
  @Test
  void missingRowsAreZeroFeaturesAsOnATableWithZeroRows() throws Exception {
    Set<Long> missing = missingNodes(coraEdges());
    assertEquals(6, missing.size(), missing.toString());
    Path without = nodes("nodes-missing", missing, false);
    Path zeroRows = nodes("nodes-zero", missing, true);
    Path extended = edgesWithAHeldOutOnlyNode();
    String edges = extended.toString();
    Path refused = work.resolve("refused");
    CliRun no = link(refused, "--edges", edges, "--nodes", without.toString());
    assertEquals(2, no.status(), no.toString());
    assertEquals(1, no.err().strip().lines().count(), "one line: " + no.err());
    assertTrue(no.err().contains("edges.tsv:") && no.err().contains("has no row in the nodes table"), no.err());
    assertFalse(Files.exists(refused), "nothing written");
    // Only the held-out edge's endpoint missing: checked as a message edge's is, the row named.
    long last = Files.readAllLines(extended).size();
    CliRun heldOut = link(refused, "--edges", edges, "--nodes", nodesTable.toString());
    assertEquals(2, heldOut.status(), heldOut.toString());
    assertTrue(heldOut.err().contains("edges.tsv:" + last + ": dst " + HELD_OUT_ONLY + " has no row"), heldOut.err());
    assertFalse(Files.exists(refused), "nothing written");

    // Hash ownership on both: the nodes table without some ids would get it by default, the full one ranges.
    Path zeroOut = work.resolve("zero");
    CliRun zero = link(zeroOut, "--edges", edges, "--nodes", without.toString(), "--ownership", "hash",
        "--missing-features", "zero");
    assertEquals(0, zero.status(), zero.toString());
    Path fullOut = work.resolve("full");
    CliRun full = link(fullOut, "--edges", edges, "--nodes", zeroRows.toString(), "--ownership", "hash");
    assertEquals(0, full.status(), full.toString());
    assertTrue(zero.out().contains("2,709 nodes") && full.out().contains("2,709 nodes"), zero.out());
    assertEquals(counts(full), counts(zero));
    Map<?, ?> z = TrainLocalTest.metrics(zeroOut);
    Map<?, ?> f = TrainLocalTest.metrics(fullOut);
    assertSame(TrainLinkLocalTest.figure(f, "loss"), TrainLinkLocalTest.figure(z, "loss"), "loss");
    assertSame(TrainLinkLocalTest.figure(f, "val_auc"), TrainLinkLocalTest.figure(z, "val_auc"), "val auc");
    // A lone worker (its own rows routed to itself): the same counts, and the losses up to the sums' rounding.
    Path loneOut = work.resolve("zero-lone");
    CliRun lone = link(loneOut, 1, "--edges", edges, "--nodes", without.toString(), "--missing-features", "zero");
    assertEquals(0, lone.status(), lone.toString());
    assertEquals(counts(full), counts(lone));
    TrainLocalTest.assertSameLosses(TrainLinkLocalTest.figure(f, "loss"),
        TrainLinkLocalTest.figure(TrainLocalTest.metrics(loneOut), "loss"), "a lone worker");
  }

  /**
   * {@code --graph}: Cora partitioned into 2, trained with 2 workers, gives the tables' job exactly: the same
   * losses and validation AUCs, and the same {@code --link-pairs} tables (the message graph, the held-out edges
   * and each one's negative) as sets of rows.
   */
  @Test
  void aPartitionedGraphGivesTheTablesJob() throws Exception {
    Path graph = work.resolve("graph");
    CliRun part = CliRun.of("partition", "--local", "--edges", edgesTable.toString(), "--nodes",
        nodesTable.toString(), "--output", graph.toString(), "--partitions", "2");
    assertEquals(0, part.status(), part.toString());
    Path graphOut = work.resolve("from-graph");
    Path graphPairs = work.resolve("graph-pairs");
    CliRun g = link(graphOut, "--graph", graph.toString(), "--link-pairs", graphPairs.toString());
    assertEquals(0, g.status(), g.toString());
    Path tablesOut = work.resolve("from-tables");
    Path tablesPairs = work.resolve("tables-pairs");
    CliRun t = link(tablesOut, "--edges", edgesTable.toString(), "--nodes",
        nodesTable.toString(), "--link-pairs", tablesPairs.toString());
    assertEquals(0, t.status(), t.toString());
    assertEquals(counts(t), counts(g));
    assertSame(TrainLinkLocalTest.figure(TrainLocalTest.metrics(tablesOut), "loss"),
        TrainLinkLocalTest.figure(TrainLocalTest.metrics(graphOut), "loss"), "loss");
    assertSame(TrainLinkLocalTest.figure(TrainLocalTest.metrics(tablesOut), "val_auc"),
        TrainLinkLocalTest.figure(TrainLocalTest.metrics(graphOut), "val_auc"), "val auc");
    assertEquals(rows(tablesPairs, "train", null), rows(graphPairs, "train", null), "train");
    for (String set : new String[] {"val", "test"}) {
      List<String> want = rows(tablesPairs, set, set + "-negatives");
      assertFalse(want.isEmpty(), set);
      assertEquals(want, rows(graphPairs, set, set + "-negatives"), set + " edges and their negatives");
    }
  }

  /**
   * Table {@code name} of a {@code --link-pairs} directory, sorted, each row with its negative's (row for row in
   * table {@code negatives}) when that is given.
   */
  private static List<String> rows(Path pairs, String name, String negatives) {
    List<long[]> p = TrainLinkLocalTest.pairs(pairs.resolve(name));
    List<long[]> n = negatives == null ? null : TrainLinkLocalTest.pairs(pairs.resolve(negatives));
    if (n != null) {
      assertEquals(p.size(), n.size(), name + ": a negative per edge");
    }
    List<String> l = new ArrayList<>();
    for (int i = 0; i < p.size(); i++) {
      l.add(p.get(i)[0] + " " + p.get(i)[1] + (n == null ? "" : " " + n.get(i)[0] + " " + n.get(i)[1]));
    }
    l.sort(Comparator.naturalOrder());
    return l;
  }

  /** Per-epoch figures equal to relative 1e-6 (the two runs do the same arithmetic in the same order). */
  private static void assertSame(double[] want, double[] got, String what) {
    assertEquals(want.length, got.length, what + ": epochs");
    for (int e = 0; e < want.length; e++) {
      assertEquals(want[e], got[e], 1e-6 * Math.abs(want[e]), what + " of epoch " + (e + 1));
    }
  }
}
