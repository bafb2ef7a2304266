package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.model.Json;
import org.yarngnn.e2e.cluster.MiniClusters;

/**
 * {@code train} submitted to a MiniYARNCluster over a MiniDFSCluster: the AM runs the driver and the parameter
 * server, three graph-worker containers run the training role; the per-epoch losses equal the single-JVM
 * trainer's (and so the local runs') and the model directory lands on HDFS with {@code _SUCCESS}.
 */
class TrainOnYarnTest {
  static MiniClusters cluster;
  static FileSystem fs;
  @TempDir static java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    cluster = MiniClusters.start("train");
    fs = cluster.fs();
    java.nio.file.Path cora = SharedData.planetoid("cora");
    fs.copyFromLocalFile(new Path(cora.resolve("edges.tsv").toUri()), new Path("/data/cora/edges.tsv"));
    fs.copyFromLocalFile(new Path(cora.resolve("nodes.tsv.gz").toUri()), new Path("/data/cora/nodes.tsv.gz"));
    TrainLocalTest.edges = cora.resolve("edges.tsv");
    TrainLocalTest.nodes = cora.resolve("nodes.tsv.gz");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  static CliRun cli(String... args) {
    return InferOnYarnTest.cli(cluster, args);
  }

  /**
   * The job page: while an application runs, the ApplicationMaster serves the URL it registered (the
   * application report's original tracking URL; the proxied one cannot be opened here: MiniYARNCluster runs the
   * ResourceManager's web app on a port it reports as 0); its JSON has the application, its status and the
   * epochs so far. Polled from a thread while the job runs; returns the last JSON with an epoch.
   */
  static java.util.concurrent.Future<String> watchJobPage(java.util.concurrent.atomic.AtomicBoolean stop) {
    return java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "job-page-watcher");
      t.setDaemon(true);
      return t;
    }).submit(() -> {
      String seen = null;
      String last = "no running application seen";
      try (org.apache.hadoop.yarn.client.api.YarnClient yc = org.apache.hadoop.yarn.client.api.YarnClient
          .createYarnClient()) {
        yc.init(cluster.conf());
        yc.start();
        while (!stop.get()) {
          for (org.apache.hadoop.yarn.api.records.ApplicationReport r : yc.getApplications()) {
            String url = r.getOriginalTrackingUrl();
            if (r.getYarnApplicationState() != org.apache.hadoop.yarn.api.records.YarnApplicationState.RUNNING
                || url == null || url.isEmpty() || url.equals("N/A")) {
              continue;
            }
            try {
              java.net.HttpURLConnection c = (java.net.HttpURLConnection) new java.net.URL(
                  (url.startsWith("http") ? url : "http://" + url) + "json").openConnection();
              int code = c.getResponseCode();
              last = url + ": HTTP " + code;
              if (code == 200) {
                String body = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                last += " " + body.substring(0, Math.min(200, body.length()));
                Object epochs = ((Map<?, ?>) Json.parse(body)).get("epochs");
                if (epochs instanceof java.util.List<?> l && !l.isEmpty()) {
                  seen = body;
                }
              }
            } catch (java.io.IOException e) {
              last = url + ": " + e; // not up yet
            }
          }
          Thread.sleep(150);
        }
      }
      return seen != null ? seen : "NOT SEEN; last: " + last;
    });
  }

  @Test
  void threeWorkerContainersGiveTheSingleJvmLosses() throws Exception {
    int epochs = 8;
    java.nio.file.Path spec = Files.writeString(local.resolve("spec.json"), TrainLocalTest.SPEC);
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.Future<String> page = watchJobPage(stop);
    CliRun run = cli("train", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz",
        "--model-spec", spec.toUri().toString(), "--output", "/out/train3", "--workers", "3", "--worker-memory",
        "512", "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1", "--metrics",
        "/summaries/train3.json");
    stop.set(true);
    assertEquals(0, run.status(), run.toString());
    String json = page.get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertFalse(json.startsWith("NOT SEEN"), "the job page never showed an epoch: " + json);
    Map<?, ?> shown = (Map<?, ?>) Json.parse(json);
    assertTrue(shown.get("application").toString().startsWith("application_"), json);
    assertTrue(((java.util.List<?>) shown.get("log")).stream().anyMatch(l -> l.toString().contains("partition 2:")),
        "the page shows the driver's log: " + json);
    assertTrue(run.out().contains("application_") && run.out().contains("yarn-gnn train: epoch 8 loss "),
        run.out());
    assertTrue(fs.exists(new Path("/out/train3/_SUCCESS")));
    assertTrue(fs.exists(new Path("/out/train3/weights.safetensors")));
    String text;
    try (java.io.InputStream in = fs.open(new Path("/out/train3/metrics.json"))) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(epochs),
        TrainLocalTest.losses((Map<?, ?>) Json.parse(text)), "3 containers");
    // --metrics: the ApplicationMaster wrote the run's summary on HDFS, outside the output.
    try (java.io.InputStream in = fs.open(new Path("/summaries/train3.json"))) {
      Map<?, ?> summary = (Map<?, ?>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      assertEquals(3, ((java.util.List<?>) summary.get("per_worker")).size(), summary.toString());
      assertEquals(epochs, ((java.util.List<?>) ((Map<?, ?>) summary.get("training")).get("epochs")).size());
    }
    assertFalse(fs.exists(new Path("/out/train3/train3.json")));
  }

  /**
   * On the cluster: the ApplicationMaster writes the checkpoints on HDFS beside the output; an application
   * stopped after epoch 4's checkpoint (the test hook, exit 1) and resumed gives all 6 epochs, the single-JVM
   * trainer's losses, and leaves nothing hidden beside its output.
   */
  @Test
  void aStoppedApplicationResumes() throws Exception {
    java.nio.file.Path spec = Files.writeString(local.resolve("ckpt-spec.json"), TrainLocalTest.SPEC);
    String[] common = {"--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz", "--model-spec",
        spec.toUri().toString(), "--workers", "2", "--worker-memory", "512", "--epochs", "6", "--weight-decay",
        "5e-4", "--seed", "1", "--checkpoint-every", "2"};
    java.util.List<String> first = new java.util.ArrayList<>(java.util.List.of("train", "--output", "/out/ckpt",
        "-D", "yarngnn.test.stop-after-epoch=4"));
    first.addAll(java.util.List.of(common));
    CliRun stopped = cli(first.toArray(new String[0]));
    assertEquals(1, stopped.status(), stopped.toString());
    assertFalse(fs.exists(new Path("/out/ckpt")));
    assertTrue(fs.exists(new Path("/out/.ckpt.yarn-gnn-checkpoint/checkpoint-000004.json")), stopped.toString());
    java.util.List<String> again = new java.util.ArrayList<>(java.util.List.of("train", "--resume", "/out/ckpt"));
    again.addAll(java.util.List.of(common));
    CliRun resumed = cli(again.toArray(new String[0]));
    assertEquals(0, resumed.status(), resumed.toString());
    String text;
    try (java.io.InputStream in = fs.open(new Path("/out/ckpt/metrics.json"))) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(6),
        TrainLocalTest.losses((Map<?, ?>) Json.parse(text)), "stopped at 4, resumed on YARN");
    for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(new Path("/out"))) {
      assertFalse(f.getPath().getName().startsWith(".ckpt."), "left beside the output: " + f.getPath());
    }
  }

  @Test
  void noTrainRowsOnTheClusterExitsTwo() throws Exception {
    java.nio.file.Path spec = Files.writeString(local.resolve("tiny-spec.json"), "{\"format\": 1, \"layers\": "
        + "[{\"type\": \"gcn\", \"in\": 2, \"out\": 2}], \"output\": {\"predict\": true}}");
    fs.copyFromLocalFile(new Path(Files.writeString(local.resolve("n.tsv"), "0\t1\tval\t1,0\n1\t0\tnone\t0,1\n")
        .toUri()), new Path("/data/tiny/nodes.tsv"));
    fs.copyFromLocalFile(new Path(Files.writeString(local.resolve("e.tsv"), "0\t1\n").toUri()),
        new Path("/data/tiny/edges.tsv"));
    CliRun run = cli("train", "--edges", "/data/tiny/edges.tsv", "--nodes", "/data/tiny/nodes.tsv",
        "--model-spec", spec.toUri().toString(), "--output", "/out/tiny", "--workers", "2", "--worker-memory",
        "512", "--epochs", "2");
    assertEquals(2, run.status(), run.toString());
    assertTrue(run.err().contains("train"), run.toString());
    assertFalse(fs.exists(new Path("/out/tiny")));
  }

  /**
   * Computation separation on the cluster: two graph-worker containers and an elastic pool of tensor-worker
   * containers (1 to 3): it grows while the first tasks queue over 200 ms (each worker's first 30 take 100 ms
   * longer, the test hook of a cold container) and shrinks when its workers sit mostly idle (1.5 s windows); one
   * tensor-worker container is killed (SIGKILL of its JVM) while
   * epochs run. The pool replaces it, its tasks are sent again, and the run ends with the single-JVM trainer's
   * losses and a lost-and-relaunched worker in metrics.json.
   */
  @Test
  void aKilledTensorWorkerContainerIsReplacedAndTrainingFinishes() throws Exception {
    int epochs = 40;
    java.nio.file.Path spec = Files.writeString(local.resolve("remote-spec.json"), TrainLocalTest.SPEC);
    java.util.concurrent.atomic.AtomicLong killed = new java.util.concurrent.atomic.AtomicLong(-1);
    Thread killer = new Thread(() -> {
      long seen = 0;
      while (killed.get() < 0 && !Thread.currentThread().isInterrupted()) {
        java.util.List<ProcessHandle> ps = ProcessHandle.allProcesses()
            .filter(h -> h.info().commandLine().orElse("").contains("TensorWorkerMain")).toList();
        if (!ps.isEmpty()) {
          seen = seen == 0 ? System.nanoTime() : seen;
          // Once the pool has grown (a second tensor-worker JVM), so the growth is seen before the loss; kill
          // one of them (SIGKILL) after the first has run 6 s.
          if (ps.size() > 1 && System.nanoTime() - seen > 6_000_000_000L && ps.get(0).destroyForcibly()) {
            killed.set(ps.get(0).pid());
          }
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "tensor-worker-killer");
    killer.setDaemon(true);
    killer.start();
    CliRun run;
    try {
      run = cli("train", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz",
          "--model-spec", spec.toUri().toString(), "--output", "/out/remote", "--workers", "2", "--worker-memory",
          "512", "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1", "--tensor-backend",
          "remote", "--tensor-workers", "1", "--tensor-workers-max", "3", "--tensor-worker-memory", "384",
          "--intervals", "8", "-D", "yarngnn.tensor-pool.grow-after-ms=200", "-D",
          "yarngnn.tensor-pool.idle-ms=1500", "-D", "yarngnn.test.slow-tensor-tasks=30:100");
    } finally {
      killer.interrupt();
    }
    assertEquals(0, run.status(), run.toString());
    assertTrue(killed.get() > 0, "no tensor-worker container was found to kill: " + run);
    String text;
    try (java.io.InputStream in = fs.open(new Path("/out/remote/metrics.json"))) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Map<?, ?> m = (Map<?, ?>) Json.parse(text);
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(epochs), TrainLocalTest.losses(m),
        "remote tensor workers on YARN, one killed");
    Map<?, ?> pool = (Map<?, ?>) m.get("tensor_pool");
    assertTrue(((Number) pool.get("lost")).longValue() >= 1, pool.toString());
    assertTrue(((Number) pool.get("launched")).longValue() >= 2, pool.toString());
    long max = 0;
    boolean shrank = false;
    for (Object o : (java.util.List<?>) pool.get("sizes")) {
      long size = ((Number) ((Map<?, ?>) o).get("size")).longValue();
      shrank |= size < max;
      max = Math.max(max, size);
    }
    assertTrue(max > 1, "the pool never grew: " + pool);
    assertTrue(shrank && ((Number) pool.get("retired")).longValue() >= 1, "the pool never shrank: " + pool);
    assertTrue(((Number) ((Map<?, ?>) m.get("best")).get("test_accuracy")).doubleValue() > 0.65, text);
  }

  /** Bounded asynchrony in containers: the epochs' reports and weights flow through the AM while workers run. */
  @Test
  void boundedAsynchronyTrainsInContainers() throws Exception {
    int epochs = 30;
    java.nio.file.Path spec = Files.writeString(local.resolve("stale-spec.json"), TrainLocalTest.SPEC);
    CliRun run = cli("train", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz",
        "--model-spec", spec.toUri().toString(), "--output", "/out/stale", "--workers", "2", "--worker-memory",
        "512", "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1", "--staleness", "2",
        "-D", "yarngnn.test.slow-worker=1:50");
    assertEquals(0, run.status(), run.toString());
    String text;
    try (java.io.InputStream in = fs.open(new Path("/out/stale/metrics.json"))) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Map<?, ?> m = (Map<?, ?>) Json.parse(text);
    assertEquals(2, TrainStalenessTest.checkEpochs(m, epochs, 2), "the slowed worker's peer ran 2 epochs ahead");
    assertTrue(((Number) ((Map<?, ?>) m.get("best")).get("test_accuracy")).doubleValue() > 0.65, text);
  }

  /**
   * AM restart: the ApplicationMaster (the driver and the parameter server) is SIGKILLed after the checkpoint of
   * epoch 4; YARN starts a second attempt, which resumes from that checkpoint; the run SUCCEEDS with the losses
   * of an undisturbed run (the single-JVM trainer's), every epoch once in metrics.json. Prints the time lost.
   */
  @Test
  void aKilledApplicationMasterIsRestartedAndResumesFromItsCheckpoint() throws Exception {
    int epochs = 40;
    java.nio.file.Path spec = Files.writeString(local.resolve("amkill-spec.json"), TrainLocalTest.SPEC);
    Path marker = new Path("/out/.amkill" + org.yarngnn.app.train.Checkpoint.INFIX + "/checkpoint-000004.json");
    java.util.concurrent.atomic.AtomicLong killedAt = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicReference<String> killerFailure = new java.util.concurrent.atomic.AtomicReference<>();
    Thread killer = new Thread(() -> {
      try {
        while (killedAt.get() == 0) {
          if (fs.exists(marker)) {
            java.util.Optional<ProcessHandle> am = ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().orElse("").contains("org.yarngnn.app.yarn.AmMain")).findFirst();
            if (am.isPresent() && am.get().destroyForcibly()) {
              killedAt.set(System.nanoTime());
            }
          }
          Thread.sleep(50);
        }
      } catch (InterruptedException e) {
        // the run ended
      } catch (Exception e) {
        killerFailure.set(e.toString());
      }
    }, "am-killer");
    killer.setDaemon(true);
    killer.start();
    long t0 = System.nanoTime();
    CliRun run;
    try {
      run = cli("train", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz",
          "--model-spec", spec.toUri().toString(), "--output", "/out/amkill", "--workers", "2", "--worker-memory",
          "512", "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1",
          "--checkpoint-every", "2");
    } finally {
      killer.interrupt();
    }
    long t1 = System.nanoTime();
    assertTrue(killedAt.get() != 0, "the ApplicationMaster was never killed (" + killerFailure.get() + "): " + run);
    assertEquals(0, run.status(), run.toString());
    String text;
    try (java.io.InputStream in = fs.open(new Path("/out/amkill/metrics.json"))) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Map<?, ?> m = (Map<?, ?>) Json.parse(text);
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(epochs), TrainLocalTest.losses(m),
        "a second AM attempt resumed from epoch 4");
    assertTrue(fs.exists(new Path("/out/amkill/_SUCCESS")));
    assertFalse(fs.exists(marker.getParent()), "the checkpoints are deleted after the commit");
    String id = run.out().replaceAll("(?s).*submitted (application_[0-9_]+).*", "$1");
    try (org.apache.hadoop.yarn.client.api.YarnClient yc = org.apache.hadoop.yarn.client.api.YarnClient
        .createYarnClient()) {
      yc.init(cluster.conf());
      yc.start();
      java.util.List<org.apache.hadoop.yarn.api.records.ApplicationAttemptReport> attempts =
          yc.getApplicationAttempts(org.apache.hadoop.yarn.api.records.ApplicationId.fromString(id));
      assertEquals(2, attempts.size(), attempts.toString());
    }
    System.out.printf(java.util.Locale.ROOT, "AM restart: killed %.1f s into the run, finished %.1f s after the kill "
        + "(%d epochs, resumed after epoch 4)%n", (killedAt.get() - t0) / 1e9, (t1 - killedAt.get()) / 1e9, epochs);
  }
}
