package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.e2e.cluster.MiniClusters;
import org.yarngnn.io.table.EmbeddingWriter;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.TableFormat;

/**
 * The ApplicationMaster of an {@code infer --overwrite} halted in the middle of its output commit (exit 137,
 * nothing cleaned: {@code -D yarngnn.test.halt-am-in-commit=STEP}). At the worst point ({@code old-moved}: the
 * previous output moved aside, the new one not yet in its place) YARN's second attempt puts the previous output
 * back, runs the job again into the same work directory and commits. Right after the new output is in place
 * ({@code new-moved}: the old one not yet deleted) the second attempt finds its job's commit done and finishes
 * without running the job. Either way the client exits 0, the output is the new complete one, row for row an
 * undisturbed run's, and nothing hidden (the old output, the work directory, the commit's done mark) is left.
 */
@Tag("faults")
class InferCommitCrashOnYarnTest {
  /** The cluster's name: its directory under the build's minicluster/, where the containers' logs are too. */
  private static final String CLUSTER = "infer-commit-crash";
  static MiniClusters cluster;
  static FileSystem fs;
  @TempDir static java.nio.file.Path local;

  static java.nio.file.Path model;

  @BeforeAll
  static void start() throws Exception {
    cluster = InferOnYarnTest.startWithCora(CLUSTER, local);
    fs = cluster.fs();
    model = local.resolve("model");
    ModelDirectory.write(RandomModels.random(CoraLocalInferenceTest.gcnSpec(), 3), model);
    CliRun plain = infer(model, "/out/undisturbed");
    assertEquals(0, plain.status(), plain.toString());
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static CliRun infer(java.nio.file.Path model, String out, String... extra) {
    List<String> args = new ArrayList<>(List.of("infer", "--edges", "/data/cora/edges.tsv", "--nodes",
        "/data/cora/nodes.tsv.gz", "--model", model.toUri().toString(), "--output", out, "--workers", "2",
        "--worker-memory", "512", "--seed", "5"));
    args.addAll(List.of(extra));
    return InferOnYarnTest.cli(cluster, args.toArray(new String[0]));
  }

  /** Whether a container log (stdout) of application {@code appId} on the cluster's NodeManagers holds {@code text}. */
  private static boolean containerLogsSay(String appId, String text) throws java.io.IOException {
    java.nio.file.Path base = java.nio.file.Path.of(System.getProperty("yarngnn.build.dir", "target"),
        "minicluster", CLUSTER);
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(base)) {
      for (java.nio.file.Path f : files.filter(f -> f.toString().contains(appId)
          && f.getFileName().toString().equals("stdout")).toList()) {
        if (java.nio.file.Files.readString(f).contains(text)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A complete previous output of 3 rows whose ids no Cora node has: a mixture with it shows. */
  private static void previousOutput(String out) {
    OutputCommit c = OutputCommit.begin(cluster.conf(), new Path(out), false);
    try (EmbeddingWriter w = EmbeddingWriter.create(cluster.conf(), c.partFile(0, TableFormat.PARQUET),
        TableFormat.PARQUET, 2, false)) {
      for (long id = 0; id < 3; id++) {
        w.write(1_000_000_000L + id, new float[] {id, 1}, 0, 0);
      }
    }
    c.commit();
  }

  /**
   * Replaces a previous output with an infer whose first ApplicationMaster halts after commit step {@code step};
   * checks exit 0, two attempts, the halt, the output (an undisturbed run's) and nothing hidden left; returns the
   * job's log.
   */
  private static String haltedInCommit(String out, String step) throws Exception {
    previousOutput(out);
    CliRun run = infer(model, out, "--overwrite", "-D", "yarngnn.test.halt-am-in-commit=" + step);
    assertEquals(0, run.status(), run.toString());

    String id = run.out().replaceAll("(?s).*submitted (application_[0-9_]+).*", "$1");
    try (YarnClient yc = YarnClient.createYarnClient()) {
      yc.init(cluster.conf());
      yc.start();
      assertEquals(2, yc.getApplicationAttempts(ApplicationId.fromString(id)).size(),
          "the first attempt's AM halted in its commit, a second one finished the job");
    }
    CliRun status = InferOnYarnTest.cli(cluster, "status", id, "--json");
    Map<?, ?> summary = (Map<?, ?>) org.yarngnn.compute.json.Json.parse(status.out().trim());
    String log = String.join("\n", ((List<?>) summary.get("log")).stream().map(Object::toString).toList());
    System.out.println("InferCommitCrashOnYarnTest: the job's log (" + step + "):\n" + log);
    assertTrue(containerLogsSay(id, "halting the ApplicationMaster in the output commit after " + step),
        "the first attempt's AM halted in its commit, not before it");

    assertTrue(fs.exists(new Path(out, "_SUCCESS")));
    InferRecoveryOnYarnTest.assertSameEmbeddings(cluster.conf(), "/out/undisturbed", out);
    List<String> hidden = new ArrayList<>();
    for (FileStatus s : fs.listStatus(new Path("/out"))) {
      if (s.getPath().getName().startsWith(".")) {
        hidden.add(s.getPath().getName());
      }
    }
    assertEquals(List.of(), hidden, "neither the previous output nor a work directory nor a mark is left beside it");
    return log;
  }

  @Test
  void anApplicationMasterHaltedBetweenTheRenamesIsRestartedAndCommitsTheNewOutput() throws Exception {
    String log = haltedInCommit("/out/replaced", "old-moved");
    assertTrue(log.contains("attempt 2 after the previous ApplicationMaster died: running the job again"), log);
    assertTrue(log.contains("died in the middle of the commit: put the previous output back"), log);
  }

  @Test
  void anApplicationMasterHaltedAfterTheNewOutputIsInPlaceIsDoneWithoutRunningAgain() throws Exception {
    String log = haltedInCommit("/out/newmoved", "new-moved");
    assertTrue(log.contains("attempt 2 after the previous ApplicationMaster died: its commit of "), log);
    assertTrue(log.contains("had completed, so the job is done"), log);
    assertFalse(log.contains("running the job again"), log);
  }
}
