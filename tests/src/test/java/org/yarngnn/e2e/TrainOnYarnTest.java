package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.runtime.FaultHooks;
import org.yarngnn.app.yarn.YarnJobClient;
import org.yarngnn.compute.json.Json;
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

  /** {@code train} on Cora with two graph workers ({@code --weight-decay 5e-4 --seed 1}, as the references). */
  static CliRun trainCoraOnTwo(java.nio.file.Path spec, String out, int epochs, String... extra) {
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("train", "--edges",
        "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz", "--model-spec", spec.toUri().toString(),
        "--output", out, "--workers", "2", "--worker-memory", "512", "--epochs", Integer.toString(epochs),
        "--weight-decay", "5e-4", "--seed", "1"));
    args.addAll(java.util.List.of(extra));
    return cli(args.toArray(new String[0]));
  }

  /** The metrics.json of the model directory {@code dir} on the cluster. */
  static Map<?, ?> metrics(String dir) throws java.io.IOException {
    try (java.io.InputStream in = fs.open(new Path(dir, "metrics.json"))) {
      return (Map<?, ?>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /**
   * The job page as read through the ResourceManager's web proxy while the job ran: the application, one row per
   * worker with its partition's sizes, bytes exchanged, heap and the seconds of its phases so far, the epochs with their staleness, the
   * driver's log; the HTML has the same rows.
   */
  static void assertJobPage(JobPageWatcher.Seen page, int workers) {
    assertTrue(page.found(), "the job page, through the proxy, never showed an epoch and every worker's "
        + "partition: " + page.last());
    assertTrue(page.trackingUrl().startsWith(cluster.webAppAddress() + "/proxy/application_"), page.trackingUrl());
    Map<?, ?> json = page.json();
    assertTrue(json.get("application").toString().startsWith("application_"), json.toString());
    long nodes = 0;
    for (int w = 0; w < workers; w++) {
      Map<?, ?> row = (Map<?, ?>) JobPageWatcher.workers(json).get(w);
      assertEquals(w, ((Number) row.get("worker")).intValue(), row.toString());
      nodes += ((Number) row.get("nodes")).longValue();
      assertTrue(((Number) row.get("edges")).longValue() > 0, row.toString());
      assertTrue(row.containsKey("halo"), row.toString());
      // Gauges ride on every answer: bytes exchanged and heap are on the page before the workers' exit reports.
      assertTrue(((Number) row.get("bytes_sent")).longValue() > 0 && ((Number) row.get("heap_bytes")).longValue() > 0
          && ((Number) row.get("peak_heap_bytes")).longValue() > 0, row.toString());
      Map<?, ?> phases = (Map<?, ?>) row.get("phase_seconds");
      assertTrue(((Number) phases.get("forward")).doubleValue() > 0, "a worker's phase seconds: " + row);
    }
    assertEquals(2708, nodes, "Cora's nodes over the workers' rows: " + json.get("workers"));
    Map<?, ?> epoch = (Map<?, ?>) ((java.util.List<?>) json.get("epochs")).get(0);
    assertTrue(epoch.containsKey("loss") && epoch.containsKey("max_staleness"), epoch.toString());
    assertTrue(((java.util.List<?>) json.get("log")).stream().anyMatch(l -> l.toString().contains("partition "
        + (workers - 1) + ":")), "the page shows the driver's log: " + json);
    String html = page.html();
    assertEquals(workers, html.split("<tr class='worker'>", -1).length - 1, html);
    assertTrue(html.contains("<svg") && html.contains("<th>max staleness</th>"), html);
  }

  /**
   * After the application: {@code yarn-gnn status APP_ID} prints the summary the ApplicationMaster left (its
   * job page's last state), with every worker's exit figures; --json has them as numbers; an id that is not
   * one, or one nobody knows, exits 2.
   */
  static void assertStatusSummary(CliRun run, int workers, int epochs) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("submitted (application_\\d+_\\d+)")
        .matcher(run.out());
    assertTrue(m.find(), run.out());
    String appId = m.group(1);
    CliRun status = cli("status", appId);
    assertEquals(0, status.status(), status.toString());
    assertTrue(status.out().contains(appId + " SUCCEEDED") && status.out().contains(epochs + " epochs; last: "),
        status.out());
    CliRun json = cli("status", appId, "--json");
    assertEquals(0, json.status(), json.toString());
    Map<?, ?> s = (Map<?, ?>) Json.parse(json.out());
    assertEquals("SUCCEEDED", s.get("final_status"), json.out());
    assertEquals(epochs, ((java.util.List<?>) s.get("epochs")).size(), json.out());
    java.util.List<?> rows = JobPageWatcher.workers(s);
    assertEquals(workers, rows.size(), json.out());
    for (Object o : rows) {
      Map<?, ?> row = (Map<?, ?>) o;
      assertTrue(((Number) row.get("bytes_sent")).longValue() > 0 && ((Number) row.get("bytes_received"))
          .longValue() > 0 && ((Number) row.get("peak_heap_bytes")).longValue() > 0, "exit figures: " + row);
    }
    CliRun unknown = cli("status", appId.replaceAll("_\\d+$", "_9999"));
    assertEquals(2, unknown.status(), unknown.toString());
    assertTrue(unknown.err().contains("does not know it"), unknown.err());
    CliRun bad = cli("status", "job_1_2");
    assertEquals(2, bad.status(), bad.toString());
    assertTrue(bad.err().contains("\"job_1_2\" is not an application id"), bad.err()); // quoted with JSON's escapes
  }

  /**
   * The client printed every epoch's line once and in order, the first before it saw the application finish: it
   * streams them while the application runs (before, it printed them all from metrics.json afterwards).
   */
  static void assertEpochLinesWhileRunning(String out, int epochs) {
    List<String> lines = out.lines().toList();
    int finished = -1;
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (finished < 0 && l.matches("yarn-gnn: application_\\d+_\\d+ FINISHED .*")) {
        finished = i;
      }
      if (l.startsWith("yarn-gnn train: epoch ")) {
        at.add(i);
        assertTrue(l.startsWith("yarn-gnn train: epoch " + at.size() + " loss "), "epoch " + at.size()
            + " expected, in order and once each: " + out);
      }
    }
    assertEquals(epochs, at.size(), "one line per epoch: " + out);
    assertTrue(finished >= 0, out);
    assertTrue(at.get(0) < finished, "the first epoch's line came only after the application finished: " + out);
  }

  @Test
  void threeWorkerContainersGiveTheSingleJvmLosses() throws Exception {
    int epochs = 8;
    java.nio.file.Path spec = Files.writeString(local.resolve("spec.json"), TrainLocalTest.SPEC);
    CliRun run;
    JobPageWatcher.Seen page;
    // The page through the ResourceManager's proxy, once it has an epoch and all three workers' partition sizes:
    // the driver holds after epoch 1 until the watcher has read it (a test hook), however slow the machine.
    java.nio.file.Path hold = local.resolve("hold-train3");
    try (JobPageWatcher watcher = new JobPageWatcher(cluster, j -> !((java.util.List<?>) j.get("epochs")).isEmpty()
        && JobPageWatcher.workers(j).size() == 3
        && JobPageWatcher.workers(j).stream().allMatch(w -> ((Map<?, ?>) w).containsKey("nodes")),
        () -> Files.createDirectories(hold).resolve("release").toFile().createNewFile())) {
      run = cli("train", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz",
          "--model-spec", spec.toUri().toString(), "--output", "/out/train3", "--workers", "3", "--worker-memory",
          "512", "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1", "--metrics",
          "/summaries/train3.json", "-D", YarnJobClient.POLL_KEY + "=200", "-D",
          FaultHooks.HOLD_AFTER_EPOCH_KEY + "=1:" + hold);
      page = watcher.stop();
    }
    assertTrue(Files.exists(hold.resolve("held")), "the driver held after epoch 1");
    assertEquals(0, run.status(), run.toString());
    assertJobPage(page, 3);
    assertTrue(run.out().contains("tracking URL " + cluster.webAppAddress() + "/proxy/application_"), run.out());
    assertStatusSummary(run, 3, epochs);
    assertEpochLinesWhileRunning(run.out(), epochs);
    assertTrue(fs.exists(new Path("/out/train3/_SUCCESS")));
    assertTrue(fs.exists(new Path("/out/train3/weights.safetensors")));
    Map<?, ?> m = metrics("/out/train3");
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(epochs),
        TrainLocalTest.losses(m), "3 containers");
    // --metrics: the ApplicationMaster wrote the run's summary on HDFS, outside the output.
    try (java.io.InputStream in = fs.open(new Path("/summaries/train3.json"))) {
      Map<?, ?> summary = (Map<?, ?>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      assertEquals(3, ((java.util.List<?>) summary.get("per_worker")).size(), summary.toString());
      assertEquals(epochs, ((java.util.List<?>) ((Map<?, ?>) summary.get("training")).get("epochs")).size());
    }
    assertFalse(fs.exists(new Path("/out/train3/train3.json")));
  }

  /**
   * {@code train --task link} with two graph-worker containers (the graph auto-encoder's protocol on Cora: gcn
   * 1433 -> 32 -> 16, 85/5/10 of the pairs held out by the default {@code --link-split}, one uniform negative, bce,
   * no dropout): its per-epoch losses and validation AUCs equal {@code --local --workers 2}'s, and {@code infer} on
   * YARN runs on the model directory it wrote, giving that model's embeddings of every node. Tagged {@code faults}
   * (the profile of this class's long runs) as it took 93 s on the shared machine, over the default run's budget.
   */
  @Tag("faults")
  @Test
  void linkPredictionOnTwoContainersGivesTheLocalLossesAndItsModelInfers() throws Exception {
    int epochs = 6;
    java.nio.file.Path spec = Files.writeString(local.resolve("gae.json"), TrainLinkLocalTest.GAE_SPEC);
    List<String> common = linkJob(spec, epochs);
    List<String> onYarn = new ArrayList<>(List.of("train", "--edges", "/data/cora/edges.tsv", "--nodes",
        "/data/cora/nodes.tsv.gz", "--output", "/out/link", "--worker-memory", "512", "--link-pairs",
        "/out/link-pairs"));
    onYarn.addAll(common);
    CliRun run = cli(onYarn.toArray(new String[0]));
    assertEquals(0, run.status(), run.toString());
    assertEpochLinesWhileRunning(run.out(), epochs);
    assertTrue(run.out().matches("(?s).*yarn-gnn train: best epoch \\d+: val auc 0\\.\\d{4}, test auc 0\\.\\d{4} ap "
        + "0\\.\\d{4}\n.*"), run.out());
    java.nio.file.Path localOut = local.resolve("link-local");
    List<String> inJvm = new ArrayList<>(List.of("train", "--local", "--edges", TrainLocalTest.edges.toString(),
        "--nodes", TrainLocalTest.nodes.toString(), "--output", localOut.toString(), "--link-pairs",
        local.resolve("link-local-pairs").toString()));
    inJvm.addAll(common);
    CliRun ref = CliRun.of(inJvm.toArray(new String[0]));
    assertEquals(0, ref.status(), ref.toString());
    assertSameLinkRun(TrainLocalTest.metrics(localOut), metrics("/out/link"),
        "link prediction, 2 containers against --local --workers 2");
    // --link-pairs: the client began the commit, the containers wrote their parts on HDFS, the AM committed it.
    assertTrue(run.out().contains("wrote the evaluation pairs to "), run.out());
    java.nio.file.Path pairs = local.resolve("link-yarn-pairs");
    fs.copyToLocalFile(new Path("/out/link-pairs"), new Path(pairs.toUri()));
    assertTrue(Files.exists(pairs.resolve("_SUCCESS")));
    for (String t : org.yarngnn.app.train.LinkOptions.PAIR_TABLES) {
      List<long[]> a = TrainLinkLocalTest.pairs(local.resolve("link-local-pairs").resolve(t));
      List<long[]> b = TrainLinkLocalTest.pairs(pairs.resolve(t));
      assertFalse(a.isEmpty(), t);
      assertEquals(a.stream().map(java.util.Arrays::toString).toList(), b.stream().map(java.util.Arrays::toString)
          .toList(), "the pairs table " + t + " on YARN and --local");
    }

    // infer on YARN with the model directory on HDFS: every node's embedding, that model's (the contract's reference).
    CliRun inf = cli("infer", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz", "--model",
        "/out/link", "--output", "/out/link-embeddings", "--workers", "2", "--worker-memory", "512", "--seed", "1");
    assertEquals(0, inf.status(), inf.toString());
    java.nio.file.Path model = local.resolve("link-model");
    fs.copyToLocalFile(new Path("/out/link"), new Path(model.toUri()));
    java.nio.file.Path emb = local.resolve("link-embeddings");
    fs.copyToLocalFile(new Path("/out/link-embeddings"), new Path(emb.toUri()));
    CoraLocalInferenceTest.load();
    CoraLocalInferenceTest.compare(org.yarngnn.compute.model.ModelDirectory.read(model), 1, emb);
  }

  /**
   * Two link-prediction runs' metrics.json agree: per-epoch losses (relative 1e-4), validation AUCs (1e-4), the
   * best epoch, and its test AUC (1e-4).
   */
  static void assertSameLinkRun(Map<?, ?> want, Map<?, ?> got, String what) {
    TrainLocalTest.assertSameLosses(TrainLinkLocalTest.figure(want, "loss"), TrainLinkLocalTest.figure(got, "loss"),
        what);
    double[] wantAuc = TrainLinkLocalTest.figure(want, "val_auc");
    double[] gotAuc = TrainLinkLocalTest.figure(got, "val_auc");
    for (int e = 0; e < wantAuc.length; e++) {
      assertEquals(wantAuc[e], gotAuc[e], 1e-4, what + ": val auc of epoch " + (e + 1));
    }
    assertEquals(want.get("best_epoch"), got.get("best_epoch"), what + ": best epoch");
    assertEquals(((Number) ((Map<?, ?>) want.get("best")).get("test_auc")).doubleValue(),
        ((Number) ((Map<?, ?>) got.get("best")).get("test_auc")).doubleValue(), 1e-4, what + ": test auc");
  }

  /**
   * Runs {@code job} (writing {@code out}, with {@code --checkpoint-every 2}) and SIGKILLs one of its graph-worker
   * container JVMs once the checkpoint of epoch 2 is on the cluster; asserts that one was killed, that the run
   * SUCCEEDED, deleted its checkpoints and says in its driver's log that it lost a worker and resumed from a
   * checkpoint (not from epoch 1). Prints the time the recovery took.
   */
  static void killAWorkerAfterCheckpoint2(String out, String what, int epochs,
      java.util.function.Supplier<CliRun> job) throws Exception {
    Path marker = new Path(new Path(out).getParent(), "." + new Path(out).getName()
        + org.yarngnn.app.train.Checkpoint.INFIX + "/checkpoint-000002.json");
    java.util.concurrent.atomic.AtomicLong killedAt = new java.util.concurrent.atomic.AtomicLong();
    // Only this job's workers: an earlier test's containers (kept across AM attempts) may still be exiting.
    java.time.Instant started = java.time.Instant.now();
    Thread killer = new Thread(() -> {
      try {
        while (killedAt.get() == 0) {
          if (fs.exists(marker)) {
            java.util.Optional<ProcessHandle> w = ContainerJvm.running("org.yarngnn.app.train.TrainWorkerMain",
                started).stream().findFirst();
            if (w.isPresent() && w.get().destroyForcibly()) {
              killedAt.set(System.nanoTime());
            }
          }
          Thread.sleep(50);
        }
      } catch (InterruptedException | java.io.IOException e) {
        // the run ended; the test fails on killedAt == 0
      }
    }, "worker-killer");
    killer.setDaemon(true);
    killer.start();
    long t0 = System.nanoTime();
    CliRun run;
    try {
      run = job.get();
    } finally {
      killer.interrupt();
    }
    long t1 = System.nanoTime();
    assertTrue(killedAt.get() != 0, "no graph-worker container was killed: " + run);
    assertEquals(0, run.status(), run.toString());
    assertFalse(fs.exists(marker.getParent()), "the checkpoints are deleted after the commit");
    // The driver's log, kept in the job's summary: the loss, and the resumption from a checkpoint (not epoch 1).
    String id = run.out().replaceAll("(?s).*submitted (application_[0-9_]+).*", "$1");
    CliRun summary = cli("status", id, "--json");
    String log = summary.out().substring(Math.max(0, summary.out().indexOf("\"log\"")));
    assertTrue(log.contains("lost a graph worker") && log.contains("resuming after epoch"), log);
    System.out.printf(java.util.Locale.ROOT, "lost graph worker (%s): killed %.1f s into the run, finished %.1f s "
        + "after the kill (%d epochs)%n", what, (killedAt.get() - t0) / 1e9, (t1 - killedAt.get()) / 1e9, epochs);
  }

  /** The options of the link jobs below (the graph auto-encoder on Cora, 2 workers, no dropout, seed 1). */
  static List<String> linkJob(java.nio.file.Path spec, int epochs, String... extra) {
    List<String> a = new ArrayList<>(List.of("--task", "link", "--model-spec", spec.toUri().toString(), "--workers",
        "2", "--epochs", Integer.toString(epochs), "--dropout", "0", "--seed", "1"));
    a.addAll(List.of(extra));
    return a;
  }

  /** An undisturbed {@code train --task link --local --workers 2} of {@link #linkJob}'s options: its metrics.json. */
  static Map<?, ?> localLinkRun(java.nio.file.Path spec, int epochs) throws Exception {
    java.nio.file.Path out = local.resolve("link-local-" + epochs);
    if (!Files.exists(out)) {
      List<String> a = new ArrayList<>(List.of("train", "--local", "--edges", TrainLocalTest.edges.toString(),
          "--nodes", TrainLocalTest.nodes.toString(), "--output", out.toString()));
      a.addAll(linkJob(spec, epochs));
      CliRun ref = CliRun.of(a.toArray(new String[0]));
      assertEquals(0, ref.status(), ref.toString());
    }
    return TrainLocalTest.metrics(out);
  }

  /** {@code train --task link} of {@link #linkJob}'s options on YARN, writing {@code out}. */
  static CliRun linkOnYarn(java.nio.file.Path spec, String out, int epochs, String... extra) {
    List<String> a = new ArrayList<>(List.of("train", "--edges", "/data/cora/edges.tsv", "--nodes",
        "/data/cora/nodes.tsv.gz", "--output", out, "--worker-memory", "512"));
    a.addAll(linkJob(spec, epochs, extra));
    return cli(a.toArray(new String[0]));
  }

  /**
   * A link job's graph-worker container SIGKILLed mid-run after the checkpoint of epoch 2 (so in the middle of one
   * of the epochs after it): the job starts a new set of workers from that checkpoint and SUCCEEDS with the losses,
   * validation AUCs, best epoch and test AUC of an undisturbed run ({@code --local}, which the link YARN test above
   * shows equal to an undisturbed YARN run). Prints the time the recovery took.
   */
  @Tag("faults")
  @Test
  void aKilledGraphWorkerContainerInALinkJobResumesFromItsCheckpoint() throws Exception {
    int epochs = 16;
    java.nio.file.Path spec = Files.writeString(local.resolve("link-kill.json"), TrainLinkLocalTest.GAE_SPEC);
    killAWorkerAfterCheckpoint2("/out/linkkill", "train --task link", epochs,
        () -> linkOnYarn(spec, "/out/linkkill", epochs, "--checkpoint-every", "2"));
    assertSameLinkRun(localLinkRun(spec, epochs), metrics("/out/linkkill"),
        "link prediction: new graph workers resumed from the checkpoint");
  }

  /**
   * A link job without checkpoints whose graph worker 1 dies as a killed container (exit 137) at the start of its
   * first link loss, in the middle of epoch 1: the job starts a new set of workers from the tables and SUCCEEDS
   * with an undisturbed run's figures.
   */
  @Tag("faults")
  @Test
  void aLinkJobWithoutCheckpointsStartsItsWorkersAgainAfterALoss() throws Exception {
    int epochs = 6;
    java.nio.file.Path spec = Files.writeString(local.resolve("link-loss.json"), TrainLinkLocalTest.GAE_SPEC);
    startedAgainAfterALoss("in link-loss (train --task link)", epochs,
        () -> linkOnYarn(spec, "/out/linkloss", epochs, "-D", "yarngnn.test.halt-worker=kill:1@link-loss"));
    assertSameLinkRun(localLinkRun(spec, epochs), metrics("/out/linkloss"),
        "link prediction: new graph workers from the tables");
  }

  /**
   * Runs {@code job}, whose first set of workers loses one before any checkpoint; asserts that the run SUCCEEDED and
   * says in its driver's log that it lost a worker and started again from epoch 1. Prints the time it took.
   */
  static void startedAgainAfterALoss(String what, int epochs, java.util.function.Supplier<CliRun> job) {
    long t0 = System.nanoTime();
    CliRun run = job.get();
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertEquals(0, run.status(), run.toString());
    String id = run.out().replaceAll("(?s).*submitted (application_[0-9_]+).*", "$1");
    CliRun summary = cli("status", id, "--json");
    assertTrue(summary.out().contains("lost a graph worker") && summary.out().contains("from epoch 1"),
        summary.out());
    System.out.printf(java.util.Locale.ROOT, "lost graph worker %s: %.1f s for %d epochs, the workers started "
        + "twice%n", what, seconds, epochs);
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
    Map<?, ?> m = metrics("/out/ckpt");
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(6),
        TrainLocalTest.losses(m), "stopped at 4, resumed on YARN");
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
    // The reason itself: "train" alone is in every line the command prints.
    assertTrue(run.err().contains("no labelled row has split 'train'"), run.toString());
    assertFalse(fs.exists(new Path("/out/tiny")));
  }

  /**
   * Computation separation on the cluster: two graph-worker containers and an elastic pool of tensor-worker
   * containers (1 to 3); the first tensor-worker container is killed (SIGKILL of its JVM) while epochs run. The pool
   * replaces it, its tasks are sent again, and the run ends with the single-JVM trainer's losses and a
   * lost-and-relaunched worker in metrics.json; the job page showed the pool.
   */
  @Tag("faults")
  @Test
  void aKilledTensorWorkerContainerIsReplacedAndTrainingFinishes() throws Exception {
    int epochs = 40;
    java.nio.file.Path spec = Files.writeString(local.resolve("remote-spec.json"), TrainLocalTest.SPEC);
    java.util.concurrent.atomic.AtomicLong killed = new java.util.concurrent.atomic.AtomicLong(-1);
    java.util.concurrent.atomic.AtomicInteger mostSeen = new java.util.concurrent.atomic.AtomicInteger();
    Thread killer = new Thread(() -> {
      long seen = 0;
      while (killed.get() < 0 && !Thread.currentThread().isInterrupted()) {
        java.util.List<ProcessHandle> ps = ContainerJvm.running("TensorWorkerMain", java.time.Instant.EPOCH);
        if (!ps.isEmpty()) {
          seen = seen == 0 ? System.nanoTime() : seen;
          mostSeen.accumulateAndGet(ps.size(), Math::max);
          // The oldest tensor-worker JVM (SIGKILL) once it has run 3 s, while training runs. Not waiting for the
          // pool to grow: on a fast machine it may never need a second worker (CI saw one JVM only, twice).
          if (System.nanoTime() - seen > 3_000_000_000L && ps.get(0).destroyForcibly()) {
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
    JobPageWatcher.Seen page;
    JobPageWatcher watcher = new JobPageWatcher(cluster, j -> j.get("tensor_pool") instanceof Map<?, ?> p
        && !((java.util.List<?>) p.get("sizes")).isEmpty());
    try {
      run = cli("train", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz",
          "--model-spec", spec.toUri().toString(), "--output", "/out/remote", "--workers", "2", "--worker-memory",
          "512", "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1", "--tensor-backend",
          "remote", "--tensor-workers", "1", "--tensor-workers-max", "3", "--tensor-worker-memory", "384",
          "--intervals", "8", "-D", "yarngnn.tensor-pool.grow-after-ms=200", "-D",
          "yarngnn.tensor-pool.idle-ms=1500", "-D", "yarngnn.test.slow-tensor-tasks=80:150");
      page = watcher.stop();
    } finally {
      killer.interrupt();
      watcher.close();
    }
    assertEquals(0, run.status(), run.toString());
    // The page through the proxy showed the tensor-worker pool's size.
    assertTrue(page.found() && page.html().contains("id='tensor-pool'"), "no pool on the page: " + page.last());
    assertTrue(killed.get() > 0, "no tensor-worker container was found to kill (at most " + mostSeen.get()
        + " tensor-worker JVMs seen at once): " + run);
    Map<?, ?> m = metrics("/out/remote");
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(epochs), TrainLocalTest.losses(m),
        "remote tensor workers on YARN, one killed");
    Map<?, ?> pool = (Map<?, ?>) m.get("tensor_pool");
    assertTrue(((Number) pool.get("lost")).longValue() >= 1, pool.toString());
    assertTrue(((Number) pool.get("launched")).longValue() >= 2, pool.toString());
    // The pool's growth under a backlog and its retirement of idle workers are asserted where the load is under
    // the test's control, TrainRemoteTensorTest (tensor workers as threads); here, the loss and the replacement.
    assertTrue(((Number) ((Map<?, ?>) m.get("best")).get("test_accuracy")).doubleValue() > 0.65, m.toString());
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
    Map<?, ?> m = metrics("/out/stale");
    assertEquals(2, TrainStalenessTest.checkEpochs(m, epochs, 2), "the slowed worker's peer ran 2 epochs ahead");
    assertTrue(((Number) ((Map<?, ?>) m.get("best")).get("test_accuracy")).doubleValue() > 0.65, m.toString());
  }

  /**
   * AM restart: the first attempt's ApplicationMaster (the driver and the parameter server) halts as a crash
   * (exit 137, nothing cleaned: {@code -D yarngnn.test.halt-am-at}) when epoch 7 starts, after the checkpoint of
   * epoch 6; YARN starts a second attempt, which resumes from that checkpoint; the run SUCCEEDS with the losses of
   * an undisturbed run (the single-JVM trainer's), every epoch once in metrics.json, two attempts on record.
   * Prints the time it took.
   */
  @Tag("faults")
  @Test
  void aCrashedApplicationMasterIsRestartedAndResumesFromItsCheckpoint() throws Exception {
    int epochs = 40;
    java.nio.file.Path spec = Files.writeString(local.resolve("amkill-spec.json"), TrainLocalTest.SPEC);
    long t0 = System.nanoTime();
    CliRun run = cli("train", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz",
        "--model-spec", spec.toUri().toString(), "--output", "/out/amkill", "--workers", "2", "--worker-memory",
        "512", "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1",
        "--checkpoint-every", "2", "-D", "yarngnn.test.halt-am-at=forward epoch 7 layer 1");
    long t1 = System.nanoTime();
    assertEquals(0, run.status(), run.toString());
    Map<?, ?> m = metrics("/out/amkill");
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(epochs), TrainLocalTest.losses(m),
        "a second AM attempt resumed from epoch 6");
    assertTrue(fs.exists(new Path("/out/amkill/_SUCCESS")));
    assertFalse(fs.exists(new Path("/out/.amkill" + org.yarngnn.app.train.Checkpoint.INFIX)),
        "the checkpoints are deleted after the commit");
    String id = run.out().replaceAll("(?s).*submitted (application_[0-9_]+).*", "$1");
    try (org.apache.hadoop.yarn.client.api.YarnClient yc = org.apache.hadoop.yarn.client.api.YarnClient
        .createYarnClient()) {
      yc.init(cluster.conf());
      yc.start();
      java.util.List<org.apache.hadoop.yarn.api.records.ApplicationAttemptReport> attempts =
          yc.getApplicationAttempts(org.apache.hadoop.yarn.api.records.ApplicationId.fromString(id));
      assertEquals(2, attempts.size(), attempts.toString());
    }
    CliRun summary = cli("status", id, "--json");
    assertTrue(summary.out().contains("resuming after epoch 6"), summary.out());
    System.out.printf(java.util.Locale.ROOT, "AM restart (train): %.1f s for %d epochs with the first AM crashed "
        + "at epoch 7%n", (t1 - t0) / 1e9, epochs);
  }

  /**
   * A graph worker lost while the graph is built from the tables: worker 1's first container dies (exit 137,
   * nothing cleaned, as after a SIGKILL) when the edge phase starts, while worker 0 routes edges to it. Worker 0
   * reports the lost peer as such (not as a routing error), so the job starts a new set of workers, from epoch 1
   * (no checkpoint yet), and SUCCEEDS with the losses of an undisturbed run. Prints the time it took.
   */
  @Test
  void aGraphWorkerLostWhileTheGraphIsBuiltStartsTheWorkersAgain() throws Exception {
    int epochs = 6;
    java.nio.file.Path spec = Files.writeString(local.resolve("edgeskill-spec.json"), TrainLocalTest.SPEC);
    startedAgainAfterALoss("during edges (train)", epochs,
        () -> trainCoraOnTwo(spec, "/out/edgeskill", epochs, "-D", "yarngnn.test.halt-worker=kill:1@edges"));
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(epochs),
        TrainLocalTest.losses(metrics("/out/edgeskill")), "new graph workers after a loss during edges");
  }

  /**
   * A lost graph worker of train: one TrainWorkerMain container is SIGKILLed after the checkpoint of epoch 2; the
   * job starts a new set of workers from the latest checkpoint and SUCCEEDS with the 100 losses of an undisturbed
   * run.
   * Prints the time lost.
   */
  @Tag("faults")
  @Test
  void aKilledGraphWorkerContainerRestartsTrainingFromItsCheckpoint() throws Exception {
    int epochs = 100; // the kill comes after epoch 2's checkpoint: 98 epochs leave it time on a quiet machine
    java.nio.file.Path spec = Files.writeString(local.resolve("workerkill-spec.json"), TrainLocalTest.SPEC);
    killAWorkerAfterCheckpoint2("/out/workerkill", "train", epochs,
        () -> trainCoraOnTwo(spec, "/out/workerkill", epochs, "--checkpoint-every", "2"));
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(epochs),
        TrainLocalTest.losses(metrics("/out/workerkill")), "new graph workers resumed from the checkpoint");
  }

  /** sage-mean without a fanout (every neighbour, so the single-JVM trainer's aggregation is the same sum). */
  static final String SAGE_SPEC = "{\"format\": 1, \"input\": {\"normalize\": \"row\"}, \"layers\": ["
      + "{\"type\": \"sage\", \"in\": 1433, \"out\": 16, \"activation\": \"relu\"},"
      + "{\"type\": \"sage\", \"in\": 16, \"out\": 7, \"activation\": \"none\"}],"
      + " \"output\": {\"normalize\": \"none\", \"predict\": true}}";
  /** gat, 4 heads x 8 (elu), one output head; attention dropout as the CLI's --dropout. */
  static final String GAT_SPEC = "{\"format\": 1, \"input\": {\"normalize\": \"row\"}, \"layers\": ["
      + "{\"type\": \"gat\", \"in\": 1433, \"out\": 8, \"heads\": 4, \"concat\": true, \"activation\": \"elu\"},"
      + "{\"type\": \"gat\", \"in\": 32, \"out\": 7, \"heads\": 1, \"activation\": \"none\"}],"
      + " \"output\": {\"normalize\": \"none\", \"predict\": true}}";

  /**
   * Training on YARN checked like inference, for gcn, sage and gat: the model directory the job wrote on HDFS holds
   * the single-JVM trainer's weights (its best-validation epoch; each tensor within 1e-5 of its norm), and {@code infer} on YARN with that
   * directory gives every node the reference's embedding and prediction for those weights. Tagged {@code faults} (the
   * profile of this class's long runs): six jobs, about two minutes.
   */
  @Tag("faults")
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"gcn", "sage", "gat"})
  void theWrittenWeightsAreTheSingleJvmTrainersAndInferReproducesItsPredictions(String kind) throws Exception {
    int epochs = 12;
    String specJson = kind.equals("gcn") ? TrainLocalTest.SPEC : kind.equals("sage") ? SAGE_SPEC : GAT_SPEC;
    java.nio.file.Path spec = Files.writeString(local.resolve("weights-" + kind + ".json"), specJson);
    String out = "/out/weights-" + kind;
    CliRun run = trainCoraOnTwo(spec, out, epochs);
    assertEquals(0, run.status(), run.toString());
    org.yarngnn.compute.train.FullGraphTrainer.Result want = TrainLocalTest.reference(specJson, epochs);
    assertEquals(want.bestEpoch(), ((Number) metrics(out).get("best_epoch")).intValue(), kind + ": best epoch");
    java.nio.file.Path model = local.resolve("weights-" + kind);
    fs.copyToLocalFile(new Path(out), new Path(model.toUri()));
    org.yarngnn.compute.model.Model got = org.yarngnn.compute.model.ModelDirectory.read(model);
    assertEquals(want.model().weights().keySet(), got.weights().keySet(), kind + ": the tensors");
    for (Map.Entry<String, org.yarngnn.compute.model.Tensor> e : want.model().weights().entrySet()) {
      float[] w = e.getValue().data();
      float[] g = got.weights().get(e.getKey()).data();
      assertEquals(w.length, g.length, kind + " " + e.getKey());
      // Relative to the tensor's norm: the two trainers sum in different orders, and Adam divides a weight's
      // update by its gradient's running magnitude, so a weight whose gradients are near zero may differ by
      // 1e-4 of itself while the tensor agrees to 1e-6.
      double diff = 0;
      double norm = 0;
      for (int i = 0; i < w.length; i++) {
        diff += (double) (w[i] - g[i]) * (w[i] - g[i]);
        norm += (double) w[i] * w[i];
      }
      double rel = Math.sqrt(diff / norm);
      System.out.printf(java.util.Locale.ROOT, "%s %s: |written - single JVM| / |single JVM| = %.2e%n", kind,
          e.getKey(), rel);
      assertTrue(rel <= 1e-5, kind + " " + e.getKey() + ": relative difference " + rel);
    }
    CliRun inf = cli("infer", "--edges", "/data/cora/edges.tsv", "--nodes", "/data/cora/nodes.tsv.gz", "--model", out,
        "--output", out + "-embeddings", "--workers", "2", "--worker-memory", "512", "--seed", "1");
    assertEquals(0, inf.status(), inf.toString());
    java.nio.file.Path emb = local.resolve("weights-" + kind + "-embeddings");
    fs.copyToLocalFile(new Path(out + "-embeddings"), new Path(emb.toUri()));
    CoraLocalInferenceTest.load();
    CoraLocalInferenceTest.compare(got, 1, emb);
  }
}
