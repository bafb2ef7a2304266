package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.ModelFormat;
import org.yarngnn.compute.train.FullGraphTrainer;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.EmbeddingTable;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.GraphBuildOptions;
import org.yarngnn.partition.GraphBuilder;
import org.yarngnn.partition.LocalGraph;

/**
 * {@code train --local} on Cora through the CLI: the per-epoch losses (dropout on) are the same for 1, 2 and 3
 * workers and equal the single-JVM {@link FullGraphTrainer}'s; Kipf's 2-layer GCN reaches 81% test accuracy, and
 * {@code infer} with the written model reproduces it exactly from its prediction column.
 */
class TrainLocalTest {
  static final String SPEC = "{\"format\": 1, \"input\": {\"normalize\": \"row\"}, \"layers\": ["
      + "{\"type\": \"gcn\", \"in\": 1433, \"out\": 16, \"activation\": \"relu\", \"bias\": true},"
      + "{\"type\": \"gcn\", \"in\": 16, \"out\": 7, \"activation\": \"none\", \"bias\": true}],"
      + " \"output\": {\"normalize\": \"none\", \"predict\": true}}";

  @TempDir static Path work;
  static Path edges;
  static Path nodes;
  static Path spec;

  @BeforeAll
  static void setUp() throws Exception {
    edges = SharedData.planetoid("cora").resolve("edges.tsv");
    nodes = SharedData.planetoid("cora").resolve("nodes.tsv.gz");
    spec = Files.writeString(work.resolve("spec.json"), SPEC);
  }

  static CliRun train(Path out, int workers, int epochs, String... extra) {
    CliRun run = CliRun.of(trainArgs(out, workers, epochs, extra));
    System.out.print(run.out());
    System.err.print(run.err());
    return run;
  }

  /** The CLI arguments {@link #train} runs. */
  static String[] trainArgs(Path out, int workers, int epochs, String... extra) {
    List<String> a = new ArrayList<>(List.of("train", "--local", "--edges", edges.toString(), "--nodes",
        nodes.toString(), "--model-spec", spec.toString(), "--output", out.toString(), "--workers",
        Integer.toString(workers), "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1"));
    a.addAll(List.of(extra));
    return a.toArray(new String[0]);
  }

  static Map<?, ?> metrics(Path dir) throws Exception {
    return (Map<?, ?>) Json.parse(Files.readString(dir.resolve("metrics.json")));
  }

  static double[] losses(Map<?, ?> metrics) {
    List<?> epochs = (List<?>) metrics.get("epochs");
    double[] l = new double[epochs.size()];
    for (int i = 0; i < l.length; i++) {
      l[i] = ((Number) ((Map<?, ?>) epochs.get(i)).get("loss")).doubleValue();
    }
    return l;
  }

  static void assertSameLosses(double[] want, double[] got, String what) {
    assertEquals(want.length, got.length, what + ": epochs");
    for (int e = 0; e < want.length; e++) {
      assertEquals(want[e], got[e], 1e-4 * Math.abs(want[e]), what + ": loss of epoch " + (e + 1));
    }
  }

  /** The single-JVM trainer's losses for the same spec, options and seed, on the graph the product reads. */
  static double[] referenceLosses(int epochs) throws Exception {
    return reference(SPEC, epochs).epochs().stream().mapToDouble(FullGraphTrainer.Epoch::loss).toArray();
  }

  /**
   * The single-JVM trainer on the model spec {@code specJson} with the options {@link #train} gives the CLI (and
   * the CLI's defaults: lr 0.01, dropout 0.5), on the graph the product reads.
   */
  static FullGraphTrainer.Result reference(String specJson, int epochs) throws Exception {
    Configuration conf = new Configuration();
    LocalGraph g = GraphBuilder.build(EdgeTable.open(conf, edges.toString(), TableReadOptions.builder().build()),
        NodeTable.open(conf, nodes.toString(), TableReadOptions.builder().build()),
        GraphBuildOptions.builder().build());
    int n = g.block().numNodes();
    boolean[][] masks = new boolean[3][n];
    for (int r = 0; r < n; r++) {
      byte s = g.splits()[r];
      if (s != NodeSplit.NONE) {
        masks[s - 1][r] = true;
      }
    }
    ModelSpec ms = ModelFormat.parse(specJson, "spec.json");
    return FullGraphTrainer.train(ms, g.block(), g.features(), g.labels(), masks[0], masks[1], masks[2],
        FullGraphTrainer.Options.defaults().withEpochs(epochs).withLr(0.01).withWeightDecay(5e-4, false)
            .withDropout(0.5).withSeed(1));
  }

  @Test
  void lossesDoNotDependOnTheWorkersAndEqualTheSingleJvmTrainer() throws Exception {
    int epochs = 30;
    double[] want = referenceLosses(epochs);
    for (int workers = 1; workers <= 3; workers++) {
      Path out = work.resolve("parity-" + workers);
      CliRun run = train(out, workers, epochs);
      assertEquals(0, run.status(), run.toString());
      assertTrue(run.out().contains("yarn-gnn train: epoch 30 loss "), run.out());
      assertSameLosses(want, losses(metrics(out)), workers + " workers");
    }
    // From a partitioned graph (labels and splits come with the partitions' files).
    Path graph = work.resolve("cora-graph");
    CliRun part = CliRun.of("partition", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(),
        "--output", graph.toString(), "--partitions", "2");
    assertEquals(0, part.status(), part.toString());
    Path out = work.resolve("parity-graph");
    CliRun run = CliRun.of("train", "--local", "--graph", graph.toString(), "--model-spec", spec.toString(),
        "--output", out.toString(), "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1");
    assertEquals(0, run.status(), run.toString());
    assertSameLosses(want, losses(metrics(out)), "--graph, 2 partitions");
  }

  /** Test labels of Cora by node id, parsed plainly from nodes.tsv.gz. */
  static Map<Long, Integer> testLabels() throws Exception {
    Map<Long, Integer> m = new HashMap<>();
    try (InputStream in = new GZIPInputStream(Files.newInputStream(nodes));
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        String[] f = line.split("\t");
        if (!line.startsWith("#") && f.length == 4 && f[2].equals("test")) {
          m.put(Long.parseLong(f[0]), Integer.parseInt(f[1]));
        }
      }
    }
    return m;
  }

  /**
   * Kipf's gcn for 200 epochs through the CLI, and infer with the model it wrote. One seed, so its accuracy floor is
   * only a smoke check (published 0.815 minus five points): the trainer's accuracy is held to the published figure
   * over five seeds by compute's PlanetoidSeedsTest (profile accuracy), and this trainer's losses equal that one's
   * ({@link #lossesDoNotDependOnTheWorkersAndEqualTheSingleJvmTrainer}).
   */
  @Test
  void kipfGcnLearnsAndInferReproducesIt() throws Exception {
    Path out = work.resolve("gcn");
    CliRun run = train(out, 2, 200, "--lr", "0.01", "--dropout", "0.5");
    assertEquals(0, run.status(), run.toString());
    Map<?, ?> m = metrics(out);
    assertEquals(200, ((List<?>) m.get("epochs")).size());
    assertEquals(Long.valueOf(1), m.get("format"));
    Map<?, ?> best = (Map<?, ?>) m.get("best");
    double test = ((Number) best.get("test_accuracy")).doubleValue();
    System.out.println("Cora gcn through train --local: best epoch " + m.get("best_epoch") + " " + best);
    assertTrue(test >= 0.765, "Cora test accuracy " + test);
    Map<?, ?> cs = (Map<?, ?>) m.get("container_seconds");
    assertTrue(cs.containsKey("graph_workers") && cs.containsKey("tensor_workers"), cs.toString());
    assertTrue(Files.exists(out.resolve("_SUCCESS")) && Files.exists(out.resolve("weights.safetensors")));

    Path emb = work.resolve("gcn-infer");
    CliRun inf = CliRun.of("infer", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(), "--model",
        out.toString(), "--output", emb.toString(), "--workers", "3", "--seed", "1");
    assertEquals(0, inf.status(), inf.toString());
    Map<Long, Integer> pred = EmbeddingTable.read(new Configuration(), new org.apache.hadoop.fs.Path(emb.toUri()))
        .predictions();
    Map<Long, Integer> labels = testLabels();
    int correct = 0;
    for (Map.Entry<Long, Integer> e : labels.entrySet()) {
      correct += pred.get(e.getKey()).equals(e.getValue()) ? 1 : 0;
    }
    assertEquals(1000, labels.size());
    assertEquals(test, (double) correct / labels.size(), 1e-12, "infer's test accuracy equals the trainer's");
  }

  /** Each refused before anything is written: exit 2, one line, no output directory. */
  @Test
  void badInputExitsTwoAndWritesNothing() throws Exception {
    Path specDir = work.resolve("bad");
    Files.createDirectories(specDir);
    Path notPredict = Files.writeString(specDir.resolve("not-predict.json"), SPEC.replace("\"predict\": true",
        "\"predict\": false"));
    Path narrow = Files.writeString(specDir.resolve("narrow.json"), SPEC.replace("\"out\": 7", "\"out\": 5")
        .replace("\"in\": 16, \"out\": 5", "\"in\": 16, \"out\": 5"));
    Path wide = Files.writeString(specDir.resolve("wide.json"), SPEC.replace("1433", "1432"));
    Path withWeights = work.resolve("with-weights");
    Files.createDirectories(withWeights);
    Files.writeString(withWeights.resolve("model.json"), SPEC);
    Files.writeString(withWeights.resolve("weights.safetensors"), "x");
    Path tiny = work.resolve("tiny");
    Files.createDirectories(tiny);
    Path tinyNodes = Files.writeString(tiny.resolve("nodes.tsv"), "0\t1\tval\t1,0\n1\t0\tnone\t0,1\n");
    Path tinyEdges = Files.writeString(tiny.resolve("edges.tsv"), "0\t1\n1\t0\n");
    Path tinySpec = Files.writeString(tiny.resolve("spec.json"), "{\"format\": 1, \"layers\": [{\"type\": \"gcn\","
        + " \"in\": 2, \"out\": 2}], \"output\": {\"predict\": true}}");
    Object[][] cases = {
        {"not-predict", new String[] {"--model-spec", notPredict.toString()}, "predict"},
        {"narrow", new String[] {"--model-spec", narrow.toString()}, "label"},
        {"wide", new String[] {"--model-spec", wide.toString()}, "input width"},
        {"weights-beside", new String[] {"--model-spec", withWeights.resolve("model.json").toString()}, "weights"},
        {"weights-inside", new String[] {"--model-spec", withWeights.toString()}, "weights"},
        {"no-train", new String[] {"--edges", tinyEdges.toString(), "--nodes", tinyNodes.toString(), "--model-spec",
            tinySpec.toString()}, "train"},
        {"two-servers", new String[] {"--tensor-backend", "remote", "--parameter-servers", "2"}, "only 1"},
        {"stale-checkpoints", new String[] {"--staleness", "2", "--checkpoint-every", "1"}, "synchronous only"},
        {"resume-nothing", new String[] {"--resume", work.resolve("bad-out-resume-nothing").toString()},
            "no checkpoint"},
    };
    for (Object[] c : cases) {
      Path out = work.resolve("bad-out-" + c[0]);
      List<String> a = new ArrayList<>(List.of("train", "--local", "--edges", edges.toString(), "--nodes",
          nodes.toString(), "--model-spec", spec.toString(), "--output", out.toString(), "--epochs", "2"));
      String[] extra = (String[]) c[1];
      for (int i = 0; i < extra.length; i += 2) {
        int at = a.indexOf(extra[i]);
        if (at >= 0) {
          a.set(at + 1, extra[i + 1]);
        } else {
          a.add(extra[i]);
          a.add(extra[i + 1]);
        }
      }
      CliRun run = CliRun.of(a.toArray(new String[0]));
      assertEquals(2, run.status(), c[0] + ": " + run);
      assertTrue(run.err().contains((String) c[2]), c[0] + ": " + run);
      assertEquals(1, run.err().strip().lines().count(), c[0] + ": one line: " + run.err());
      assertFalse(Files.exists(out), c[0] + ": nothing written");
      assertFalse(Files.list(work).anyMatch(p -> p.getFileName().toString().startsWith(".bad-out-" + c[0])),
          c[0] + ": no work directory left");
    }
    CliRun inside = CliRun.of("train", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(),
        "--model-spec", spec.toString(), "--output", work.resolve("spec.json").resolve("out").toString());
    assertEquals(2, inside.status(), inside.toString());
  }
}
