package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.link.LinkLoss;
import org.yarngnn.compute.link.LinkSplit;
import org.yarngnn.compute.link.LinkTrainer;
import org.yarngnn.compute.link.NegativeSampler;
import org.yarngnn.compute.model.ModelFormat;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.train.Parameters;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.GraphBuildOptions;
import org.yarngnn.partition.GraphBuilder;
import org.yarngnn.partition.LocalGraph;

/**
 * {@code train --task link --local} on Cora through the CLI, on the graph auto-encoder's protocol (85/5/10 of the
 * pairs held out by {@code --link-split}, gcn 1433 -> 32 -> 16 on raw features, one uniform negative, bce, Adam
 * 0.01, no dropout): the per-epoch losses and validation AUCs are the same for 1, 2 and 3 graph workers and equal the
 * single-JVM {@link LinkTrainer}'s on the same split; 200 epochs reach a test AUC of at least 0.85; the model
 * directory is one {@code infer} runs unchanged.
 */
class TrainLinkLocalTest {
  static final String GAE_SPEC = "{\"format\": 1, \"input\": {\"normalize\": \"none\"}, \"layers\": ["
      + "{\"type\": \"gcn\", \"in\": 1433, \"out\": 32, \"activation\": \"relu\", \"bias\": true},"
      + "{\"type\": \"gcn\", \"in\": 32, \"out\": 16, \"activation\": \"none\", \"bias\": true}],"
      + " \"output\": {\"normalize\": \"none\", \"predict\": false}}";
  static final long SEED = 1;

  @TempDir static Path work;
  static Path edges;
  static Path nodes;
  static Path spec;

  @BeforeAll
  static void setUp() throws Exception {
    edges = SharedData.planetoid("cora").resolve("edges.tsv");
    nodes = SharedData.planetoid("cora").resolve("nodes.tsv.gz");
    spec = Files.writeString(work.resolve("gae.json"), GAE_SPEC);
  }

  static CliRun train(Path out, int workers, int epochs, String... extra) {
    List<String> a = new ArrayList<>(List.of("train", "--local", "--task", "link", "--edges", edges.toString(),
        "--nodes", nodes.toString(), "--model-spec", spec.toString(), "--output", out.toString(), "--workers",
        Integer.toString(workers), "--epochs", Integer.toString(epochs), "--dropout", "0", "--seed",
        Long.toString(SEED)));
    a.addAll(List.of(extra));
    CliRun run = CliRun.of(a.toArray(new String[0]));
    System.out.print(run.out());
    System.err.print(run.err());
    return run;
  }

  static double[] figure(Map<?, ?> metrics, String key) {
    List<?> epochs = (List<?>) metrics.get("epochs");
    double[] l = new double[epochs.size()];
    for (int i = 0; i < l.length; i++) {
      l[i] = ((Number) ((Map<?, ?>) epochs.get(i)).get(key)).doubleValue();
    }
    return l;
  }

  /** The single-JVM trainer on the same split: the message graph of the train pairs, built as the product reads. */
  static LinkTrainer.Result reference(int epochs) throws Exception {
    List<String> lines = Files.readAllLines(edges);
    StringBuilder train = new StringBuilder();
    List<long[]> val = new ArrayList<>();
    List<long[]> test = new ArrayList<>();
    Set<List<Long>> all = new HashSet<>();
    for (String line : lines) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t");
      long s = Long.parseLong(f[0]);
      long d = Long.parseLong(f[1]);
      all.add(List.of(s, d));
      byte split = LinkSplit.ofPair(SEED, s, d, 0.05, 0.10);
      if (split == LinkSplit.TRAIN) {
        train.append(s).append('\t').append(d).append('\n');
      } else {
        (split == LinkSplit.VAL ? val : test).add(new long[] {s, d});
      }
    }
    Path trainEdges = Files.writeString(work.resolve("train-edges.tsv"), train.toString());
    Configuration conf = new Configuration();
    LocalGraph g = GraphBuilder.build(EdgeTable.open(conf, trainEdges.toString(), TableReadOptions.builder().build()),
        NodeTable.open(conf, nodes.toString(), TableReadOptions.builder().build()), GraphBuildOptions.builder().build());
    GraphBlock b = g.block();
    Map<Long, Integer> row = new HashMap<>();
    for (int r = 0; r < b.numNodes(); r++) {
      row.put(b.nodeIds()[r], r);
    }
    int[] ptr = b.inEdges().rowPtr();
    int[] src = new int[ptr[b.numNodes()]];
    int[] dst = new int[src.length];
    for (int r = 0; r < b.numNodes(); r++) {
      for (int e = ptr[r]; e < ptr[r + 1]; e++) {
        src[e] = b.inEdges().colIdx()[e];
        dst[e] = r;
      }
    }
    ModelSpec ms = ModelFormat.parse(GAE_SPEC, "gae.json");
    LinkTrainer.Options o = new LinkTrainer.Options(epochs, 0.01, 0, 0, SEED, 0, 1, NegativeSampler.Kind.UNIFORM,
        LinkLoss.Kind.BCE, 1, 100);
    return LinkTrainer.train(Parameters.glorot(ms, SEED), b, g.features(), new LinkTrainer.Edges(src, dst),
        edges(val, row), edges(test, row), (s, c) -> all.contains(List.of(s, c)), o);
  }

  private static LinkTrainer.Edges edges(List<long[]> pairs, Map<Long, Integer> row) {
    int[] s = new int[pairs.size()];
    int[] d = new int[pairs.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = row.get(pairs.get(i)[0]);
      d[i] = row.get(pairs.get(i)[1]);
    }
    return new LinkTrainer.Edges(s, d);
  }

  @Test
  void lossesDoNotDependOnTheWorkersAndEqualTheSingleJvmTrainer() throws Exception {
    int epochs = 12;
    LinkTrainer.Result ref = reference(epochs);
    double[] wantLoss = ref.epochs().stream().mapToDouble(LinkTrainer.Epoch::loss).toArray();
    double[] wantAuc = ref.epochs().stream().mapToDouble(e -> e.val().auc()).toArray();
    for (int workers = 1; workers <= 3; workers++) {
      Path out = work.resolve("parity-" + workers);
      CliRun run = train(out, workers, epochs);
      assertEquals(0, run.status(), run.toString());
      assertTrue(run.out().contains("yarn-gnn train: epoch 12 loss "), run.out());
      Map<?, ?> m = TrainLocalTest.metrics(out);
      TrainLocalTest.assertSameLosses(wantLoss, figure(m, "loss"), workers + " workers");
      double[] auc = figure(m, "val_auc");
      for (int e = 0; e < epochs; e++) {
        assertEquals(wantAuc[e], auc[e], 1e-4, workers + " workers: val auc of epoch " + (e + 1));
      }
    }
  }

  @Test
  void coraReachesTheAutoEncodersQualityAndInferUsesTheModel() throws Exception {
    Path out = work.resolve("gae");
    CliRun run = train(out, 2, 200);
    assertEquals(0, run.status(), run.toString());
    Map<?, ?> m = TrainLocalTest.metrics(out);
    Map<?, ?> best = (Map<?, ?>) m.get("best");
    System.out.println("Cora GAE through train --task link --local, 2 workers: best epoch " + m.get("best_epoch")
        + " " + best);
    double auc = ((Number) best.get("test_auc")).doubleValue();
    assertTrue(auc >= 0.85, "Cora test AUC " + auc);
    for (String k : new String[] {"val_auc", "val_ap", "val_mrr", "val_hits@10", "val_hits@50", "val_hits@100",
        "test_ap", "test_mrr", "test_hits@10", "test_hits@50", "test_hits@100"}) {
      double v = ((Number) best.get(k)).doubleValue();
      assertTrue(v >= 0 && v <= 1, k + " " + v);
    }
    Map<?, ?> first = (Map<?, ?>) ((List<?>) m.get("epochs")).get(0);
    for (String k : new String[] {"loss", "val_auc", "val_ap", "val_mrr", "val_hits@10", "val_hits@50",
        "val_hits@100", "seconds", "max_staleness"}) {
      assertTrue(first.containsKey(k), "epoch figure " + k + ": " + first);
    }
    assertNull(first.get("val_accuracy"));
    assertTrue(run.out().contains(" val auc "), run.out());
    assertTrue(Files.exists(out.resolve("_SUCCESS")) && Files.exists(out.resolve("weights.safetensors")));

    Path emb = work.resolve("gae-infer");
    CliRun inf = CliRun.of("infer", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(), "--model",
        out.toString(), "--output", emb.toString(), "--workers", "2");
    assertEquals(0, inf.status(), inf.toString());
    assertTrue(Files.exists(emb.resolve("_SUCCESS")), inf.toString());
  }

  /** The rows of the edges table {@code dir} as {src, dst} pairs, in table order. */
  static List<long[]> pairs(Path dir) {
    List<long[]> l = new ArrayList<>();
    EdgeTable.open(new Configuration(), dir.toString(), TableReadOptions.builder().build())
        .read((s, d, w, row) -> l.add(new long[] {s, d}));
    return l;
  }

  /**
   * {@code --link-pairs DIR}: the message graph, the held-out edges and their AUC negatives as edges tables;
   * {@code infer} on {@code DIR/train} gives the embeddings the scores came from: the test AUC and AP recomputed
   * from them equal metrics.json's. An existing DIR is refused without --overwrite (exit 2, nothing written).
   */
  @Test
  void linkPairsGiveTheTestAucFromInfersEmbeddings() throws Exception {
    Path out = work.resolve("pairs-model");
    Path pairsDir = work.resolve("pairs");
    CliRun run = train(out, 2, 8, "--link-pairs", pairsDir.toString());
    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("wrote the evaluation pairs to "), run.out());
    for (String t : new String[] {"", "train", "val", "val-negatives", "test", "test-negatives"}) {
      assertTrue(Files.exists(pairsDir.resolve(t).resolve("part-00001.parquet")) || t.isEmpty(), t);
    }
    assertTrue(Files.exists(pairsDir.resolve("_SUCCESS")));
    List<long[]> train = pairs(pairsDir.resolve("train"));
    List<long[]> test = pairs(pairsDir.resolve("test"));
    List<long[]> testNeg = pairs(pairsDir.resolve("test-negatives"));
    assertEquals(test.size(), testNeg.size());
    assertEquals(pairs(pairsDir.resolve("val")).size(), pairs(pairsDir.resolve("val-negatives")).size());
    Set<List<Long>> all = new HashSet<>();
    long rows = 0;
    for (String line : Files.readAllLines(edges)) {
      if (!line.startsWith("#") && !line.isBlank()) {
        String[] f = line.split("\t");
        long s = Long.parseLong(f[0]);
        long d = Long.parseLong(f[1]);
        all.add(List.of(s, d));
        rows++;
        byte split = LinkSplit.ofPair(SEED, s, d, 0.05, 0.10);
        assertTrue(split == LinkSplit.TRAIN || split == LinkSplit.VAL || split == LinkSplit.TEST);
      }
    }
    assertEquals(rows, train.size() + test.size() + pairs(pairsDir.resolve("val")).size(), "every row once");
    for (int i = 0; i < test.size(); i++) {
      long[] p = test.get(i);
      long[] n = testNeg.get(i);
      assertEquals(LinkSplit.TEST, LinkSplit.ofPair(SEED, p[0], p[1], 0.05, 0.10));
      assertEquals(p[0], n[0], "a negative keeps its edge's source");
      assertFalse(all.contains(List.of(n[0], n[1])),
          "an evaluation negative is no edge: " + n[0] + " -> " + n[1]);
    }

    Path emb = work.resolve("pairs-embeddings");
    CliRun inf = CliRun.of("infer", "--local", "--edges", pairsDir.resolve("train").toString(), "--nodes",
        nodes.toString(), "--model", out.toString(), "--output", emb.toString(), "--workers", "3");
    assertEquals(0, inf.status(), inf.toString());
    Map<Long, float[]> z = org.yarngnn.io.table.EmbeddingTable.read(new Configuration(),
        new org.apache.hadoop.fs.Path(emb.toUri())).embeddings();
    float[] pos = new float[test.size()];
    float[] neg = new float[test.size()];
    for (int i = 0; i < pos.length; i++) {
      pos[i] = dot(z.get(test.get(i)[0]), z.get(test.get(i)[1]));
      neg[i] = dot(z.get(testNeg.get(i)[0]), z.get(testNeg.get(i)[1]));
    }
    Map<?, ?> best = (Map<?, ?>) TrainLocalTest.metrics(out).get("best");
    assertEquals(((Number) best.get("test_auc")).doubleValue(), org.yarngnn.compute.link.LinkMetrics.auc(pos, neg),
        1e-4, "test auc from infer's embeddings");
    assertEquals(((Number) best.get("test_ap")).doubleValue(),
        org.yarngnn.compute.link.LinkMetrics.averagePrecision(pos, neg), 1e-4, "test ap from infer's embeddings");

    CliRun again = train(work.resolve("pairs-model-2"), 1, 1, "--link-pairs", pairsDir.toString());
    assertEquals(2, again.status(), again.toString());
    assertTrue(again.err().contains(pairsDir.toString()) && again.err().contains("--overwrite"), again.err());
    assertFalse(Files.exists(work.resolve("pairs-model-2")), "nothing written");
  }

  private static float dot(float[] a, float[] b) {
    double s = 0;
    for (int c = 0; c < a.length; c++) {
      s += (double) a[c] * b[c];
    }
    return (float) s;
  }

  /** Refused before anything is written: exit 2, one line naming the cause, no output directory. */
  @Test
  void noTrainingEdgeLeftIsRefused() throws Exception {
    Path tiny = work.resolve("tiny");
    Files.createDirectories(tiny);
    Path tinyEdges = Files.writeString(tiny.resolve("edges.tsv"), "0\t1\n");
    Path tinyNodes = Files.writeString(tiny.resolve("nodes.tsv"), "0\t0\tnone\t1,0\n1\t0\tnone\t0,1\n");
    Path tinySpec = Files.writeString(tiny.resolve("spec.json"), "{\"format\": 1, \"layers\": [{\"type\": \"gcn\","
        + " \"in\": 2, \"out\": 2}], \"output\": {\"predict\": false}}");
    long seed = 1;
    while (LinkSplit.ofPair(seed, 0, 1, 0.0, 0.9) == LinkSplit.TRAIN) {
      seed++;
    }
    Path out = tiny.resolve("out");
    CliRun run = CliRun.of("train", "--local", "--task", "link", "--edges", tinyEdges.toString(), "--nodes",
        tinyNodes.toString(), "--model-spec", tinySpec.toString(), "--output", out.toString(), "--epochs", "2",
        "--link-split", "0,0.9", "--seed", Long.toString(seed));
    assertEquals(2, run.status(), run.toString());
    assertTrue(run.err().contains("no training edge"), run.toString());
    assertEquals(1, run.err().strip().lines().count(), "one line: " + run.err());
    assertFalse(Files.exists(out), "nothing written");
  }
}
