package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A learning rate that makes the loss non-finite stops the run at that epoch (exit 1, naming the epoch and the
 * option to change) instead of training on with NaN; nothing is written to the model directory.
 */
class TrainDivergenceTest {
  static final String SPEC = "{\"format\": 1, \"input\": {\"normalize\": \"none\"}, \"layers\": ["
      + "{\"type\": \"gcn\", \"in\": 8, \"out\": 16, \"activation\": \"relu\", \"bias\": true},"
      + "{\"type\": \"gcn\", \"in\": 16, \"out\": 4, \"activation\": \"none\", \"bias\": true}],"
      + " \"output\": {\"normalize\": \"none\", \"predict\": %s}}";

  @TempDir static Path work;
  static Path tables;

  @BeforeAll
  static void setUp() {
    tables = work.resolve("sbm");
    CliRun gen = CliRun.of("generate", "--type", "sbm", "--nodes", "300", "--features", "8", "--classes", "4",
        "--files", "1", "--output", tables.toString());
    assertEquals(0, gen.status(), gen::toString);
  }

  private static CliRun train(String task, Path out) throws Exception {
    Path spec = Files.writeString(work.resolve(task + "-spec.json"), String.format(SPEC, task.equals("classify")));
    List<String> a = new ArrayList<>(List.of("train", "--local", "--task", task, "--edges",
        tables.resolve("edges").toString(), "--nodes", tables.resolve("nodes").toString(), "--model-spec",
        spec.toString(), "--output", out.toString(), "--epochs", "20", "--lr", "1e30", "--dropout", "0"));
    return CliRun.of(a.toArray(new String[0]));
  }

  @Test
  void aDivergingLossStopsTheRunNamingTheEpoch() throws Exception {
    for (String task : List.of("classify", "link")) {
      Path out = work.resolve(task + "-model");
      CliRun run = train(task, out);
      assertEquals(1, run.status(), () -> task + "\n" + run);
      assertTrue(run.err().matches("(?s).*loss became (NaN|infinite) at epoch \\d+.*--lr.*"), () -> task + "\n" + run);
      assertEquals(1, run.err().strip().lines().count(), () -> "one line: " + run);
      assertFalse(run.err().contains("\tat "), run::toString);
      assertFalse(Files.exists(out), () -> task + ": nothing committed\n" + run);
      try (var siblings = Files.list(work)) {
        assertFalse(siblings.anyMatch(p -> p.getFileName().toString().startsWith("." + out.getFileName())),
            () -> task + ": a work directory was left\n" + run);
      }
    }
  }
}
