package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.RandomModels;

/**
 * {@code --metrics FILE} on Cora with {@code --local}: a JSON summary (command, seconds, the graph's size, phase
 * seconds, bytes exchanged, peak heap, one entry per worker; for train also its metrics.json under "training")
 * lands at FILE; the output directory keeps only its contract's files; a FILE inside the output is refused with
 * exit 2 and nothing written.
 */
class RunMetricsTest {
  @TempDir static Path work;
  static Path edges;
  static Path nodes;

  @BeforeAll
  static void setUp() {
    edges = SharedData.planetoid("cora").resolve("edges.tsv");
    nodes = SharedData.planetoid("cora").resolve("nodes.tsv.gz");
  }

  static Map<?, ?> read(Path file) throws Exception {
    return (Map<?, ?>) Json.parse(Files.readString(file));
  }

  /** The visible files of {@code dir} (the local FileSystem's .crc companions left out). */
  static Set<String> names(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).collect(Collectors.toSet());
    }
  }

  @Test
  void inferWritesTheSummaryBesideItsOutput() throws Exception {
    Path model = work.resolve("model");
    ModelDirectory.write(RandomModels.random(CoraLocalInferenceTest.gcnSpec(), 3), model);
    Path out = work.resolve("emb");
    Path file = work.resolve("summaries").resolve("infer.json");
    CliRun run = CliRun.of("infer", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(), "--model",
        model.toString(), "--output", out.toString(), "--workers", "2", "--metrics", file.toString());
    assertEquals(0, run.status(), run.toString());
    Map<?, ?> m = read(file);
    assertEquals("infer", m.get("command"));
    assertEquals(2L, ((Number) m.get("workers")).longValue());
    Map<?, ?> graph = (Map<?, ?>) m.get("graph");
    assertEquals(2708L, ((Number) graph.get("nodes")).longValue(), m.toString());
    assertEquals(10556L, ((Number) graph.get("edges")).longValue(), m.toString());
    assertTrue(((Number) graph.get("halo_rows")).longValue() > 0, m.toString());
    assertTrue(((Number) ((Map<?, ?>) m.get("bytes_exchanged")).get("sent")).longValue() > 0, m.toString());
    assertTrue(((Map<?, ?>) m.get("phase_seconds")).keySet().stream().anyMatch(k -> k.toString().startsWith("layer")),
        m.toString());
    assertEquals(2, ((List<?>) m.get("per_worker")).size());
    assertTrue(((Number) m.get("peak_heap_bytes")).longValue() > 0);
    assertTrue(names(out).stream().allMatch(n -> n.equals("_SUCCESS") || n.startsWith("part-")), names(out)
        .toString());
    try (Stream<Path> s = Files.list(file.getParent())) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().contains(".tmp-")), "no temporary file left");
    }
    assertEquals(Set.of("infer.json"), names(file.getParent()));
  }

  @Test
  void trainWritesItsEpochsInTheSummary() throws Exception {
    Path spec = Files.writeString(work.resolve("spec.json"), TrainLocalTest.SPEC);
    Path out = work.resolve("trained");
    Path file = work.resolve("train.json");
    CliRun run = CliRun.of("train", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(),
        "--model-spec", spec.toString(), "--output", out.toString(), "--workers", "2", "--epochs", "3",
        "--metrics", file.toString());
    assertEquals(0, run.status(), run.toString());
    Map<?, ?> m = read(file);
    assertEquals("train", m.get("command"));
    Map<?, ?> training = (Map<?, ?>) m.get("training");
    assertEquals(3, ((List<?>) training.get("epochs")).size(), m.toString());
    assertEquals(Set.of("_SUCCESS", "model.json", "weights.safetensors", "metrics.json"), names(out));
  }

  @Test
  void aSummaryInsideTheOutputIsRefused() throws Exception {
    Path spec = Files.writeString(work.resolve("spec2.json"), TrainLocalTest.SPEC);
    Path out = work.resolve("refused");
    CliRun run = CliRun.of("train", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(),
        "--model-spec", spec.toString(), "--output", out.toString(), "--epochs", "1", "--metrics",
        out.resolve("m.json").toString());
    assertEquals(2, run.status(), run.toString());
    assertTrue(run.err().contains("--metrics") && run.err().contains("inside --output"), run.toString());
    assertEquals(1, run.err().strip().lines().count(), run.err());
    assertFalse(Files.exists(out));
  }
}
