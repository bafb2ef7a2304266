package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.RandomModels;

/**
 * {@code --dry-run} on Cora: the checks of a real run (a model of the wrong input width exits 2), then the plan
 * (the tables' rows and widths, the model, the workers, a memory figure; for train the tensor backend), and
 * nothing written: no output directory, no work directory.
 */
class DryRunTest {
  @TempDir static Path work;

  static final Path EDGES = SharedData.planetoid("cora").resolve("edges.tsv");
  static final Path NODES = SharedData.planetoid("cora").resolve("nodes.tsv.gz");

  @Test
  void inferPrintsThePlanAndWritesNothing() throws Exception {
    Path model = work.resolve("model");
    ModelDirectory.write(RandomModels.random(CoraLocalInferenceTest.gcnSpec(), 1), model);
    Path out = work.resolve("out");
    CliRun run = CliRun.of("infer", "--local", "--dry-run", "--edges", EDGES.toString(), "--nodes",
        NODES.toString(), "--model", model.toString(), "--output", out.toString(), "--workers", "2");
    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("dry run") && run.out().contains("of 1433 features")
        && run.out().contains("2 graph workers") && run.out().contains("MB of heap per graph worker"), run.out());
    assertFalse(Files.exists(out), "nothing written");
    try (var files = Files.list(work)) {
      assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith(".out")), "no work directory");
    }
  }

  @Test
  void trainPrintsTheTensorBackendAndABadSpecStillExitsTwo() throws Exception {
    Path spec = Files.writeString(work.resolve("spec.json"), TrainLocalTest.SPEC);
    Path out = work.resolve("model-out");
    CliRun run = CliRun.of("train", "--local", "--dry-run", "--edges", EDGES.toString(), "--nodes",
        NODES.toString(), "--model-spec", spec.toString(), "--output", out.toString(), "--tensor-backend", "remote",
        "--tensor-workers", "3");
    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("3 tensor workers") && run.out().contains("parameter server"), run.out());
    assertFalse(Files.exists(out));
    Path wide = Files.writeString(work.resolve("wide.json"), TrainLocalTest.SPEC.replace("\"in\": 1433", "\"in\": 99"));
    CliRun bad = CliRun.of("train", "--local", "--dry-run", "--edges", EDGES.toString(), "--nodes",
        NODES.toString(), "--model-spec", wide.toString(), "--output", out.toString());
    assertEquals(2, bad.status(), bad.toString());
    assertFalse(Files.exists(out));
  }

  /** partition: --dry-run writes nothing; --metrics gets the partition statistics of the real run. */
  @Test
  void partitionDryRunAndMetrics() throws Exception {
    Path out = work.resolve("graph");
    CliRun dry = CliRun.of("partition", "--local", "--dry-run", "--edges", EDGES.toString(), "--nodes",
        NODES.toString(), "--output", out.toString(), "--partitions", "2");
    assertEquals(0, dry.status(), dry.toString());
    assertTrue(dry.out().contains("dry run") && dry.out().contains("2 partitions"), dry.out());
    assertFalse(Files.exists(out));
    Path file = work.resolve("partition.json");
    CliRun run = CliRun.of("partition", "--local", "--edges", EDGES.toString(), "--nodes", NODES.toString(),
        "--output", out.toString(), "--partitions", "2", "--metrics", file.toString());
    assertEquals(0, run.status(), run.toString());
    java.util.Map<?, ?> m = (java.util.Map<?, ?>) org.yarngnn.compute.json.Json.parse(Files.readString(file));
    assertEquals("partition", m.get("command"));
    java.util.Map<?, ?> stats = (java.util.Map<?, ?>) m.get("partitioning");
    assertEquals(2708L, ((Number) stats.get("nodes")).longValue(), m.toString());
    assertEquals(2, ((java.util.List<?>) stats.get("partitions")).size(), m.toString());
  }
}
