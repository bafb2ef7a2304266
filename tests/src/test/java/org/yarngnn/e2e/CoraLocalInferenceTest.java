package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.io.table.EmbeddingTable;

/**
 * {@code infer --local} on Cora's text files as shipped, for a gcn, a sage (with sampling) and a gat model,
 * against {@link ContractReference}; then the same through {@code import} to Parquet; and ORC output.
 */
class CoraLocalInferenceTest {
  static final double TOLERANCE = 1e-4;

  @TempDir static Path work;
  static ContractReference.Graph cora;
  static Path coraDir;

  @BeforeAll
  static void load() throws Exception {
    coraDir = SharedData.planetoid("cora");
    cora = SharedData.loadPlanetoid(coraDir, false);
  }

  static ModelSpec gcnSpec() {
    return new ModelSpec("row", List.of(
        LayerSpec.gcn(1433, 16, Activation.RELU, true),
        LayerSpec.gcn(16, 7, Activation.NONE, true)), "none", true);
  }

  static ModelSpec sageSpec() {
    return new ModelSpec("none", List.of(
        LayerSpec.sage(1433, 32, Activation.RELU, true, 5),
        LayerSpec.sage(32, 48, Activation.TANH, false, -1),
        LayerSpec.sage(48, 16, Activation.NONE, true, 3)), "l2", false);
  }

  static ModelSpec gatSpec() {
    return new ModelSpec("row", List.of(
        LayerSpec.gat(1433, 8, 4, true, 0.2f, Activation.ELU, true),
        LayerSpec.gat(32, 7, 3, false, 0.1f, Activation.NONE, true)), "none", true);
  }

  static Path writeModel(String name, ModelSpec spec, long seed) throws Exception {
    Path dir = work.resolve("models").resolve(name);
    ModelDirectory.write(RandomModels.random(spec, seed), dir);
    return dir;
  }

  @Test
  void gcnMatchesReference() throws Exception {
    checkText("gcn", gcnSpec(), 0);
  }

  @Test
  void sageWithSamplingMatchesReference() throws Exception {
    checkText("sage", sageSpec(), 42);
  }

  @Test
  void gatMatchesReference() throws Exception {
    checkText("gat", gatSpec(), 7);
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({"2, off, on, auto, share", "3, off, off, range, all",
      "4, on, off, hash, auto", "5, on, on, auto, auto"})
  void severalLocalWorkersMatchTheReference(int workers, String pipelining, String fusion, String ownership,
      String edgeReading) throws Exception {
    String[] extra = {"--workers", Integer.toString(workers), "--pipelining", pipelining, "--fusion", fusion,
        "--chunk-rows", "97", "--ownership", ownership, "--edge-reading", edgeReading};
    checkText("gcn-w" + workers, gcnSpec(), 0, extra);
    checkText("sage-w" + workers, sageSpec(), 42, extra);
    checkText("gat-w" + workers, gatSpec(), 7, extra);
  }

  private void checkText(String name, ModelSpec spec, long seed, String... extra) throws Exception {
    Path model = writeModel(name, spec, 1000 + seed);
    Path out = work.resolve("out-" + name);
    List<String> args = new java.util.ArrayList<>(List.of("infer", "--local", "--edges",
        coraDir.resolve("edges.tsv").toString(), "--nodes", coraDir.resolve("nodes.tsv.gz").toString(),
        "--model", model.toString(), "--output", out.toString(), "--seed", Long.toString(seed)));
    args.addAll(List.of(extra));
    CliRun run = CliRun.of(args.toArray(new String[0]));
    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("2,708 embeddings"), run.toString());
    // The construction's statistics: per partition, and the edge balance.
    String printed = run.out() + run.err();
    assertTrue(printed.contains("edge balance max/mean"), run.toString());
    int workers = args.contains("--workers") ? Integer.parseInt(args.get(args.indexOf("--workers") + 1)) : 1;
    assertTrue(printed.contains("partition " + (workers - 1) + ": "), run.toString());
    // Local workers exchange their halo rows over loopback sockets, as containers do: every worker received some.
    if (workers > 1) {
      assertEquals(workers, printed.split("bytesReceived=[1-9]", -1).length - 1, printed);
    }
    compare(ModelDirectory.read(model), seed, out);
  }

  /**
   * More local workers than nodes: the first workers own empty runs of the one id and the last owns it all; the
   * empty ones still take part in every layer's exchange.
   */
  @Test
  void moreLocalWorkersThanNodes() throws Exception {
    Path dir = work.resolve("one-node");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("nodes.tsv"), "0\t0.5,1.5\n");
    Files.writeString(dir.resolve("edges.tsv"), "0\t0\n");
    Path model = writeModel("one-node", new ModelSpec("none", List.of(LayerSpec.gcn(2, 4, Activation.RELU, true),
        LayerSpec.gcn(4, 3, Activation.NONE, true)), "none", false), 5);
    for (String workers : new String[] {"2", "3"}) {
      CliRun run = CliRun.of("infer", "--local", "--workers", workers, "--ownership", "range", "--edge-reading",
          "all", "--pipelining", "off", "--edges", dir.resolve("edges.tsv").toString(), "--nodes",
          dir.resolve("nodes.tsv").toString(), "--model", model.toString(), "--output",
          work.resolve("one-node-out-" + workers).toString());
      assertEquals(0, run.status(), run.toString());
      assertTrue(run.out().contains("wrote 1 embeddings"), run.toString());
    }
  }

  @Test
  void importedParquetGivesTheSameEmbeddings() throws Exception {
    Path tables = work.resolve("cora-parquet");
    CliRun imp = CliRun.of("import", "--edges", coraDir.resolve("edges.tsv").toString(),
        "--nodes", coraDir.resolve("nodes.tsv.gz").toString(), "--output", tables.toString());
    assertEquals(0, imp.status(), imp.toString());
    Path model = writeModel("sage-parquet", sageSpec(), 5);
    Path out = work.resolve("out-parquet");
    CliRun run = CliRun.of("infer", "--edges", tables.resolve("edges").toString(),
        "--nodes", tables.resolve("nodes").toString(), "--model", model.toString(),
        "--output", out.toString(), "--seed", "3", "--local");
    assertEquals(0, run.status(), run.toString());
    compare(ModelDirectory.read(model), 3, out);
    // Two local workers that each read the whole Parquet edge table and keep their share of it: the same
    // embeddings.
    Path out2 = work.resolve("out-parquet-w2");
    CliRun two = CliRun.of("infer", "--edges", tables.resolve("edges").toString(),
        "--nodes", tables.resolve("nodes").toString(), "--model", model.toString(),
        "--output", out2.toString(), "--seed", "3", "--local", "--workers", "2", "--edge-reading", "all");
    assertEquals(0, two.status(), two.toString());
    String printed = two.out() + two.err();
    assertTrue(printed.contains("worker 0 stats:") && printed.contains("worker 1 stats:"), two.toString());
    compare(ModelDirectory.read(model), 3, out2);
  }

  @Test
  void orcOutputReadsBack() throws Exception {
    Path model = writeModel("gcn-orc", gcnSpec(), 11);
    Path out = work.resolve("out-orc");
    CliRun run = CliRun.of("infer", "--local", "--edges", coraDir.resolve("edges.tsv").toString(),
        "--nodes", coraDir.resolve("nodes.tsv.gz").toString(), "--model", model.toString(),
        "--output", out.toString(), "--output-format", "orc");
    assertEquals(0, run.status(), run.toString());
    try (var files = Files.list(out)) {
      assertTrue(files.anyMatch(f -> f.getFileName().toString().endsWith(".orc")));
    }
    compare(ModelDirectory.read(model), 0, out);
  }

  /** Every node exactly once, embeddings within relative 1e-4 of the reference, predictions = argmax. */
  static void compare(Model model, long seed, Path out) throws Exception {
    assertTrue(Files.exists(out.resolve("_SUCCESS")), "no _SUCCESS in " + out);
    EmbeddingTable table = EmbeddingTable.read(new Configuration(), new org.apache.hadoop.fs.Path(out.toUri()));
    Map<Long, float[]> got = table.embeddings();
    assertEquals(cora.ids.length, got.size(), "every node exactly once");
    assertEquals(cora.ids.length, table.size(), "no node twice (a duplicate id fails the read)");
    double[][] want = new ContractReference(model.spec(), model.weights(), new ReferenceSampler()).infer(cora, seed);
    for (int i = 0; i < cora.ids.length; i++) {
      float[] row = got.get(cora.ids[i]);
      assertEquals(want[i].length, row.length);
      double scale = 0;
      for (double v : want[i]) {
        scale = Math.max(scale, Math.abs(v));
      }
      for (int c = 0; c < row.length; c++) {
        double err = Math.abs(row[c] - want[i][c]);
        if (err > TOLERANCE * Math.max(Math.abs(want[i][c]), scale) + 1e-7) {
          throw new AssertionError("node " + cora.ids[i] + " column " + c + ": got " + row[c] + ", want "
              + want[i][c]);
        }
      }
      if (model.spec().predict()) {
        int best = 0;
        for (int c = 1; c < want[i].length; c++) {
          if (want[i][c] > want[i][best]) {
            best = c;
          }
        }
        // Ties within float rounding may pick either; only a clear winner is checked.
        double margin = Math.abs(want[i][best] - want[i][table.predictions().get(cora.ids[i])]);
        assertTrue(margin <= 1e-4 * Math.max(1, scale), "prediction of node " + cora.ids[i]);
      } else {
        assertFalse(table.hasPredictions());
      }
    }
  }
}
