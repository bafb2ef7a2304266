package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.json.Json;

/**
 * Bounded asynchrony ({@code train --staleness S}) on Cora through the CLI, 2 graph workers: no epoch reads rows
 * or weights more than S epochs old and, with one worker slowed down, the others do run S epochs ahead (the bound
 * is reached, not only kept); with remote tensor workers at most S + 2 weight versions are live, and 1 at the end;
 * {@code --patience} stops an asynchronous run; S = 1 and 2 reach S = 0's test accuracy within one point (mean of 5
 * seeds) for gcn and gat; options an asynchronous run cannot honour are refused with exit 2.
 */
class TrainStalenessTest {
  static final String GAT = "{\"format\": 1, \"input\": {\"normalize\": \"row\"}, \"layers\": ["
      + "{\"type\": \"gat\", \"in\": 1433, \"out\": 8, \"heads\": 8, \"concat\": true, \"activation\": \"elu\"},"
      + "{\"type\": \"gat\", \"in\": 64, \"out\": 7, \"heads\": 1, \"activation\": \"none\"}],"
      + " \"output\": {\"normalize\": \"none\", \"predict\": true}}";

  @TempDir static Path work;
  static Path gcn;
  static Path gat;

  @BeforeAll
  static void setUp() throws Exception {
    gcn = Files.writeString(work.resolve("gcn.json"), TrainLocalTest.SPEC);
    gat = Files.writeString(work.resolve("gat.json"), GAT);
  }

  static CliRun train(Path out, Path model, int epochs, long seed, String... extra) {
    Path cora = SharedData.planetoid("cora");
    List<String> a = new ArrayList<>(List.of("train", "--local", "--edges", cora.resolve("edges.tsv").toString(),
        "--nodes", cora.resolve("nodes.tsv.gz").toString(), "--model-spec", model.toString(), "--output",
        out.toString(), "--workers", "2", "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed",
        Long.toString(seed)));
    a.addAll(List.of(extra));
    CliRun run = CliRun.of(a.toArray(new String[0]));
    assertFalse(run.err().contains("\tat "), "a stack trace: " + run.err());
    return run;
  }

  static Map<?, ?> metrics(Path dir) throws Exception {
    return (Map<?, ?>) Json.parse(Files.readString(dir.resolve("metrics.json")));
  }

  static long field(Object epoch, String name) {
    return ((Number) ((Map<?, ?>) epoch).get(name)).longValue();
  }

  /** Every epoch 1..n in order, none staler than {@code s}; returns the largest row staleness seen. */
  static long checkEpochs(Map<?, ?> m, int n, int s) {
    List<?> epochs = (List<?>) m.get("epochs");
    assertEquals(n, epochs.size(), "epochs run");
    long most = 0;
    for (int i = 0; i < n; i++) {
      Object e = epochs.get(i);
      assertEquals(i + 1, field(e, "epoch"));
      long rows = field(e, "row_staleness");
      long weights = field(e, "weight_staleness");
      assertTrue(rows <= s && weights <= s, "epoch " + (i + 1) + ": rows " + rows + " and weights " + weights
          + " epochs old with --staleness " + s);
      assertEquals(Math.max(rows, weights), field(e, "max_staleness"));
      double loss = ((Number) ((Map<?, ?>) e).get("loss")).doubleValue();
      assertTrue(Double.isFinite(loss) && loss > 0, "loss " + loss);
      most = Math.max(most, rows);
    }
    return most;
  }

  @Test
  void theBoundIsReachedWithASlowWorkerAndNeverExceeded() throws Exception {
    for (int s : new int[] {1, 2}) {
      Path out = work.resolve("slow" + s);
      CliRun r = train(out, gcn, 30, 1, "--staleness", Integer.toString(s), "-D", "yarngnn.test.slow-worker=1:40");
      assertEquals(0, r.status(), r.toString());
      Map<?, ?> m = metrics(out);
      assertEquals(s, checkEpochs(m, 30, s), "worker 0 runs ahead of the slowed worker 1 by the whole bound");
      assertTrue(((Number) m.get("best_epoch")).intValue() >= 1);
    }
  }

  @Test
  void remoteTensorWorkersKeepAtMostSPlusTwoVersionsLive() throws Exception {
    int s = 2;
    Path out = work.resolve("remote");
    CliRun r = train(out, gcn, 20, 3, "--staleness", Integer.toString(s), "--tensor-backend", "remote",
        "--tensor-workers", "2", "--intervals", "3", "-D", "yarngnn.test.slow-worker=0:30");
    assertEquals(0, r.status(), r.toString());
    Map<?, ?> m = metrics(out);
    checkEpochs(m, 20, s);
    Map<?, ?> pool = (Map<?, ?>) m.get("tensor_pool");
    long most = ((Number) pool.get("max_live_weight_versions")).longValue();
    assertTrue(most >= 2 && most <= s + 2, "live weight versions " + most);
    assertEquals(1L, ((Number) pool.get("live_weight_versions_at_end")).longValue());
  }

  @Test
  void patienceStopsAnAsynchronousRun() throws Exception {
    Path out = work.resolve("patience");
    CliRun r = train(out, gcn, 300, 1, "--staleness", "1", "--patience", "10");
    assertEquals(0, r.status(), r.toString());
    Map<?, ?> m = metrics(out);
    List<?> epochs = (List<?>) m.get("epochs");
    int n = epochs.size();
    checkEpochs(m, n, 1);
    // Where patience said stop: the first epoch 10 after the best so far. Once every worker's evaluation of it
    // is in, a worker may have started up to 2S + 1 epochs later; those are run and reported too.
    int stopAt = -1;
    double bestVal = -1;
    int bestEpoch = 0;
    for (int i = 0; i < n && stopAt < 0; i++) {
      double val = ((Number) ((Map<?, ?>) epochs.get(i)).get("val_accuracy")).doubleValue();
      if (val > bestVal) {
        bestVal = val;
        bestEpoch = i + 1;
      } else if (i + 1 - bestEpoch >= 10) {
        stopAt = i + 1;
      }
    }
    assertTrue(stopAt > 0 && n < 300 && n <= stopAt + 2 * 1 + 1, n + " epochs, patience stopped at " + stopAt);
    assertTrue(r.out().contains("no better validation accuracy for 10 epochs"), r.out());
  }

  /** 30 training runs (about 5 minutes here): in the {@code accuracy} profile, which CI runs after the default. */
  @Test
  @Tag("accuracy")
  void staleRunsReachTheSynchronousAccuracyWithinOnePoint() throws Exception {
    int seeds = 5;
    StringBuilder table = new StringBuilder("model  S  mean test accuracy of " + seeds + " seeds\n");
    for (Path model : new Path[] {gcn, gat}) {
      double[] mean = new double[3];
      for (int s = 0; s <= 2; s++) {
        for (int seed = 1; seed <= seeds; seed++) {
          Path out = work.resolve("acc-" + model.getFileName() + "-" + s + "-" + seed);
          long t0 = System.nanoTime();
          CliRun r = train(out, model, 200, seed, "--staleness", Integer.toString(s));
          assertEquals(0, r.status(), r.toString());
          Map<?, ?> m = metrics(out);
          checkEpochs(m, 200, s);
          double acc = ((Number) ((Map<?, ?>) m.get("best")).get("test_accuracy")).doubleValue();
          System.out.printf(Locale.ROOT, "%s S=%d seed %d: test %.4f (%.1f s)%n", model.getFileName(), s, seed, acc,
              (System.nanoTime() - t0) / 1e9);
          mean[s] += acc / seeds;
        }
        table.append(String.format(Locale.ROOT, "%-6s %d  %.4f%n", model.getFileName(), s, mean[s]));
      }
      for (int s = 1; s <= 2; s++) {
        assertTrue(mean[s] >= mean[0] - 0.01, model.getFileName() + ": S=" + s + " mean " + mean[s]
            + " against S=0's " + mean[0] + "\n" + table);
      }
    }
    System.out.print(table);
  }

  @Test
  void optionsAnAsynchronousRunCannotHonourAreRefused() {
    Path out = work.resolve("refused");
    CliRun r = train(out, gcn, 10, 1, "--staleness", "1", "--checkpoint-every", "5");
    assertEquals(2, r.status(), r.toString());
    assertTrue(r.err().contains("--staleness 1 with --checkpoint-every"), r.err());
    assertFalse(Files.exists(out));
    CliRun neg = train(out, gcn, 10, 1, "--staleness", "-1");
    assertEquals(2, neg.status(), neg.toString());
    assertTrue(neg.err().contains("--staleness"), neg.err());
  }
}
