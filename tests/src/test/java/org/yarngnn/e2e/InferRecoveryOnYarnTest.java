package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.e2e.cluster.MiniClusters;
import org.yarngnn.io.table.EmbeddingTable;

/**
 * A lost graph worker of {@code infer} on a MiniYARNCluster: a container SIGKILLed in the middle of a layer is
 * replaced and the job succeeds with the embeddings of an undisturbed run, to the bit, both by default (every worker
 * builds the graph again and reruns the finished layers: nothing was checkpointed) and with
 * {@code --checkpoint layers} (the replacement reads its partition and the last finished layer's rows from the
 * checkpoints, the survivors keep theirs); one lost while the graph is built from the
 * tables is replaced too, and every worker builds its partition again; more losses than
 * {@code --max-worker-failures} fail the job cleanly.
 */
@Tag("faults")
class InferRecoveryOnYarnTest {
  static MiniClusters cluster;
  static FileSystem fs;
  @TempDir static java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    cluster = InferOnYarnTest.startWithCora("infer-recovery", local);
    fs = cluster.fs();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The three-layer sage model of the kill tests, and the seconds of its undisturbed run (once per class). */
  private static Model sage;
  private static double undisturbedSeconds = -1;

  private static synchronized java.nio.file.Path sageModel() throws Exception {
    java.nio.file.Path dir = local.resolve("model-sage");
    if (sage == null) {
      sage = RandomModels.random(CoraLocalInferenceTest.sageSpec(), 77);
      ModelDirectory.write(sage, dir);
    }
    return dir;
  }

  /** Runs the sage model undisturbed into /out/undisturbed (once); its seconds. */
  private synchronized double undisturbed() throws Exception {
    if (undisturbedSeconds < 0) {
      long t0 = System.nanoTime();
      CliRun plain = infer(sageModel(), "/out/undisturbed");
      assertEquals(0, plain.status(), plain.toString());
      undisturbedSeconds = (System.nanoTime() - t0) / 1e9;
    }
    return undisturbedSeconds;
  }

  /** Every node of {@code dir} exactly once, with the embedding of the undisturbed run, bit for bit. */
  private static void assertUndisturbedOutput(String dir) throws Exception {
    assertSameEmbeddings(cluster.conf(), "/out/undisturbed", dir);
  }

  /** The rows of output {@code gotDir} are those of {@code wantDir}: every node exactly once, bit for bit. */
  static void assertSameEmbeddings(org.apache.hadoop.conf.Configuration conf, String wantDir, String gotDir) {
    Map<Long, float[]> want = EmbeddingTable.read(conf, new Path(wantDir)).embeddings();
    Map<Long, float[]> got = EmbeddingTable.read(conf, new Path(gotDir)).embeddings();
    assertEquals(want.size(), got.size(), "every node exactly once");
    for (Map.Entry<Long, float[]> e : want.entrySet()) {
      float[] g = got.get(e.getKey());
      assertTrue(g != null, "node " + e.getKey() + " is missing");
      for (int c = 0; c < g.length; c++) {
        assertEquals(Float.floatToIntBits(e.getValue()[c]), Float.floatToIntBits(g[c]),
            "node " + e.getKey() + " column " + c + ": bit for bit");
      }
    }
  }

  private CliRun infer(java.nio.file.Path model, String out, String... extra) {
    List<String> args = new ArrayList<>(List.of("infer", "--edges", "/data/cora/edges.tsv", "--nodes",
        "/data/cora/nodes.tsv.gz", "--model", model.toUri().toString(), "--output", out, "--workers", "3",
        "--worker-memory", "512", "--seed", "5", "--chunk-rows", "200"));
    args.addAll(List.of(extra));
    return InferOnYarnTest.cli(cluster, args.toArray(new String[0]));
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "--checkpoint {0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"none", "layers"})
  void aWorkerKilledInTheMiddleOfALayerIsReplacedAndTheOutputIsUnchanged(String checkpoint) throws Exception {
    // Three sage layers: the kill is in the second, so the replacement resumes from the first one's checkpoint,
    // or, without checkpoints, every worker builds the graph and runs the first layer again.
    java.nio.file.Path dir = sageModel();
    Model model = sage;
    double undisturbed = undisturbed();

    java.nio.file.Path pauses = local.resolve("pauses-" + checkpoint);
    AtomicLong killedPid = new AtomicLong(-1);
    AtomicLong pausedAt = new AtomicLong();
    AtomicLong killedAt = new AtomicLong();
    Thread killer = new Thread(() -> {
      while (killedPid.get() < 0 && !Thread.currentThread().isInterrupted()) {
        try (var files = Files.list(pauses)) {
          for (java.nio.file.Path f : files.toList()) {
            long pid = Long.parseLong(f.getFileName().toString().substring("paused-".length()));
            pausedAt.set(Files.getLastModifiedTime(f).toMillis());
            // SIGKILL, as a NodeManager kills a preempted container or the kernel an out-of-memory one.
            if (ProcessHandle.of(pid).map(ProcessHandle::destroyForcibly).orElse(false)) {
              killedAt.set(System.currentTimeMillis());
              killedPid.set(pid);
            }
          }
        } catch (java.io.IOException e) {
          // Not created yet.
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "graph-worker-killer");
    killer.setDaemon(true);
    killer.start();
    CliRun run;
    long t1 = System.nanoTime();
    try {
      run = infer(dir, "/out/recovered-" + checkpoint, "--checkpoint", checkpoint, "-D",
          "yarngnn.test.halt-worker=pause:1@layer1:" + pauses);
    } finally {
      killer.interrupt();
    }
    double disturbed = (System.nanoTime() - t1) / 1e9;
    assertTrue(killedPid.get() > 0, "no paused graph worker was found to kill: " + run);
    assertEquals(0, run.status(), run.toString());
    String out = "/out/recovered-" + checkpoint;
    assertTrue(fs.exists(new Path(out, "_SUCCESS")));
    assertUndisturbedOutput(out);
    java.nio.file.Path copy = local.resolve("copy-recovered-" + checkpoint);
    fs.copyToLocalFile(new Path(out), new Path(copy.toUri()));
    CoraLocalInferenceTest.compare(model, 5, copy);
    assertFalse(anyCheckpointLeft(), "checkpoints are deleted when the job ends");
    // The driver's log, kept in the job's summary: which rounds ran again before layer 2.
    String id = run.out().replaceAll("(?s).*submitted (application_[0-9_]+).*", "$1");
    String summary = InferOnYarnTest.cli(cluster, "status", id, "--json").out();
    String recomputed = "read-nodes, route-nodes, edges, plan, layer 1, then layer 2/3 again";
    assertEquals(checkpoint.equals("none"), summary.contains(recomputed), summary);
    assertTrue(summary.contains("lost worker 1 during layer 2"), summary);
    double paused = (killedAt.get() - pausedAt.get()) / 1e3;
    System.out.printf(Locale.ROOT, "InferRecoveryOnYarnTest: --checkpoint %s: undisturbed %.1f s, one worker killed "
        + "in layer 2 of 3 and replaced %.1f s: %.1f s lost to the recovery (the worker waited %.1f s before the "
        + "kill)%n", checkpoint, undisturbed, disturbed, disturbed - undisturbed, paused);
  }

  /**
   * Worker 1's first container dies (exit 137, nothing cleaned, as after a SIGKILL) when the edge phase starts,
   * while the others route their edges to it: every worker drops its construction, the replacement joins, and
   * read-nodes, route-nodes (under the ownership chosen the first time) and edges run again on all three.
   */
  @Test
  void aWorkerLostWhileTheGraphIsBuiltFromTheTablesIsReplacedAndTheOutputIsUnchanged() throws Exception {
    java.nio.file.Path dir = sageModel();
    double undisturbed = undisturbed();
    long t0 = System.nanoTime();
    CliRun run = infer(dir, "/out/rebuilt", "-D", "yarngnn.test.halt-worker=kill:1@edges");
    double disturbed = (System.nanoTime() - t0) / 1e9;
    assertEquals(0, run.status(), run.toString());
    assertTrue(fs.exists(new Path("/out/rebuilt/_SUCCESS")));
    assertUndisturbedOutput("/out/rebuilt");
    // The driver's log, kept in the job's summary: the loss during edges, the replacement, the rounds run again.
    String id = run.out().replaceAll("(?s).*submitted (application_[0-9_]+).*", "$1");
    CliRun summary = InferOnYarnTest.cli(cluster, "status", id, "--json");
    assertTrue(summary.out().contains("lost worker 1 during edges")
        && summary.out().contains("read-nodes, route-nodes, then edges again"), summary.out());
    assertFalse(anyCheckpointLeft(), "checkpoints are deleted when the job ends");
    System.out.printf(Locale.ROOT, "InferRecoveryOnYarnTest: undisturbed %.1f s, worker 1 lost when the edge phase "
        + "started and the graph built again %.1f s: %.1f s lost to the recovery%n", undisturbed, disturbed,
        disturbed - undisturbed);
  }

  @Test
  void moreLossesThanAllowedFailTheJobCleanly() throws Exception {
    Model model = RandomModels.random(CoraLocalInferenceTest.gcnSpec(), 3);
    java.nio.file.Path dir = local.resolve("model-gcn");
    ModelDirectory.write(model, dir);
    // Worker 1 dies at the start of the first layer, and so does every replacement: the second loss is one too
    // many.
    CliRun run = infer(dir, "/out/lost", "--max-worker-failures", "1", "-D", "yarngnn.test.halt-worker=1@layer");
    assertEquals(1, run.status(), run.toString());
    assertTrue(run.err().contains("--max-worker-failures 1"), run.toString());
    assertFalse(fs.exists(new Path("/out/lost")), "no output directory, so no _SUCCESS and no part file");
    for (FileStatus s : fs.listStatus(new Path("/out"))) {
      assertFalse(s.getPath().getName().startsWith(".lost"), "work directory left: " + s.getPath());
    }
    assertFalse(anyCheckpointLeft(), "checkpoints are deleted when the job fails");
  }

  /** Whether a checkpoint directory (or file) of any job is left anywhere on the cluster FileSystem. */
  private static boolean anyCheckpointLeft() throws Exception {
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path("/"), true);
    while (it.hasNext()) {
      String p = it.next().getPath().toString();
      if (p.contains("/_checkpoints/") || p.endsWith(".rows")) {
        System.out.println("left: " + p);
        return true;
      }
    }
    return false;
  }
}
