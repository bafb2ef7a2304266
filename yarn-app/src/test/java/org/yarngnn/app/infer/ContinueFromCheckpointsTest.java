package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.graphworker.ThreadWorkers;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.ReplaceableWorkers;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.io.table.EmbeddingTable;
import org.yarngnn.io.table.TableFormat;

/**
 * What a second ApplicationMaster attempt does, in one JVM over loopback (workers as threads, checkpoints on the
 * local FileSystem): a 3-worker, 3-layer job writes its checkpoints; a new driver with new workers continues from
 * them at layer 3 (and, from the partitions alone, at layer 1): the embeddings equal the undisturbed run's bit for
 * bit, and no worker of the continued job built the graph or ran the layers before. A checkpoint whose bytes were
 * damaged fails the continued job with the file's name instead of giving other embeddings.
 */
@Timeout(180)
class ContinueFromCheckpointsTest {
  static final int WORKERS = 3;
  @TempDir Path dir;

  /** Workers the driver may treat as replaceable (none is ever lost here). */
  private abstract static class NeverLost implements ReplaceableWorkers {
    @Override
    public void replaceLosses() {}

    @Override
    public Loss pollLoss() {
      return null;
    }

    @Override
    public void relaunch(int worker, int attempt) {
      throw new IllegalStateException("no worker is lost in this test");
    }
  }

  /** Thread workers of this JVM. */
  private static final class Threads extends NeverLost {
    final ThreadWorkers threads;

    Threads(ThreadWorkers threads) {
      this.threads = threads;
    }

    @Override
    public void launch(String host, int port, int workers) throws Exception {
      threads.launch(host, port, workers);
    }

    @Override
    public CompletableFuture<String> failure() {
      return threads.failure();
    }

    @Override
    public void close() {
      threads.close();
    }
  }

  private InferOptions job(String work) throws Exception {
    StringBuilder nodes = new StringBuilder();
    StringBuilder edges = new StringBuilder();
    for (int i = 0; i < 60; i++) {
      nodes.append(i * 7 + 3).append('\t').append(i % 5).append(',').append(i % 3 - 1).append(",0.5\n");
      edges.append(i * 7 + 3).append('\t').append((i + 1) % 60 * 7 + 3).append('\n');
      edges.append(i * 7 + 3).append('\t').append((i * 11 + 5) % 60 * 7 + 3).append('\n');
    }
    Files.writeString(dir.resolve("nodes.tsv"), nodes);
    Files.writeString(dir.resolve("edges.tsv"), edges);
    Files.createDirectories(dir.resolve(work));
    return InferOptions.builder().set(GraphJobOptions.EDGES, dir.resolve("edges.tsv").toString())
        .set(GraphJobOptions.NODES, dir.resolve("nodes.tsv").toString())
        .set(GraphJobOptions.OUTPUT_FORMAT, TableFormat.PARQUET).set(GraphJobOptions.WORKERS, WORKERS)
        .set(GraphJobOptions.THREADS, 1).set(GraphJobOptions.LOCAL, true).set(GraphJobOptions.SEED, 3)
        .set(GraphJobOptions.WORK_DIR, dir.resolve(work).toString()).set(GraphJobOptions.LAYERS, 3)
        .set(InferOptions.MODEL, dir.resolve("model").toString()).set(GraphJobOptions.OUTPUT, dir.resolve("out")
        .toString())
        .set(InferOptions.CHECKPOINT, true).set(InferOptions.RECOVERY_DIR, dir.resolve("_checkpoints").toString())
        .build();
  }

  private static Model model() {
    return RandomModels.random(new ModelSpec("none", List.of(LayerSpec.gcn(3, 8, Activation.RELU, true),
        LayerSpec.sage(8, 6, Activation.TANH, true, 2), LayerSpec.gcn(6, 4, Activation.NONE, true)), "none",
        false), 5);
  }

  /** Runs the job into {@code work}, continuing at {@code at} (-1: from the start); returns the worker reports. */
  private List<Map<String, Double>> run(String work, int at, PrintStream log) throws Exception {
    InferOptions spec = job(work);
    Configuration conf = new Configuration();
    JobTransport transport = JobTransport.local(conf);
    try (Threads workers = new Threads(InferenceWorker.threads(conf, spec, model(), transport))) {
      return new InferenceDriver(spec, transport, workers, null, log).continueAt(at)
          .run(spec.getInt(GraphJobOptions.LAYERS))
          .workers();
    }
  }

  private Map<Long, float[]> embeddings(String work) {
    return EmbeddingTable.read(new Configuration(), new org.apache.hadoop.fs.Path(dir.resolve(work).toUri()))
        .embeddings();
  }

  private static void assertSame(Map<Long, float[]> want, Map<Long, float[]> got) {
    assertEquals(want.keySet(), got.keySet(), "every node once");
    for (Map.Entry<Long, float[]> e : want.entrySet()) {
      float[] g = got.get(e.getKey());
      for (int c = 0; c < g.length; c++) {
        assertEquals(Float.floatToRawIntBits(e.getValue()[c]), Float.floatToRawIntBits(g[c]),
            "node " + e.getKey() + " column " + c);
      }
    }
  }

  @Test
  void aNewDriverAndNewWorkersContinueFromTheCheckpointsWithTheSameEmbeddings() throws Exception {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    run("whole", -1, quiet);
    Map<Long, float[]> want = embeddings("whole");
    assertEquals(60, want.size());
    LayerCheckpoints cp = new LayerCheckpoints(new Configuration(),
        new org.apache.hadoop.fs.Path(dir.resolve("_checkpoints").toUri()));
    CheckpointResume found = CheckpointResume.find(cp, WORKERS, 3, true);
    assertEquals(2, found.layer(), found.reason());

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    List<Map<String, Double>> reports = run("continued", 2, new PrintStream(printed, true, StandardCharsets.UTF_8));
    assertSame(want, embeddings("continued"));
    assertTrue(printed.toString(StandardCharsets.UTF_8).contains("60 nodes"), printed.toString());
    for (Map<String, Double> r : reports) {
      assertTrue(r.containsKey("t.rejoin") && r.containsKey("t.layer2"), r.toString());
      for (String redone : new String[] {"t.read-nodes", "t.edges", "t.plan", "t.layer0", "t.layer1"}) {
        assertFalse(r.containsKey(redone), redone + " run again: " + r);
      }
    }
    run("from-partitions", 0, quiet);
    assertSame(want, embeddings("from-partitions"));

    // Damaged bytes in a whole-looking file: the size and header pass, the checksum does not.
    java.nio.file.Path rows = Path.of(cp.rowsFile(1, 2).toUri());
    byte[] b = Files.readAllBytes(rows);
    b[RowCheckpoint.HEADER_BYTES + 3] ^= 0x40;
    Files.delete(rows);
    Files.delete(rows.resolveSibling("." + rows.getFileName() + ".crc"));
    Files.write(rows, b);
    assertEquals(2, CheckpointResume.find(cp, WORKERS, 3, true).layer());
    Exception e = assertThrows(Exception.class, () -> run("damaged", 2, quiet));
    assertTrue(String.valueOf(e.getMessage()).contains("part-00002.rows: checksum mismatch"), e.toString());
  }

  /**
   * Thread workers of an attempt: each runs a graph worker whose session outlives its driver (unless its index is
   * in {@code mortal}) and looks for the next driver in {@code published}.
   */
  private static final class SurvivingThreads extends NeverLost {
    final ThreadWorkers threads;
    final Configuration conf;
    final InferOptions spec;
    final JobTransport transport;
    final java.util.concurrent.atomic.AtomicReference<org.yarngnn.app.runtime.DriverEndpoint> published;
    final java.util.Set<Integer> mortal;
    final int attempt;
    final CompletableFuture<String> failure = new CompletableFuture<>();

    SurvivingThreads(Configuration conf, InferOptions spec, JobTransport transport, int attempt,
        java.util.concurrent.atomic.AtomicReference<org.yarngnn.app.runtime.DriverEndpoint> published,
        java.util.Set<Integer> mortal) {
      this.conf = conf;
      this.spec = spec;
      this.transport = transport;
      this.attempt = attempt;
      this.published = published;
      this.mortal = mortal;
      this.threads = new ThreadWorkers(this::serve);
    }

    int serve(int w, String host, int port) {
      org.yarngnn.app.runtime.WorkerSession.Reconnect r = mortal.contains(w) ? null
          : new org.yarngnn.app.runtime.WorkerSession.Reconnect(attempt, 2, 120_000, "container-" + attempt + "-" + w,
              published::get);
      return InferenceWorker.serve(conf, spec, model(), w, 0, host, port, transport, r);
    }

    @Override
    public void launch(String host, int port, int workers) {
      threads.launch(host, port, workers);
    }

    @Override
    public void launch(String host, int port, int workers, int[] indices) {
      threads.launch(host, port, workers, indices);
    }

    @Override
    public CompletableFuture<String> failure() {
      return failure;
    }

    @Override
    public void close() {
      threads.close();
    }
  }

  /** What the second driver of {@link #adopt} printed and its workers' reports. */
  private record Adopted(String log, java.util.Set<String> containers, List<Map<String, Double>> reports) {}

  /**
   * Runs job {@code work} with a first driver that dies as {@code dies} says (workers {@code mortal} die with it,
   * the others outlive it), then continues it with a second driver on the same secret that adopts the survivors
   * ({@code candidates} of them) from where the checkpoints say.
   */
  private Adopted adopt(String work, org.yarngnn.app.runtime.DriverSession.Progress dies, java.util.Set<Integer> mortal,
      int candidates) throws Exception {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    org.apache.hadoop.fs.FileSystem.get(new Configuration()).delete(
        new org.apache.hadoop.fs.Path(dir.resolve("_checkpoints").toUri()), true);
    InferOptions spec = job(work);
    Configuration conf = new Configuration();
    JobTransport transport = JobTransport.local(conf);
    java.util.concurrent.atomic.AtomicReference<org.yarngnn.app.runtime.DriverEndpoint> published =
        new java.util.concurrent.atomic.AtomicReference<>();
    SurvivingThreads first = new SurvivingThreads(conf, spec, transport, 1, published, mortal);
    Exception died = assertThrows(Exception.class,
        () -> new InferenceDriver(spec, transport, first, dies, quiet).run(spec.getInt(GraphJobOptions.LAYERS)));
    assertTrue(String.valueOf(died.getMessage()).contains("first driver dies"), died.toString());
    CheckpointResume found = CheckpointResume.find(new LayerCheckpoints(conf,
        new org.apache.hadoop.fs.Path(dir.resolve("_checkpoints").toUri())), WORKERS, 3, true);
    assertTrue(found.resumes(), found.reason());

    java.util.Set<String> adoptedContainers = java.util.concurrent.ConcurrentHashMap.newKeySet();
    org.yarngnn.app.runtime.DriverSession.Adoption adoption = new org.yarngnn.app.runtime.DriverSession.Adoption() {
      @Override
      public void announce(String host, int port) {
        published.set(new org.yarngnn.app.runtime.DriverEndpoint(host, port, 2));
      }

      @Override
      public int candidates() {
        return candidates; // the containers still running at the new attempt's registration
      }

      @Override
      public long waitMillis() {
        return 120_000;
      }

      @Override
      public void adopted(java.util.Set<String> containers) {
        adoptedContainers.addAll(containers);
      }
    };
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    SurvivingThreads second = new SurvivingThreads(conf, spec, transport, 2, published, java.util.Set.of());
    List<Map<String, Double>> reports = new InferenceDriver(spec, transport, second, null,
        new PrintStream(printed, true, StandardCharsets.UTF_8)).continueAt(found.layer()).adopting(adoption)
        .run(spec.getInt(GraphJobOptions.LAYERS)).workers();
    first.close();
    return new Adopted(printed.toString(StandardCharsets.UTF_8), adoptedContainers, reports);
  }

  /**
   * A driver dies before layer 2 (as a crashed ApplicationMaster's does); its workers 0 and 1 outlive it, find the
   * next driver's endpoint and register with it as survivors; worker 2 exits with its driver and is launched anew.
   * The new driver (same secret) takes over 0 and 1, which keep their partition and first layer's rows, while the
   * new worker 2 loads its checkpoints: the embeddings equal the undisturbed run's bit for bit.
   */
  @Test
  void survivingWorkersAreAdoptedByTheNextDriver() throws Exception {
    run("undisturbed", -1, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    Map<Long, float[]> want = embeddings("undisturbed");
    Adopted a = adopt("adopted", (fraction, status) -> {
      if (status.startsWith("layer 2")) {
        throw new IllegalStateException("the first driver dies at '" + status + "'");
      }
    }, java.util.Set.of(2), 2);
    assertTrue(a.log().contains("adopted workers [0, 1] from attempt 1") && a.log().contains("launching workers [2]"),
        a.log());
    assertEquals(java.util.Set.of("container-1-0", "container-1-1"), a.containers());
    assertSame(want, embeddings("adopted"));
    for (int w = 0; w < WORKERS; w++) {
      Map<String, Double> r = a.reports().get(w);
      boolean survivor = w < 2;
      // A survivor's report goes back to the first driver's phases; the new worker ran none of them.
      assertEquals(survivor, r.containsKey("t.layer0") && r.containsKey("t.edges"), "worker " + w + ": " + r);
      assertEquals(survivor, r.containsKey("keptPartition"), "worker " + w + ": " + r);
      assertTrue(r.containsKey("t.rejoin") && r.containsKey("t.layer1") && r.containsKey("t.layer2"), r.toString());
    }
  }

  /**
   * The first driver dies while layer 2 is being answered (its first answer arrives): the workers still in that
   * layer finish it, find their answer's connection gone and follow the next driver all the same; each is at the
   * resume layer or one past it (its input kept), whichever the checkpoints say: all three are adopted and the
   * embeddings equal the undisturbed run's.
   */
  @Test
  void workersInTheMiddleOfALayerAreAdoptedToo() throws Exception {
    run("undisturbed", -1, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    Map<Long, float[]> want = embeddings("undisturbed");
    Adopted a = adopt("mid-layer", new org.yarngnn.app.runtime.DriverSession.Progress() {
      @Override
      public void report(float fraction, String status) {}

      @Override
      public void answered(org.yarngnn.app.runtime.PhaseCommand c, int worker,
          org.yarngnn.app.runtime.PhaseResult result, Map<String, Double> gauges, double seconds) {
        if (c.phase() == org.yarngnn.app.runtime.Phase.LAYER && c.layer() == 1) {
          throw new IllegalStateException("the first driver dies on worker " + worker + "'s answer of layer 2");
        }
      }
    }, java.util.Set.of(), 3);
    assertTrue(a.log().contains("adopted workers [0, 1, 2] from attempt 1") && a.log().contains("launching none"),
        a.log());
    assertSame(want, embeddings("mid-layer"));
  }
}
