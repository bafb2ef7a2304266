package org.yarngnn.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.train.TrainingDriver;

/**
 * The client's epoch lines of a YARN run: each epoch once and in order, whether it came in the ApplicationMaster's
 * status file (read again at every poll, epochs run again after a restart) or in metrics.json at the end.
 */
class EpochLinesTest {
  private static TrainingDriver.Epoch epoch(int e) {
    return new TrainingDriver.Epoch(e, 2.0 / e, 0.5, 0.25 + e / 100.0, 0.125, 0.5, e % 2, 0);
  }

  /** Epochs {@code from..to} as metrics.json and the status file carry them. */
  private static List<Map<String, Object>> figures(int from, int to) {
    List<Map<String, Object>> l = new ArrayList<>();
    for (int e = from; e <= to; e++) {
      l.add(TrainingDriver.epochFigures(epoch(e)));
    }
    return l;
  }

  private static List<Map<String, Object>> concat(List<Map<String, Object>> a, List<Map<String, Object>> b) {
    List<Map<String, Object>> l = new ArrayList<>(a);
    l.addAll(b);
    return l;
  }

  private static List<String> lines(ByteArrayOutputStream buf) {
    return buf.toString(StandardCharsets.UTF_8).lines().toList();
  }

  private static List<String> expected(int from, int to) {
    List<String> l = new ArrayList<>();
    for (int e = from; e <= to; e++) {
      l.add("yarn-gnn train: " + epoch(e).line());
    }
    return l;
  }

  @Test
  void eachEpochIsPrintedOnceInOrder() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    TrainCommand.EpochLines lines = new TrainCommand.EpochLines(new PrintStream(buf, true, StandardCharsets.UTF_8),
        0);
    lines.print(figures(1, 2));
    lines.print(figures(1, 3)); // the next poll: the same epochs and a new one
    lines.print(concat(figures(1, 4), figures(3, 5))); // workers started again from epoch 2's checkpoint
    lines.print(figures(1, 7)); // metrics.json: the last epochs ended after the last poll
    assertEquals(expected(1, 7), lines(buf));
    assertEquals("yarn-gnn train: epoch 3 loss 0.6667 train 0.50 val 0.28 test 0.13 0.50 s (staleness: rows 1, "
        + "weights 0)", lines(buf).get(2));
  }

  @Test
  void aResumedRunPrintsTheEpochsAfterItsCheckpoint() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    TrainCommand.EpochLines lines = new TrainCommand.EpochLines(new PrintStream(buf, true, StandardCharsets.UTF_8),
        4);
    lines.print(figures(1, 6));
    assertEquals(expected(5, 6), lines(buf));
  }

  @Test
  void anEpochReadsBackFromItsFigures() {
    assertEquals(epoch(3), TrainingDriver.Epoch.fromFigures(TrainingDriver.epochFigures(epoch(3))));
    Map<String, Object> diverged = new java.util.LinkedHashMap<>(TrainingDriver.epochFigures(epoch(4)));
    diverged.put("loss", null); // JSON has no NaN
    assertEquals("epoch 4 loss NaN train 0.50 val 0.29 test 0.13 0.50 s",
        TrainingDriver.Epoch.fromFigures(diverged).line());
  }
}
