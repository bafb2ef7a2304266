package org.yarngnn.app.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each hook's value format, matched as the fault sweep and the end-to-end tests use it (in a thread, no container). */
class FaultHooksTest {
  @TempDir Path dir;

  @AfterEach
  void hooksOnAgain() {
    System.setProperty(TestHooks.PROPERTY, "true");
  }

  private static FaultHooks hooks(String key, String value) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    return FaultHooks.of(conf);
  }

  private static PhaseCommand layer(int k) {
    return new PhaseCommand(Phase.LAYER, k, null);
  }

  @Test
  void aWorkerHaltsAtItsPhaseInEveryStartAndOnlyThere() throws Exception {
    FaultHooks f = hooks(FaultHooks.WORKER_KEY, "1@plan");
    f.atPhaseStart(0, 0, new PhaseCommand(Phase.PLAN));
    f.atPhaseStart(1, 0, new PhaseCommand(Phase.JOB));
    for (int attempt : new int[] {0, 1}) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> f.atPhaseStart(1, attempt, new PhaseCommand(Phase.PLAN)));
      assertEquals("worker 1 halted by yarngnn.test.halt-worker", e.getMessage());
    }
    // A phase label matches every layer; layerK one layer only.
    FaultHooks anyLayer = hooks(FaultHooks.WORKER_KEY, "0@layer");
    assertThrows(IllegalStateException.class, () -> anyLayer.atPhaseStart(0, 0, layer(2)));
    FaultHooks edges = hooks(FaultHooks.WORKER_KEY, "0@edges");
    assertThrows(IllegalStateException.class, () -> edges.atPhaseStart(0, 0, new PhaseCommand(Phase.BUILD_EDGES)));
  }

  @Test
  void killActsOnTheFirstStartOnly() throws Exception {
    FaultHooks f = hooks(FaultHooks.WORKER_KEY, "kill:1@layer1");
    f.atPhaseStart(1, 0, layer(0));
    f.atPhaseStart(1, 1, layer(1));
    assertThrows(IllegalStateException.class, () -> f.atPhaseStart(1, 0, layer(1)));
  }

  @Test
  void stallKeepsTheWorkerSilentUntilStopped() throws Exception {
    FaultHooks f = hooks(FaultHooks.WORKER_KEY, "stall:1@write");
    CompletableFuture<Throwable> ended = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        f.atPhaseStart(1, 0, new PhaseCommand(Phase.WRITE));
        ended.complete(null);
      } catch (Throwable e) {
        ended.complete(e);
      }
    });
    t.start();
    Thread.sleep(200);
    assertFalse(ended.isDone(), "stalled");
    t.interrupt();
    assertTrue(ended.get(10, TimeUnit.SECONDS) instanceof InterruptedException);
  }

  @Test
  void holdAfterAnEpochWaitsForTheReleaseFile() throws Exception {
    Path holds = dir.resolve("holds");
    FaultHooks f = hooks(FaultHooks.HOLD_AFTER_EPOCH_KEY, "2:" + holds);
    f.afterEpoch(1);
    assertFalse(Files.exists(holds), "not after epoch 1");
    CompletableFuture<Throwable> ended = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        f.afterEpoch(2);
        ended.complete(null);
      } catch (Throwable e) {
        ended.complete(e);
      }
    });
    t.start();
    for (int i = 0; i < 1200 && !Files.exists(holds.resolve("held")); i++) { // up to a minute, for a loaded machine
      Thread.sleep(50);
    }
    assertTrue(Files.exists(holds.resolve("held")));
    assertFalse(ended.isDone(), "held until released");
    Files.writeString(holds.resolve("release"), "");
    assertNull(ended.get(60, TimeUnit.SECONDS), "released");
  }

  @Test
  void pauseWritesItsFileInTheMiddleOfTheLayerOfTheFirstStart() throws Exception {
    Path pauses = dir.resolve("pauses");
    FaultHooks f = hooks(FaultHooks.WORKER_KEY, "pause:1@layer1:" + pauses);
    f.atPhaseStart(1, 0, layer(1)); // not at the phase's start
    f.inLayer(1, 0, 0);
    f.inLayer(1, 1, 1);
    f.inLayer(0, 0, 1);
    assertFalse(Files.exists(pauses));
    Thread t = new Thread(() -> {
      try {
        f.inLayer(1, 0, 1);
      } catch (Exception e) {
        // interrupted below
      }
    });
    t.start();
    Path file = pauses.resolve("paused-" + ProcessHandle.current().pid());
    for (int i = 0; i < 1200 && !Files.exists(file); i++) { // up to a minute, for a loaded machine
      Thread.sleep(50);
    }
    assertTrue(Files.exists(file));
    assertTrue(t.isAlive(), "paused");
    t.interrupt();
  }

  @Test
  void slowWorkersAndTensorWorkers() throws Exception {
    FaultHooks slow = hooks(FaultHooks.SLOW_WORKER_KEY, "1:40");
    assertEquals(40, slow.epochDelayMillis(1));
    assertEquals(0, slow.epochDelayMillis(0));
    FaultHooks halt = hooks(FaultHooks.HALT_TENSOR_WORKER_AFTER_KEY, "25");
    assertFalse(halt.tensorWorkerDiesAt(0, 25));
    assertTrue(halt.tensorWorkerDiesAt(0, 26));
    assertFalse(halt.tensorWorkerDiesAt(1, 26), "tensor worker 0 only");
    FaultHooks slowTasks = hooks(FaultHooks.SLOW_TENSOR_TASKS_KEY, "2:30");
    long t0 = System.nanoTime();
    assertFalse(slowTasks.tensorWorkerDiesAt(3, 2));
    assertTrue(System.nanoTime() - t0 >= 30_000_000L);
    // Past the first N, no sleep: with a minute's sleep configured, the call returns well inside it however
    // loaded the machine (a bound of the sleep's own 30 ms would be a wall-clock race).
    FaultHooks minute = hooks(FaultHooks.SLOW_TENSOR_TASKS_KEY, "2:60000");
    t0 = System.nanoTime();
    minute.tensorWorkerDiesAt(3, 3);
    assertTrue(System.nanoTime() - t0 < 30_000_000_000L);
  }

  @Test
  void theTrainingDriverStopsAfterItsEpoch() throws Exception {
    FaultHooks f = hooks(FaultHooks.STOP_AFTER_EPOCH_KEY, "20");
    f.afterEpoch(19);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.afterEpoch(20));
    assertEquals("stopped after epoch 20 by the test hook yarngnn.test.stop-after-epoch", e.getMessage());
    FaultHooks.NONE.afterEpoch(0);
  }

  @Test
  void theCommitHookNamesEveryStepAndActsOnlyInAContainer() {
    for (org.yarngnn.io.table.OutputCommit.Step step : org.yarngnn.io.table.OutputCommit.Step.values()) {
      // Here (no CONTAINER_ID) it only parses: an AM container would halt.
      hooks(FaultHooks.HALT_AM_IN_COMMIT_KEY, step.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))
          .inCommit(step, 1, System.out);
    }
  }

  @Test
  void aMalformedHookIsRefusedWithItsKey() {
    for (String[] bad : new String[][] {{FaultHooks.WORKER_KEY, "plan"}, {FaultHooks.WORKER_KEY, "x@plan"},
        {FaultHooks.WORKER_KEY, "boom:1@plan"}, {FaultHooks.WORKER_KEY, "pause:1@layer1"},
        {FaultHooks.SLOW_WORKER_KEY, "1"}, {FaultHooks.SLOW_TENSOR_TASKS_KEY, "a:b"},
        {FaultHooks.STOP_AFTER_EPOCH_KEY, "-1"}, {FaultHooks.HOLD_AFTER_EPOCH_KEY, "1"},
        {FaultHooks.HALT_AM_IN_COMMIT_KEY, "old_moved"}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> hooks(bad[0], bad[1]));
      assertTrue(e.getMessage().startsWith("-D " + bad[0] + " must be"), e.getMessage());
    }
  }

  @Test
  void withHooksOffNothingIsRead() {
    System.clearProperty(TestHooks.PROPERTY);
    assertSame(FaultHooks.NONE, hooks(FaultHooks.WORKER_KEY, "not even well formed"));
  }
}
