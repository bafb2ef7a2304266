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
 * {@code train}'s inputs that used to fail late: a spec too wide to hold is refused before anything is allocated,
 * naming the layer (exit 2); a learning rate that makes the loss non-finite stops the run at that epoch (exit 1)
 * instead of training on with NaN. Neither leaves anything at or beside the output.
 */
class TrainInputsTest {
  /** A two-layer gcn over 8 features and 4 classes, {@code %d} wide in the middle, predicting or not. */
  static final String SPEC = "{\"format\": 1, \"input\": {\"normalize\": \"none\"}, \"layers\": ["
      + "{\"type\": \"gcn\", \"in\": 8, \"out\": %1$d, \"activation\": \"relu\", \"bias\": true},"
      + "{\"type\": \"gcn\", \"in\": %1$d, \"out\": 4, \"activation\": \"none\", \"bias\": true}],"
      + " \"output\": {\"normalize\": \"none\", \"predict\": %2$s}}";

  @TempDir static Path work;
  static Path tables;

  @BeforeAll
  static void setUp() {
    tables = work.resolve("sbm");
    CliRun gen = CliRun.of("generate", "--type", "sbm", "--nodes", "300", "--features", "8", "--classes", "4",
        "--files", "1", "--output", tables.toString());
    assertEquals(0, gen.status(), gen::toString);
  }

  private static CliRun train(String task, long width, Path out, String... extra) throws Exception {
    Path spec = Files.writeString(work.resolve(out.getFileName() + "-spec.json"),
        String.format(SPEC, width, task.equals("classify")));
    List<String> a = new java.util.ArrayList<>(List.of("train", "--local", "--task", task, "--edges",
        tables.resolve("edges").toString(), "--nodes", tables.resolve("nodes").toString(), "--model-spec",
        spec.toString(), "--output", out.toString()));
    a.addAll(List.of(extra));
    return CliRun.of(a.toArray(new String[0]));
  }

  /** One line on stderr, no stack trace, nothing at {@code out} nor a work directory beside it. */
  private static void assertOneLineNothingLeft(CliRun run, Path out) throws Exception {
    assertEquals(1, run.err().strip().lines().count(), () -> "one line: " + run);
    assertFalse(run.err().contains("\tat "), run::toString);
    assertFalse(Files.exists(out), run::toString);
    try (var siblings = Files.list(work)) {
      assertFalse(siblings.anyMatch(p -> p.getFileName().toString().startsWith("." + out.getFileName())),
          () -> "a work directory was left\n" + run);
    }
  }

  @Test
  void aWidthWhoseTensorOverflowsAnIntIsRefusedNamingTheLayer() throws Exception {
    Path out = work.resolve("overflow");
    // 8 x 300,000,000 weights: more than an int counts.
    CliRun run = train("classify", 300_000_000, out, "--epochs", "2");
    assertEquals(2, run.status(), run::toString);
    assertTrue(run.err().contains("layer 0 (gcn)") && run.err().contains("2,400,000,000 values"), run::toString);
    assertOneLineNothingLeft(run, out);
  }

  @Test
  void aSpecFarBeyondTheHeapIsRefusedBeforeAllocating() throws Exception {
    Path out = work.resolve("beyond");
    long maxMb = Runtime.getRuntime().maxMemory() >> 20;
    // 300 nodes of 50,000,000-wide rows: about 60 GB per layer's rows alone.
    assertTrue(maxMb < 30_000, "this test needs a heap well under the job's estimate, not " + maxMb + " MB");
    CliRun run = train("classify", 50_000_000, out, "--epochs", "2");
    assertEquals(2, run.status(), run::toString);
    assertTrue(run.err().contains("layer 0 (gcn, in 8, out 50000000)") && run.err().contains("-Xmx")
        && run.err().contains("the --dry-run estimate"), run::toString);
    assertOneLineNothingLeft(run, out);
  }

  @Test
  void aDivergingLossStopsTheRunNamingTheEpoch() throws Exception {
    // The workers find the non-finite loss (the wire refuses one) and fail: in synchronous epochs, in asynchronous
    // ones, and when a tensor worker computed the loss.
    for (String task : List.of("classify", "link", "classify --staleness 1",
        "classify --tensor-backend remote --tensor-workers 1")) {
      String[] words = task.split(" ");
      Path out = work.resolve(String.join("", words).replace("--", "-") + "-diverging");
      List<String> args = new ArrayList<>(List.of("--epochs", "20", "--lr", "1e30", "--dropout", "0"));
      args.addAll(List.of(words).subList(1, words.length));
      CliRun run = train(words[0], 16, out, args.toArray(new String[0]));
      assertEquals(1, run.status(), () -> task + "\n" + run);
      assertTrue(run.err().matches("(?s).*loss became (NaN|infinite) at epoch \\d+.*--lr.*"), () -> task + "\n" + run);
      assertOneLineNothingLeft(run, out);
    }
  }
}
