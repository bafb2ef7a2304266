package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.e2e.cluster.MiniClusters;
import org.yarngnn.io.table.EmbeddingTable;

/**
 * {@code infer} submitted to a real MiniYARNCluster over a MiniDFSCluster, as {@code yarn jar} would: the AM and
 * the graph workers are container JVMs started by the NodeManagers from the shipped jar. Embeddings equal the
 * contract reference (Cora) and the single-JVM run (R-MAT with sparse int64 ids) for 1, 2 and 3 workers; a killed
 * worker fails the job cleanly.
 */
class InferOnYarnTest {
  static MiniClusters cluster;
  static FileSystem fs;
  @TempDir static java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    cluster = startWithCora("infer", local);
    fs = cluster.fs();
  }

  /** A cluster named {@code name} with Cora's tables under /data/cora, and the contract reference loaded. */
  static MiniClusters startWithCora(String name, java.nio.file.Path local) throws Exception {
    MiniClusters c = MiniClusters.start(name);
    java.nio.file.Path cora = SharedData.planetoid("cora");
    c.fs().copyFromLocalFile(new Path(cora.resolve("edges.tsv").toUri()), new Path("/data/cora/edges.tsv"));
    c.fs().copyFromLocalFile(new Path(cora.resolve("nodes.tsv.gz").toUri()), new Path("/data/cora/nodes.tsv.gz"));
    CoraLocalInferenceTest.work = local;
    CoraLocalInferenceTest.load();
    return c;
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The CLI in this JVM against the cluster: its configuration files and the shipped jar. */
  static CliRun cli(String... args) {
    return cli(cluster, args);
  }

  /** The CLI in this JVM against {@code cluster}: its configuration files and the shipped jar. */
  static CliRun cli(MiniClusters cluster, String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    int at = 1;
    for (String site : new String[] {"core-site.xml", "hdfs-site.xml", "yarn-site.xml"}) {
      a.add(at++, "-conf");
      a.add(at++, new File(cluster.confDir(), site).getAbsolutePath());
    }
    a.add(at++, "-D");
    a.add(at, "yarngnn.app.jar=" + MiniClusters.shippedJar());
    CliRun run = CliRun.of(a.toArray(new String[0]));
    System.out.print(run.out());
    System.err.print(run.err());
    return run;
  }

  private CliRun inferCora(Model model, String name, int workers, long seed, String... extra) throws Exception {
    java.nio.file.Path dir = local.resolve("model-" + name);
    ModelDirectory.write(model, dir);
    List<String> args = new ArrayList<>(List.of("infer", "--edges", "/data/cora/edges.tsv", "--nodes",
        "/data/cora/nodes.tsv.gz", "--model", dir.toUri().toString(), "--output", "/out/" + name, "--workers",
        Integer.toString(workers), "--worker-memory", "512", "--seed", Long.toString(seed)));
    args.addAll(List.of(extra));
    return cli(args.toArray(new String[0]));
  }

  /** Copies the HDFS output to local disk and compares it with the contract reference. */
  private void compareCora(Model model, String name, long seed) throws Exception {
    java.nio.file.Path copy = local.resolve("copy-" + name);
    fs.copyToLocalFile(new Path("/out/" + name), new Path(copy.toUri()));
    CoraLocalInferenceTest.compare(model, seed, copy);
  }

  @Test
  void coraOnOneTwoAndThreeWorkersMatchesTheReference() throws Exception {
    Object[][] cases = {
        {"gcn", CoraLocalInferenceTest.gcnSpec(), 1},
        {"sage", CoraLocalInferenceTest.sageSpec(), 2},
        {"gat", CoraLocalInferenceTest.gatSpec(), 3}};
    for (Object[] c : cases) {
      String name = (String) c[0];
      Model model = org.yarngnn.compute.model.RandomModels.random((ModelSpec) c[1], 77);
      CliRun run = inferCora(model, name, (Integer) c[2], 5);
      assertEquals(0, run.status(), run.toString());
      assertTrue(run.out().contains("application_"), "prints the application id: " + run.out());
      compareCora(model, name, 5);
    }
  }

  @Test
  void sparseIdsGiveTheSameEmbeddingsAsOneJvm() throws Exception {
    CliRun gen = cli("generate", "--type", "rmat", "--nodes", "4000", "--edges", "40000", "--features", "24",
        "--sparse-ids", "--files", "3", "--output", "/data/rmat", "--model", local.resolve("rmat-model").toUri().toString(),
        "--model-type", "sage", "--hidden", "16", "--model-out", "8");
    assertEquals(0, gen.status(), gen.toString());
    java.nio.file.Path tables = local.resolve("rmat");
    fs.copyToLocalFile(new Path("/data/rmat"), new Path(tables.toUri()));
    CliRun single = CliRun.of("infer", "--local", "--edges", tables.resolve("edges").toString(), "--nodes",
        tables.resolve("nodes").toString(), "--model", local.resolve("rmat-model").toString(), "--output",
        local.resolve("rmat-single").toString(), "--seed", "9");
    assertEquals(0, single.status(), single.toString());
    Map<Long, float[]> want = EmbeddingTable.read(new org.apache.hadoop.conf.Configuration(),
        new Path(local.resolve("rmat-single").toUri())).embeddings();
    for (int workers : new int[] {2, 3}) {
      String out = "/out/rmat-" + workers;
      // The 3-worker run encrypts every frame (AES-GCM after the handshake): the same embeddings.
      CliRun run = cli("infer", "--edges", "/data/rmat/edges", "--nodes", "/data/rmat/nodes", "--model",
          local.resolve("rmat-model").toUri().toString(), "--output", out, "--workers", Integer.toString(workers),
          "--worker-memory", "512", "--seed", "9", "--chunk-rows", "500", "-D",
          "yarngnn.transport.encrypt=" + (workers == 3));
      assertEquals(0, run.status(), run.toString());
      EmbeddingTable got = EmbeddingTable.read(cluster.conf(), new Path(out));
      assertEquals(want.size(), got.size(), "every node exactly once");
      for (Map.Entry<Long, float[]> e : want.entrySet()) {
        float[] g = got.embedding(e.getKey());
        for (int c = 0; c < g.length; c++) {
          float w = e.getValue()[c];
          assertTrue(Math.abs(g[c] - w) <= 1e-5f * Math.max(1f, Math.abs(w)),
              "node " + e.getKey() + " column " + c + ": " + g[c] + " vs " + w);
        }
      }
    }
  }

  /**
   * {@code yarn jar yarn-gnn.jar infer ...}: Hadoop's RunJar in a separate JVM with only Hadoop's client jars and
   * the cluster's configuration on its classpath, as the {@code yarn} command starts it (no --add-modules either).
   */
  @Test
  void submitsThroughHadoopRunJar() throws Exception {
    Model model = org.yarngnn.compute.model.RandomModels.random(CoraLocalInferenceTest.gcnSpec(), 2);
    java.nio.file.Path dir = local.resolve("model-runjar");
    ModelDirectory.write(model, dir);
    String hadoopCp = Files.readString(java.nio.file.Path.of(
        System.getProperty(MiniClusters.APP_BUILD_DIR_PROPERTY, "../yarn-app/target"), "hadoop-classpath.txt")).trim();
    String jar = new File(MiniClusters.shippedJar().toUri()).getAbsolutePath();
    ProcessBuilder pb = new ProcessBuilder(System.getProperty("java.home") + "/bin/java", "-cp",
        cluster.confDir().getAbsolutePath() + File.pathSeparator + hadoopCp, "org.apache.hadoop.util.RunJar", jar,
        "infer", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz", "--model",
        dir.toUri().toString(), "--output", "/out/runjar", "--workers", "2", "--worker-memory", "512");
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String printed = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    System.out.print(printed);
    assertEquals(0, p.waitFor(), printed);
    assertTrue(printed.contains("SUCCEEDED"), printed);
    assertTrue(fs.exists(new Path("/out/runjar/_SUCCESS")));
    compareCora(model, "runjar", 0);
  }

  /**
   * AM restart: the first attempt's ApplicationMaster halts (as a crash: exit 137, nothing cleaned) when the job
   * reaches layer 2 of a 3-worker, 2-layer gcn with {@code --checkpoint layers} (every worker has checkpointed layer
   * 1's rows by then); YARN's second
   * attempt releases the first attempt's containers (kept across attempts), finds the checkpoints whole and
   * continues at layer 2: its log says so, and its workers' reports show that none of them built the graph or ran
   * layer 1 again. The output equals the reference (an undisturbed run's); two attempts on record. Also the next
   * submission's sweep of what a job whose client and AM both died leaves in staging. Prints the time the crash
   * cost (from the attempts' records).
   */
  @Tag("faults")
  @Test
  void aCrashedApplicationMasterIsRestartedAndTheJobFinishes() throws Exception {
    Model model = org.yarngnn.compute.model.RandomModels.random(CoraLocalInferenceTest.gcnSpec(), 3);
    String ts;
    // What a job leaves when its client and its AM both die: the next submission deletes it (an application the
    // RM does not know has ended), and leaves what is not an application's directory.
    try (org.apache.hadoop.yarn.client.api.YarnClient yc = yarnClient()) {
      ts = Long.toString(yc.createApplication().getNewApplicationResponse().getApplicationId()
          .getClusterTimestamp());
    }
    Path root = new Path(fs.getHomeDirectory(), ".yarn-gnn/staging");
    Path orphan = new Path(root, "application_" + ts + "_9999");
    Path other = new Path(root, "notes");
    fs.mkdirs(orphan);
    fs.mkdirs(other);
    // A generous reconnect window: the survivors must outlive the RM's start of the second attempt on a busy host.
    CliRun run = inferCora(model, "am-crash", 3, 5, "--checkpoint", "layers",
        "-D", "yarngnn.test.halt-am-at=layer 2", "-D",
        "yarngnn.worker.reconnect-seconds=180", "-D", "yarngnn.am.adopt-wait-seconds=180");
    assertEquals(0, run.status(), run.toString());
    assertFalse(fs.exists(orphan), "an ended application's staging directory is swept: " + run.out());
    assertTrue(fs.exists(other), "a directory that is no application's stays");
    assertTrue(run.out().contains("deleted the staging directory of ended application"), run.out());
    compareCora(model, "am-crash", 5);
    String id = run.out().replaceAll("(?s).*submitted (application_[0-9_]+).*", "$1");
    CliRun status = cli("status", id, "--json");
    assertEquals(0, status.status(), status.toString());
    Map<?, ?> summary = (Map<?, ?>) org.yarngnn.compute.json.Json.parse(status.out().trim());
    String log = String.join("\n", ((List<?>) summary.get("log")).stream().map(Object::toString).toList());
    assertTrue(log.contains("attempt 2 after the previous ApplicationMaster died: continuing at layer 2/2 from its "
        + "checkpoints"), log);
    assertFalse(log.contains("running the job again"), log);
    // Kept across attempts, the first attempt's workers outlived its AM and registered with the second attempt's
    // driver, which took them all over: nothing launched anew, nothing released.
    assertTrue(log.contains("adopted workers [0, 1, 2] from attempt 1") && log.contains("launching none"), log);
    assertFalse(log.contains("released the"), log);
    List<?> rows = (List<?>) summary.get("workers");
    assertEquals(3, rows.size(), summary.toString());
    double afterRejoin = 0; // the longest a worker of the second attempt took from layer 2 to the end
    for (Object o : rows) {
      Map<?, ?> report = (Map<?, ?>) ((Map<?, ?>) o).get("report");
      assertTrue(report != null && report.containsKey("t.rejoin") && report.containsKey("t.layer1")
          && report.containsKey("t.write"), "the second attempt's worker rejoined, ran layer 2 and wrote: " + o);
      afterRejoin = Math.max(afterRejoin, ((Number) report.get("t.layer1")).doubleValue()
          + ((Number) report.get("t.write")).doubleValue());
      // The first attempt's containers (its JVMs, with their partitions and first layer's rows in memory).
      assertEquals(1, ((Number) report.get("containerAttempt")).intValue(), "a first-attempt container: " + o);
      assertTrue(report.containsKey("keptPartition") && report.containsKey("t.layer0"),
          "it kept what it built in the first attempt: " + o);
    }
    assertNoContainerProcessLeft(id);
    try (org.apache.hadoop.yarn.client.api.YarnClient yc = yarnClient()) {
      java.util.List<org.apache.hadoop.yarn.api.records.ApplicationAttemptReport> a =
          yc.getApplicationAttempts(org.apache.hadoop.yarn.api.records.ApplicationId.fromString(id));
      assertEquals(2, a.size(), "two attempts");
      a = new java.util.ArrayList<>(a);
      a.sort(java.util.Comparator.comparingLong(r -> r.getStartTime()));
      double gap = (a.get(1).getStartTime() - a.get(0).getFinishTime()) / 1e3;
      double second = (a.get(1).getFinishTime() - a.get(1).getStartTime()) / 1e3;
      System.out.printf(java.util.Locale.ROOT, "AM restart (infer): the first attempt ran %.1f s until its crash at "
          + "layer 2; the second started %.1f s after the crash and finished the job in %.1f s, %.1f s of it on "
          + "layer 2 and the write: %.1f s lost (the gap and the second attempt's start: AM, adopting the "
          + "surviving workers)%n", (a.get(0).getFinishTime() - a.get(0).getStartTime()) / 1e3, gap, second,
          afterRejoin, gap + second - afterRejoin);
    }
  }

  /**
   * No process of application {@code id}'s containers (any attempt's) is alive once it finished: none is orphaned.
   * Waits (bounded) for the NodeManagers to finish stopping the last ones.
   */
  static void assertNoContainerProcessLeft(String id) throws Exception {
    String app = "_" + id.substring("application_".length()) + "_"; // container_[eN_]TS_APP_ATTEMPT_N
    long deadline = System.currentTimeMillis() + 30_000;
    List<Long> alive;
    do {
      alive = new ArrayList<>();
      for (ProcessHandle h : ProcessHandle.allProcesses().toList()) {
        try {
          byte[] env = Files.readAllBytes(java.nio.file.Path.of("/proc", Long.toString(h.pid()), "environ"));
          for (String kv : new String(env, java.nio.charset.StandardCharsets.UTF_8).split("\0")) {
            if (kv.startsWith("CONTAINER_ID=container_") && kv.contains(app) && h.isAlive()) {
              alive.add(h.pid());
            }
          }
        } catch (java.io.IOException | SecurityException e) {
          // gone meanwhile, or not ours to read
        }
      }
      if (!alive.isEmpty()) {
        Thread.sleep(200);
      }
    } while (!alive.isEmpty() && System.currentTimeMillis() < deadline);
    assertTrue(alive.isEmpty(), "processes of " + id + "'s containers still alive: " + alive);
  }

  private static org.apache.hadoop.yarn.client.api.YarnClient yarnClient() {
    org.apache.hadoop.yarn.client.api.YarnClient yc = org.apache.hadoop.yarn.client.api.YarnClient.createYarnClient();
    yc.init(cluster.conf());
    yc.start();
    return yc;
  }

  @Test
  void aKilledWorkerFailsTheJobCleanly() throws Exception {
    Model model = org.yarngnn.compute.model.RandomModels.random(CoraLocalInferenceTest.gcnSpec(), 1);
    CliRun run = inferCora(model, "killed", 2, 0, "--max-worker-failures", "0", "-D",
        "yarngnn.test.halt-worker=1@plan");
    assertEquals(1, run.status(), run.toString());
    // The application failed, naming the lost worker and the phase: "lost worker 1 during plan" from the driver,
    // or "worker 0 (plan): worker 0 lost worker 1" when a peer noticed first.
    String err = run.err();
    assertTrue(err.contains("FAILED") && err.contains("worker 1") && err.contains("plan"), run.toString());
    assertFalse(fs.exists(new Path("/out/killed")), "no output directory, so no _SUCCESS and no part file");
    for (FileStatus s : fs.listStatus(new Path("/out"))) {
      assertFalse(s.getPath().getName().startsWith(".killed"), "work directory left: " + s.getPath());
    }
  }

  @Test
  void badInputOnTheClusterExitsTwo() throws Exception {
    fs.copyFromLocalFile(new Path(Files.writeString(local.resolve("bad-edges.tsv"), "0\t1\n1\t99999\n").toUri()),
        new Path("/data/bad/edges.tsv"));
    Model model = org.yarngnn.compute.model.RandomModels.random(CoraLocalInferenceTest.gcnSpec(), 1);
    java.nio.file.Path dir = local.resolve("model-bad");
    ModelDirectory.write(model, dir);
    CliRun run = cli("infer", "--edges", "/data/bad/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz", "--model",
        dir.toUri().toString(), "--output", "/out/bad", "--workers", "2", "--worker-memory", "512");
    assertEquals(2, run.status(), run.toString());
    assertTrue(run.err().contains("edges.tsv:2"), run.toString());
    assertFalse(fs.exists(new Path("/out/bad")));
  }

  /**
   * {@code --targets} on the cluster (a Parquet id table on HDFS, 3 graph-worker containers): only the targets'
   * rows, equal to the all-node job's rows of a local run with as many workers; an unknown id exits 2.
   */
  @Test
  void targetsOnTheClusterEqualTheAllNodeRows() throws Exception {
    long[] ids = CoraLocalInferenceTest.cora.ids;
    long[] targets = new long[ids.length / 20 + 1];
    for (int i = 0; i < targets.length; i++) {
      targets[i] = ids[(int) ((long) i * 20 % ids.length)];
    }
    org.yarngnn.io.table.IdTable.write(cluster.conf(), new Path("/data/targets/ids.parquet"),
        org.yarngnn.io.table.TableFormat.PARQUET, targets);
    Model model = org.yarngnn.compute.model.RandomModels.random(CoraLocalInferenceTest.sageSpec(), 21);
    CliRun run = inferCora(model, "targets", 3, 4, "--targets", "/data/targets");
    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains(String.format("%,d embeddings", targets.length)), run.toString());
    java.nio.file.Path all = local.resolve("targets-all");
    java.nio.file.Path dir = local.resolve("model-targets");
    java.nio.file.Path cora = SharedData.planetoid("cora");
    CliRun single = CliRun.of("infer", "--local", "--edges", cora.resolve("edges.tsv").toString(), "--nodes",
        cora.resolve("nodes.tsv.gz").toString(), "--model", dir.toString(), "--output", all.toString(), "--seed", "4",
        "--workers", "3");
    assertEquals(0, single.status(), single.toString());
    Map<Long, float[]> want = EmbeddingTable.read(new org.apache.hadoop.conf.Configuration(),
        new Path(all.toUri())).embeddings();
    EmbeddingTable got = EmbeddingTable.read(cluster.conf(), new Path("/out/targets"));
    assertEquals(targets.length, got.size(), "exactly the targets");
    for (long id : targets) {
      org.junit.jupiter.api.Assertions.assertArrayEquals(want.get(id), got.embedding(id), "node " + id);
    }
    fs.copyFromLocalFile(new Path(Files.writeString(local.resolve("unknown-targets.txt"), ids[3] + "\n-5\n")
        .toUri()), new Path("/data/unknown-targets.txt"));
    run = inferCora(model, "targets-unknown", 2, 4, "--targets", "/data/unknown-targets.txt");
    assertEquals(2, run.status(), run.toString());
    assertTrue(run.err().contains("unknown-targets.txt:2: target id -5 is not a node of the graph"), run.toString());
    assertFalse(fs.exists(new Path("/out/targets-unknown")));
  }
}
