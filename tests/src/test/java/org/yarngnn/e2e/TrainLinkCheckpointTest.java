package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.json.Json;

/**
 * {@code train --task link --checkpoint-every} and {@code --resume} on Cora through the CLI (the graph auto-encoder's
 * protocol of {@link TrainLinkLocalTest}, 2 workers): a 12-epoch run stopped after epoch 6 (the test hook {@code
 * yarngnn.test.stop-after-epoch}: exit 1 right after that epoch's checkpoint, as a kill would leave things) and
 * resumed gives the never-stopped run's metrics.json (every epoch's loss and validation figures, the best epoch and
 * its test figures) and weights, exactly; the same checkpoint resumed with {@code --epochs 6} runs no epoch and gives
 * a 6-epoch run's best epoch, test figures and weights, all taken from the checkpoint; a resume with other link
 * options exits 2; the resumed run's {@code --link-pairs} tables are the never-stopped run's.
 */
class TrainLinkCheckpointTest {
  @TempDir static Path work;

  @BeforeAll
  static void setUp() throws Exception {
    TrainLinkLocalTest.work = work;
    TrainLinkLocalTest.setUp();
  }

  static Map<?, ?> metrics(Path out) throws Exception {
    return (Map<?, ?>) Json.parse(Files.readString(out.resolve("metrics.json")));
  }

  /** metrics.json's epochs and best of two runs equal exactly, but for the seconds each epoch took. */
  static void assertSameRun(Path want, Path got, int epochs) throws Exception {
    Map<?, ?> a = metrics(want);
    Map<?, ?> b = metrics(got);
    List<?> ea = (List<?>) a.get("epochs");
    List<?> eb = (List<?>) b.get("epochs");
    assertEquals(epochs, eb.size(), got.toString());
    for (int e = 0; e < epochs; e++) {
      Map<?, ?> x = new java.util.LinkedHashMap<>((Map<?, ?>) ea.get(e));
      Map<?, ?> y = new java.util.LinkedHashMap<>((Map<?, ?>) eb.get(e));
      x.remove("seconds");
      y.remove("seconds");
      assertTrue(y.containsKey("loss") && y.containsKey("val_auc") && y.containsKey("val_hits@100"), y.toString());
      assertEquals(x, y, "epoch " + (e + 1) + "'s figures, exactly");
    }
    assertEquals(a.get("best_epoch"), b.get("best_epoch"));
    assertEquals(a.get("best"), b.get("best"), "the best epoch's validation and test figures, exactly");
    assertTrue(((Map<?, ?>) b.get("best")).get("test_auc") instanceof Number, b.toString());
    assertArrayEquals(Files.readAllBytes(want.resolve("weights.safetensors")),
        Files.readAllBytes(got.resolve("weights.safetensors")), "the best epoch's weights, byte for byte");
  }

  static void copyTree(Path from, Path to) throws Exception {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Files.copy(p, to.resolve(from.relativize(p).toString()));
      }
    }
  }

  @Test
  void aStoppedLinkRunResumedEqualsOneNeverStopped() throws Exception {
    Path whole = work.resolve("ck-whole");
    Path wholePairs = work.resolve("ck-whole-pairs");
    CliRun w = TrainLinkLocalTest.train(whole, 2, 12, "--link-pairs", wholePairs.toString());
    assertEquals(0, w.status(), w.toString());
    Path whole6 = work.resolve("ck-whole6");
    CliRun w6 = TrainLinkLocalTest.train(whole6, 2, 6);
    assertEquals(0, w6.status(), w6.toString());

    Path out = work.resolve("ck-stopped");
    Path pairs = work.resolve("ck-pairs");
    CliRun stopped = TrainLinkLocalTest.train(out, 2, 12, "--checkpoint-every", "3", "--link-pairs",
        pairs.toString(), "-D", "yarngnn.test.stop-after-epoch=6");
    assertEquals(1, stopped.status(), stopped.toString());
    assertFalse(Files.exists(pairs), "the stopped run's --link-pairs are not committed");
    assertTrue(stopped.out().contains("yarn-gnn train: checkpoint of epoch 6 in "), stopped.out());
    assertFalse(stopped.out().contains("epoch 7 loss"), stopped.out());
    assertFalse(Files.exists(out));
    Path dir = TrainCheckpointTest.checkpointDir(out);
    assertEquals(List.of(dir.getFileName().toString()), TrainCheckpointTest.hidden(out));
    Map<?, ?> manifest = (Map<?, ?>) Json.parse(Files.readString(dir.resolve("checkpoint-000006.json")));
    assertEquals(2L, manifest.get("format"), "a link checkpoint is format 2");
    assertEquals(6, ((List<?>) manifest.get("epochs")).size());

    // A copy of the checkpoint, for a second output to resume with --epochs 6.
    Path out6 = work.resolve("ck-stopped6");
    copyTree(dir, TrainCheckpointTest.checkpointDir(out6));

    // Refused, exit 2, one line, the checkpoint kept: other link options.
    CliRun negatives = TrainLinkLocalTest.train(out, 2, 12, "--resume", out.toString(), "--negatives", "2");
    assertEquals(2, negatives.status(), negatives.toString());
    assertTrue(negatives.err().contains("--negatives 1, not 2"), negatives.err());
    assertEquals(1, negatives.err().strip().lines().count(), negatives.err());
    assertTrue(Files.exists(dir.resolve("checkpoint-000006.json")));

    CliRun resumed = TrainLinkLocalTest.train(out, 2, 12, "--resume", out.toString(), "--checkpoint-every", "3",
        "--link-pairs", pairs.toString());
    assertEquals(0, resumed.status(), resumed.toString());
    assertTrue(resumed.out().contains("yarn-gnn train: resuming after epoch 6 from "), resumed.out());
    assertFalse(resumed.out().contains("epoch 6 loss"), "epochs 1..6 are not run again: " + resumed.out());
    assertTrue(resumed.out().contains("epoch 7 loss"), resumed.out());
    assertTrue(resumed.out().contains("yarn-gnn train: checkpoint of epoch 9 in "), resumed.out());
    assertEquals(List.of(), TrainCheckpointTest.hidden(out), "nothing hidden is left beside the output");
    assertSameRun(whole, out, 12);
    // The resumed run's workers fix the evaluation negatives again: the pairs are the never-stopped run's.
    assertTrue(Files.exists(pairs.resolve("_SUCCESS")));
    for (String t : org.yarngnn.app.train.LinkOptions.PAIR_TABLES) {
      List<String> a = TrainLinkLocalTest.pairs(wholePairs.resolve(t)).stream().map(java.util.Arrays::toString)
          .toList();
      assertFalse(a.isEmpty(), t);
      assertEquals(a, TrainLinkLocalTest.pairs(pairs.resolve(t)).stream().map(java.util.Arrays::toString).toList(),
          "the pairs table " + t + " of the resumed run and the never-stopped one");
    }

    // No epoch left: the model, best epoch and test figures come from the checkpoint alone.
    CliRun none = TrainLinkLocalTest.train(out6, 2, 6, "--resume", out6.toString());
    assertEquals(0, none.status(), none.toString());
    assertFalse(none.out().contains(" loss "), "no epoch runs: " + none.out());
    assertSameRun(whole6, out6, 6);
    System.out.println("link prediction resumed at 6 of 12: metrics.json's epochs, best epoch "
        + metrics(out).get("best_epoch") + " and test auc " + ((Map<?, ?>) metrics(out).get("best")).get("test_auc")
        + " equal the uninterrupted run's exactly; resumed at 6 of 6: best epoch " + metrics(out6).get("best_epoch"));
  }
}
