package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;

/**
 * Cora plus one edge whose source (or destination) has no node row: refused through the CLI with exit 2 and one
 * line naming edges.tsv and the edge's row, whatever the worker count, the ownership, the edge reading and
 * whether the model's sampling would ever ask for the row (sage with fanout 1 or 2); and by the partition job
 * alike.
 */
class DanglingEndpointTest {
  /** Not a Cora node id (Cora's are 0..2707); 1358 is one. */
  private static final long MISSING = 5000;

  @TempDir static Path dir;
  static Path nodes;
  static Path gcn;
  static Path sage1;
  static Path sage2;
  /** The appended edge's row (its line in edges.tsv, the header comment counted). */
  static long row;

  @BeforeAll
  static void models() throws Exception {
    Path cora = SharedData.planetoid("cora");
    nodes = cora.resolve("nodes.tsv.gz");
    row = Files.readAllLines(cora.resolve("edges.tsv")).size() + 1;
    gcn = model("gcn", LayerSpec.gcn(1433, 16, Activation.RELU, true), LayerSpec.gcn(16, 7, Activation.NONE, true));
    sage1 = model("sage1", LayerSpec.sage(1433, 16, Activation.RELU, true, 1),
        LayerSpec.sage(16, 7, Activation.NONE, true, 1));
    sage2 = model("sage2", LayerSpec.sage(1433, 16, Activation.RELU, true, 2),
        LayerSpec.sage(16, 7, Activation.NONE, true, 2));
  }

  private static Path model(String name, LayerSpec... layers) throws Exception {
    Path m = dir.resolve(name);
    ModelDirectory.write(RandomModels.random(new ModelSpec("none", List.of(layers), "none", false), 7), m);
    return m;
  }

  /** Cora's edges plus {@code src -> dst}, in a folder of its own named {@code name}. */
  private static Path edges(String name, long src, long dst) throws Exception {
    Path folder = Files.createDirectories(dir.resolve(name));
    Path p = folder.resolve("edges.tsv");
    if (!Files.exists(p)) {
      List<String> lines = new ArrayList<>(Files.readAllLines(SharedData.planetoid("cora").resolve("edges.tsv")));
      lines.add(src + "\t" + dst);
      Files.write(p, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return p;
  }

  private static Path danglingSource() throws Exception {
    return edges("src", MISSING, 1358);
  }

  private static Path danglingDestination() throws Exception {
    return edges("dst", 1358, MISSING);
  }

  private static void refused(CliRun run, Path out, String column) {
    assertEquals(2, run.status(), run.toString());
    String msg = run.err().trim();
    assertEquals(1, msg.lines().count(), "one line: " + msg);
    assertTrue(msg.contains("edges.tsv:" + row + ": " + column + " " + MISSING + " has no row in the nodes table"),
        "names edges.tsv, row " + row + " and the " + column + ": " + msg);
    assertFalse(Files.exists(out.resolve("_SUCCESS")), "no _SUCCESS");
  }

  private static void infer(Path edges, Path model, int workers, String ownership, String column)
      throws Exception {
    infer(edges, model, workers, ownership, "auto", column);
  }

  private static void infer(Path edges, Path model, int workers, String ownership, String edgeReading,
      String column) throws Exception {
    Path out = dir.resolve("out-" + column + "-" + model.getFileName() + "-" + workers + "-" + ownership + "-"
        + edgeReading);
    CliRun run = CliRun.of("infer", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(), "--model",
        model.toString(), "--output", out.toString(), "--workers", Integer.toString(workers), "--ownership",
        ownership, "--edge-reading", edgeReading);
    refused(run, out, column);
  }

  /** Edges routed to their owners (share) and every worker reading them all (all), from two workers on. */
  private static List<String> edgeReadings(int workers) {
    return workers == 1 ? List.of("auto") : List.of("share", "all");
  }

  @Test
  void danglingSourceRefusedForAnyWorkersOwnershipAndEdgeReading() throws Exception {
    for (int workers = 1; workers <= 3; workers++) {
      for (String ownership : List.of("range", "hash")) {
        for (String reading : edgeReadings(workers)) {
          infer(danglingSource(), gcn, workers, ownership, reading, "src");
        }
      }
    }
  }

  @Test
  void danglingDestinationRefusedForAnyWorkersOwnershipAndEdgeReading() throws Exception {
    for (int workers = 1; workers <= 3; workers++) {
      for (String ownership : List.of("range", "hash")) {
        for (String reading : edgeReadings(workers)) {
          infer(danglingDestination(), gcn, workers, ownership, reading, "dst");
        }
      }
    }
  }

  @Test
  void danglingSourceRefusedWhenSamplingNeverAsks() throws Exception {
    for (Path model : List.of(sage1, sage2)) {
      for (int workers = 1; workers <= 3; workers++) {
        infer(danglingSource(), model, workers, "hash", "src");
      }
      infer(danglingSource(), model, 2, "range", "src");
      infer(danglingDestination(), model, 3, "hash", "dst");
    }
  }

  @Test
  void zeroMissingFeaturesStillAccepted() throws Exception {
    for (int workers = 2; workers <= 3; workers++) {
      Path out = dir.resolve("out-zero-" + workers);
      CliRun run = CliRun.of("infer", "--local", "--edges", danglingSource().toString(), "--nodes",
          nodes.toString(), "--model", gcn.toString(), "--output", out.toString(), "--workers",
          Integer.toString(workers), "--ownership", "hash", "--missing-features", "zero");
      assertEquals(0, run.status(), run.toString());
      assertTrue(run.out().contains("2,709 embeddings"), run.toString());
    }
  }

  @Test
  void partitionJobRefusesBoth() throws Exception {
    for (String column : List.of("src", "dst")) {
      Path edges = column.equals("src") ? danglingSource() : danglingDestination();
      for (String ownership : List.of("range", "hash")) {
        Path out = dir.resolve("graph-" + column + "-" + ownership);
        CliRun run = CliRun.of("partition", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(),
            "--output", out.toString(), "--partitions", "3", "--ownership", ownership);
        refused(run, out, column);
      }
    }
  }
}
