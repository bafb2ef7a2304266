package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;

/** Limits a job keeps whatever its peers do: a stuck worker ends the job, absurd worker counts are refused. */
class RunLimitsTest {
  @TempDir Path dir;

  private Path[] tables() throws Exception {
    return tinyJob(dir);
  }

  /** A four-node graph's edges and nodes as TSV and a one-layer gcn under {@code dir}: edges, nodes, model. */
  static Path[] tinyJob(Path dir) throws Exception {
    Path nodes = dir.resolve("nodes.tsv");
    Path edges = dir.resolve("edges.tsv");
    Files.writeString(nodes, "10\t1,2,3\n20\t0,0,1\n30\t0.5,0.5,0.5\n40\t1,0,0\n");
    Files.writeString(edges, "10\t20\n20\t30\n30\t40\n40\t10\n");
    Path model = dir.resolve("model");
    ModelDirectory.write(RandomModels.random(new ModelSpec("none",
        List.of(LayerSpec.gcn(3, 2, Activation.RELU, true)), "none", false), 1), model);
    return new Path[] {edges, nodes, model};
  }

  @Test
  void aWorkerThatStopsAnsweringFailsTheJobNamingItAndThePhase() throws Exception {
    Path[] t = tables();
    Path out = dir.resolve("out");
    long t0 = System.nanoTime();
    CliRun run = CliRun.of("infer", "--local", "--workers", "2", "--edges", t[0].toString(), "--nodes",
        t[1].toString(), "--model", t[2].toString(), "--output", out.toString(), "--round-timeout", "15",
        "-D", "yarngnn.test.halt-worker=stall:1@write");
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertEquals(1, run.status(), run::toString);
    assertTrue(run.err().contains("write did not finish within 15 s") && run.err().contains("worker 1"),
        run::toString);
    assertFalse(run.err().contains("worker 0,"), run::toString);
    assertFalse(run.err().contains("\tat "), "no stack trace without --verbose: " + run);
    // 15 s, not 2: the live worker's write (a cold Parquet writer, two workers on a loaded 2-core machine) must
    // finish inside the limit, or the message rightly names it too.
    assertTrue(seconds < 120, "the limit ended the job after " + seconds + " s");
    assertFalse(Files.exists(out.resolve("_SUCCESS")), run::toString);
  }

  @Test
  void tooManyLocalWorkersAreRefusedBeforeAnythingRuns() throws Exception {
    Path[] t = tables();
    CliRun run = CliRun.of("infer", "--local", "--workers", "100000", "--edges", t[0].toString(), "--nodes",
        t[1].toString(), "--model", t[2].toString(), "--output", dir.resolve("out").toString());
    assertEquals(2, run.status(), run::toString);
    assertTrue(run.err().contains("--workers must be at most 64 with --local"), run::toString);
    assertFalse(Files.exists(dir.resolve("out")), run::toString);
  }

  @Test
  void aZeroRoundTimeoutIsRefused() throws Exception {
    Path[] t = tables();
    CliRun run = CliRun.of("infer", "--local", "--edges", t[0].toString(), "--nodes", t[1].toString(), "--model",
        t[2].toString(), "--output", dir.resolve("out").toString(), "--round-timeout", "0");
    assertEquals(2, run.status(), run::toString);
    assertTrue(run.err().contains("--round-timeout"), run::toString);
  }

  @Test
  void generateAndPartitionSizesAreBounded() throws Exception {
    Path[] t = tables();
    String out = dir.resolve("gen").toString();
    for (String[] args : new String[][] {
        {"generate", "--type", "sbm", "--nodes", "100", "--homophily", "2", "--output", out},
        {"generate", "--type", "sbm", "--nodes", "100", "--avg-degree", "-1", "--output", out},
        {"generate", "--type", "rmat", "--nodes", "100", "--edges", "-5", "--output", out},
        {"generate", "--type", "rmat", "--nodes", "100000000000000", "--output", out},
        {"generate", "--type", "rmat", "--nodes", "100", "--features", "1000000", "--output", out},
        {"partition", "--local", "--edges", t[0].toString(), "--nodes", t[1].toString(), "--output", out,
            "--partitions", "100000"}}) {
      CliRun run = CliRun.of(args);
      assertEquals(2, run.status(), () -> String.join(" ", args) + "\n" + run);
      assertEquals(1, run.err().strip().lines().count(), () -> "one line: " + run);
      assertFalse(Files.exists(dir.resolve("gen")), run::toString);
    }
  }
}
