package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.json.Json;

/**
 * {@code train --checkpoint-every} and {@code --resume} on Cora through the CLI: a 60-epoch run stopped after
 * epoch 50 (the test hook {@code -D yarngnn.test.stop-after-epoch=50} makes the driver fail right after that
 * epoch's checkpoint, exit 1, as a kill would: the work directory is gone, the checkpoint stays) and resumed
 * gives the losses and the weights of a run never stopped, bit for bit, and leaves nothing hidden beside its
 * output; a torn checkpoint, other options, or a fresh run over a stopped one's checkpoint exit 2.
 */
class TrainCheckpointTest {
  @TempDir static Path work;
  static Path edges;
  static Path nodes;
  static Path spec;

  @BeforeAll
  static void setUp() throws Exception {
    edges = SharedData.planetoid("cora").resolve("edges.tsv");
    nodes = SharedData.planetoid("cora").resolve("nodes.tsv.gz");
    spec = Files.writeString(work.resolve("spec.json"), TrainLocalTest.SPEC);
  }

  static List<String> args(int epochs, long seed, String... extra) {
    List<String> a = new ArrayList<>(List.of("train", "--local", "--edges", edges.toString(), "--nodes",
        nodes.toString(), "--model-spec", spec.toString(), "--workers", "2", "--epochs", Integer.toString(epochs),
        "--weight-decay", "5e-4", "--seed", Long.toString(seed)));
    a.addAll(List.of(extra));
    return a;
  }

  static CliRun run(List<String> a) {
    CliRun run = CliRun.of(a.toArray(new String[0]));
    System.out.print(run.out());
    System.err.print(run.err());
    return run;
  }

  /** Everything hidden beside {@code out}: work directories, old outputs, checkpoints. */
  static List<String> hidden(Path out) throws Exception {
    try (Stream<Path> s = Files.list(out.getParent())) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("." + out.getFileName() + "."))
          .sorted().toList();
    }
  }

  static Path checkpointDir(Path out) {
    return out.resolveSibling("." + out.getFileName() + ".yarn-gnn-checkpoint");
  }

  static List<?> epochs(Path out) throws Exception {
    return (List<?>) ((Map<?, ?>) Json.parse(Files.readString(out.resolve("metrics.json")))).get("epochs");
  }

  @Test
  void aStoppedRunResumedEqualsOneNeverStopped() throws Exception {
    Path whole = work.resolve("whole");
    CliRun w = run(args(60, 1, "--output", whole.toString()));
    assertEquals(0, w.status(), w.toString());

    Path out = work.resolve("stopped");
    CliRun stopped = run(args(60, 1, "--output", out.toString(), "--checkpoint-every", "10", "-D",
        "yarngnn.test.stop-after-epoch=50"));
    assertEquals(1, stopped.status(), stopped.toString());
    assertTrue(stopped.out().contains("yarn-gnn train: checkpoint of epoch 50 in "), stopped.out());
    assertFalse(stopped.out().contains("epoch 51 loss"), stopped.out());
    assertFalse(Files.exists(out));
    assertEquals(List.of("." + out.getFileName() + ".yarn-gnn-checkpoint"), hidden(out),
        "only the checkpoint is left, its work directory is gone");
    try (Stream<Path> s = Files.list(checkpointDir(out))) {
      List<String> files = s.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
      assertEquals(2, files.size(), files.toString());
      assertEquals("checkpoint-000050.json", files.get(0));
      assertTrue(files.get(1).startsWith("state-000050-") && files.get(1).endsWith(".safetensors"), files.toString());
    }

    // Refused, exit 2, one line, the checkpoint kept: another seed; a fresh run over the stopped one.
    CliRun seed = run(args(60, 2, "--resume", out.toString(), "--checkpoint-every", "10"));
    assertEquals(2, seed.status(), seed.toString());
    assertTrue(seed.err().contains("--seed 1, not 2"), seed.err());
    assertEquals(1, seed.err().strip().lines().count(), seed.err());
    CliRun fresh = run(args(60, 1, "--output", out.toString()));
    assertEquals(2, fresh.status(), fresh.toString());
    assertTrue(fresh.err().contains("--resume"), fresh.err());
    CliRun shrink = run(args(40, 1, "--resume", out.toString()));
    assertEquals(2, shrink.status(), shrink.toString());
    assertTrue(shrink.err().contains("--epochs 40"), shrink.err());
    assertEquals(List.of("." + out.getFileName() + ".yarn-gnn-checkpoint"), hidden(out));

    // --resume alone names the output.
    CliRun resumed = run(args(60, 1, "--resume", out.toString(), "--checkpoint-every", "10"));
    assertEquals(0, resumed.status(), resumed.toString());
    assertTrue(resumed.out().contains("yarn-gnn train: resuming after epoch 50 from "), resumed.out());
    assertFalse(resumed.out().contains("epoch 50 loss"), "epochs 1..50 are not run again: " + resumed.out());
    assertTrue(resumed.out().contains("epoch 51 loss"), resumed.out());
    assertTrue(Files.exists(out.resolve("_SUCCESS")));
    assertEquals(List.of(), hidden(out), "nothing hidden is left beside the output after the resume");

    List<?> want = epochs(whole);
    List<?> got = epochs(out);
    assertEquals(60, got.size());
    for (int e = 0; e < 60; e++) {
      Map<?, ?> a = (Map<?, ?>) want.get(e);
      Map<?, ?> b = (Map<?, ?>) got.get(e);
      assertEquals(Long.valueOf(e + 1), b.get("epoch"), "epochs in order");
      for (String k : List.of("loss", "train_accuracy", "val_accuracy", "test_accuracy")) {
        assertEquals(((Number) a.get(k)).doubleValue(), ((Number) b.get(k)).doubleValue(), 0.0,
            k + " of epoch " + (e + 1) + ", exactly");
      }
    }
    Map<?, ?> mw = (Map<?, ?>) Json.parse(Files.readString(whole.resolve("metrics.json")));
    Map<?, ?> mr = (Map<?, ?>) Json.parse(Files.readString(out.resolve("metrics.json")));
    assertEquals(mw.get("best_epoch"), mr.get("best_epoch"));
    assertEquals(mw.get("best"), mr.get("best"));
    assertArrayEquals(Files.readAllBytes(whole.resolve("weights.safetensors")),
        Files.readAllBytes(out.resolve("weights.safetensors")), "the written weights, byte for byte");
    assertArrayEquals(Files.readAllBytes(whole.resolve("model.json")), Files.readAllBytes(out.resolve("model.json")));
    System.out.println("resumed at 50 of 60: losses of epochs 1..60 and weights.safetensors equal the "
        + "uninterrupted run's exactly; epoch 60 loss " + ((Map<?, ?>) got.get(59)).get("loss"));

    // A finished run leaves no checkpoint to resume.
    CliRun again = run(args(80, 1, "--resume", out.toString(), "--overwrite"));
    assertEquals(2, again.status(), again.toString());
    assertTrue(again.err().contains("no checkpoint"), again.err());
  }

  @Test
  void aTornCheckpointExitsTwoNamingIt() throws Exception {
    Path out = work.resolve("torn");
    CliRun stopped = run(args(30, 1, "--output", out.toString(), "--checkpoint-every", "10", "-D",
        "yarngnn.test.stop-after-epoch=20"));
    assertEquals(1, stopped.status(), stopped.toString());
    Path state;
    try (Stream<Path> s = Files.list(checkpointDir(out))) {
      state = s.filter(p -> p.getFileName().toString().startsWith("state-000020-")).findFirst().orElseThrow();
    }
    try (RandomAccessFile f = new RandomAccessFile(state.toFile(), "rw")) {
      f.setLength(f.length() - 100);
    }
    CliRun torn = run(args(30, 1, "--resume", out.toString(), "--output", out.toString()));
    assertEquals(2, torn.status(), torn.toString());
    assertTrue(torn.err().contains(state.getFileName().toString()), torn.err());
    assertEquals(1, torn.err().strip().lines().count(), torn.err());
    assertFalse(Files.exists(out));
    // A fresh run with --overwrite discards the stopped run's checkpoint and leaves nothing hidden.
    CliRun fresh = run(args(12, 1, "--output", out.toString(), "--overwrite", "--checkpoint-every", "5"));
    assertEquals(0, fresh.status(), fresh.toString());
    assertEquals(12, epochs(out).size());
    assertEquals(List.of(), hidden(out));
  }
}
