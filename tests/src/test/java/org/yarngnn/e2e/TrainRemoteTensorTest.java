package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.runtime.FaultHooks;

/**
 * {@code train --local --tensor-backend remote} on Cora: stateless tensor workers (threads reached over loopback,
 * the containers' code path) run the apply-vertex GEMMs, their backward and the loss. With staleness 0 the losses
 * equal the local backend's for 1, 2 and 3 graph workers with 1, 2 and 4 tensor workers; the parameter server
 * never holds more than S + 2 = 2 weight versions and ends with one; a tensor worker that dies mid-run is replaced
 * and its tasks are sent again without changing a loss; the pool grows under load and retires idle workers.
 */
class TrainRemoteTensorTest {
  private static final int EPOCHS = 6;

  @TempDir static Path work;
  static double[] want;

  @BeforeAll
  static void setUp() throws Exception {
    TrainLocalTest.edges = SharedData.planetoid("cora").resolve("edges.tsv");
    TrainLocalTest.nodes = SharedData.planetoid("cora").resolve("nodes.tsv.gz");
    TrainLocalTest.spec = Files.writeString(work.resolve("spec.json"), TrainLocalTest.SPEC);
    Path out = work.resolve("local");
    CliRun run = TrainLocalTest.train(out, 1, EPOCHS);
    assertEquals(0, run.status(), run.toString());
    want = TrainLocalTest.losses(TrainLocalTest.metrics(out));
  }

  static Map<?, ?> pool(Map<?, ?> metrics) {
    return (Map<?, ?>) metrics.get("tensor_pool");
  }

  static long number(Map<?, ?> m, String key) {
    return ((Number) m.get(key)).longValue();
  }

  @Test
  void remoteLossesEqualTheLocalBackendsForEveryShape() throws Exception {
    for (int graphWorkers = 1; graphWorkers <= 3; graphWorkers++) {
      for (int tensorWorkers : new int[] {1, 2, 4}) {
        String what = graphWorkers + " graph workers, " + tensorWorkers + " tensor workers";
        Path out = work.resolve("remote-" + graphWorkers + "-" + tensorWorkers);
        CliRun run = TrainLocalTest.train(out, graphWorkers, EPOCHS, "--tensor-backend", "remote",
            "--tensor-workers", Integer.toString(tensorWorkers), "--tensor-workers-max",
            Integer.toString(tensorWorkers), "--intervals", "3");
        assertEquals(0, run.status(), what + ": " + run);
        Map<?, ?> m = TrainLocalTest.metrics(out);
        TrainLocalTest.assertSameLosses(want, TrainLocalTest.losses(m), what);
        Map<?, ?> p = pool(m);
        assertTrue(number(p, "max_live_weight_versions") <= 2, what + ": " + p);
        assertEquals(1, number(p, "live_weight_versions_at_end"), what + ": " + p);
        assertEquals(0, number(m, "relaunched_tasks"), what);
        Map<?, ?> seconds = (Map<?, ?>) m.get("container_seconds");
        assertTrue(((Number) seconds.get("tensor_workers")).doubleValue() > 0, what + ": " + seconds);
        Map<?, ?> cost = (Map<?, ?>) m.get("cost_usd");
        assertTrue(((Number) cost.get("tensor_workers")).doubleValue() > 0, what + ": " + cost);
      }
    }
  }

  /**
   * gat (multi-head, attention dropout: the edge softmax and the attention vectors stay on the graph side) and
   * sage-mean with a fanout (self and neighbour weights in one linear row): remote and local losses agree.
   */
  @Test
  void gatAndSageGiveTheLocalBackendsLosses() throws Exception {
    String gat = "{\"format\": 1, \"input\": {\"normalize\": \"row\"}, \"layers\": ["
        + "{\"type\": \"gat\", \"in\": 1433, \"out\": 8, \"heads\": 4, \"concat\": true, \"activation\": \"elu\"},"
        + "{\"type\": \"gat\", \"in\": 32, \"out\": 7, \"heads\": 1, \"activation\": \"none\"}],"
        + " \"output\": {\"normalize\": \"none\", \"predict\": true}}";
    String sage = "{\"format\": 1, \"input\": {\"normalize\": \"row\"}, \"layers\": ["
        + "{\"type\": \"sage\", \"in\": 1433, \"out\": 16, \"activation\": \"relu\", \"fanout\": 5},"
        + "{\"type\": \"sage\", \"in\": 16, \"out\": 7, \"activation\": \"none\", \"fanout\": 5}],"
        + " \"output\": {\"normalize\": \"none\", \"predict\": true}}";
    Path saved = TrainLocalTest.spec;
    try {
      for (String[] model : new String[][] {{"gat", gat}, {"sage", sage}}) {
        TrainLocalTest.spec = Files.writeString(work.resolve(model[0] + ".json"), model[1]);
        Path local = work.resolve(model[0] + "-local");
        assertEquals(0, TrainLocalTest.train(local, 2, 4).status(), model[0]);
        Path remote = work.resolve(model[0] + "-remote");
        CliRun run = TrainLocalTest.train(remote, 2, 4, "--tensor-backend", "remote", "--tensor-workers", "2");
        assertEquals(0, run.status(), model[0] + ": " + run);
        TrainLocalTest.assertSameLosses(TrainLocalTest.losses(TrainLocalTest.metrics(local)),
            TrainLocalTest.losses(TrainLocalTest.metrics(remote)), model[0] + " remote");
      }
    } finally {
      TrainLocalTest.spec = saved;
    }
  }

  @Test
  void aTensorWorkerThatDiesIsReplacedAndItsTasksResent() throws Exception {
    Path out = work.resolve("halted");
    CliRun run = TrainLocalTest.train(out, 2, EPOCHS, "--tensor-backend", "remote", "--tensor-workers", "2",
        "--tensor-workers-max", "2", "-D", "yarngnn.test.halt-tensor-worker-after=25");
    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("lost tensor worker 0"), run.out());
    Map<?, ?> m = TrainLocalTest.metrics(out);
    TrainLocalTest.assertSameLosses(want, TrainLocalTest.losses(m), "a tensor worker lost");
    assertTrue(number(m, "relaunched_tasks") > 0, m.toString());
    assertEquals(1, number(pool(m), "lost"), m.toString());
    assertEquals(3, number(pool(m), "launched"), m.toString());
  }

  @Test
  void thePoolGrowsUnderLoadAndShrinksWhenIdle() throws Exception {
    Path out = work.resolve("elastic");
    // Every worker's first 40 tasks take 40 ms more (as cold containers do): queues wait, the pool grows past
    // 100 ms of waiting. Then the driver holds after epoch 20 (a test hook) until the pool has retired a worker:
    // the pool sits idle there, so a 300 ms window retires one however loaded the machine, and the test waits on
    // that event, not on a window the job's own pace happens to leave.
    Path hold = work.resolve("elastic-hold");
    CliRun run = CliRun.watched(line -> line.contains("retiring tensor worker"), () -> {
      try {
        Files.createDirectories(hold).resolve("release").toFile().createNewFile();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, TrainLocalTest.trainArgs(out, 2, 40, "--tensor-backend", "remote", "--tensor-workers", "1",
        "--tensor-workers-max", "3", "--intervals", "8", "-D", "yarngnn.tensor-pool.grow-after-ms=100", "-D",
        "yarngnn.tensor-pool.idle-ms=300", "-D", "yarngnn.test.slow-tensor-tasks=40:40", "-D",
        FaultHooks.HOLD_AFTER_EPOCH_KEY + "=20:" + hold));
    System.out.print(run.out());
    System.err.print(run.err());
    assertEquals(0, run.status(), run.toString());
    Map<?, ?> m = TrainLocalTest.metrics(out);
    TrainLocalTest.assertSameLosses(want, java.util.Arrays.copyOf(TrainLocalTest.losses(m), EPOCHS),
        "an elastic pool");
    List<?> sizes = (List<?>) pool(m).get("sizes");
    long max = 0;
    long afterMax = Long.MAX_VALUE;
    for (Object o : sizes) {
      long s = number((Map<?, ?>) o, "size");
      assertTrue(s >= 0 && s <= 3, sizes.toString());
      if (s > max) {
        max = s;
        afterMax = Long.MAX_VALUE;
      } else {
        afterMax = Math.min(afterMax, s);
      }
    }
    assertTrue(max > 1, "the pool never grew: " + sizes);
    assertTrue(afterMax < max, "the pool never shrank after growing: " + sizes);
    assertTrue(number(pool(m), "retired") >= 1, pool(m).toString());
    assertTrue(run.out().contains("retiring tensor worker") && run.out().contains("adding tensor worker"), run.out());
  }

  @Test
  void badPoolOptionsExitTwoAndWriteNothing() throws Exception {
    String[][] cases = {
        {"--parameter-servers", "2"},
        {"--tensor-workers", "2", "--tensor-workers-min", "3"},
        {"--tensor-workers", "3", "--tensor-workers-max", "2"},
        {"--tensor-worker-vcores", "0"},
        {"--price-tensor-worker-hour", "-1"},
    };
    for (String[] c : cases) {
      Path out = work.resolve("bad-" + String.join("", c).replace("-", ""));
      String[] args = new String[c.length + 2];
      args[0] = "--tensor-backend";
      args[1] = "remote";
      System.arraycopy(c, 0, args, 2, c.length);
      CliRun run = TrainLocalTest.train(out, 1, 1, args);
      assertEquals(2, run.status(), String.join(" ", c) + ": " + run);
      assertTrue(run.err().contains(c[c.length - 2].substring(2)), run.toString());
      assertFalse(Files.exists(out), String.join(" ", c));
    }
  }
}
