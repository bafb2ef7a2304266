package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.Main;
import org.yarngnn.compute.cost.CostInputs;
import org.yarngnn.compute.cost.CostLayer;
import org.yarngnn.compute.cost.CostModel;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.model.LayerType;

/**
 * Issue 13, point 3: inference's memory stays under the cost model's bound ({@link CostModel#heapBytesPerWorker},
 * the formula the README states) on two graph sizes. Each job runs in a JVM of its own whose {@code -Xmx} is that
 * bound (every --local worker's share plus the JVM's base), so a job that needs more fails with an
 * OutOfMemoryError; its {@code --metrics} peak heap (measured at every collection) is then checked against the
 * bound, and the bound against the target (100 bytes per edge plus 3 feature rows per node, same bases).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class InferMemoryBoundTest {
  private static final int FEATURES = 64;
  private static final List<CostLayer> GCN = List.of(new CostLayer(LayerType.GCN, FEATURES, FEATURES, 1, -1),
      new CostLayer(LayerType.GCN, FEATURES, FEATURES, 1, -1));

  @TempDir
  Path dir;

  @Test
  void smallGraphOneWorker() throws Exception {
    check(25_000, 500_000, 1);
  }

  @Test
  void threeTimesTheSizeOnTwoWorkers() throws Exception {
    check(75_000, 1_500_000, 2);
  }

  private void check(int nodes, int edges, int workers) throws Exception {
    Path graph = dir.resolve("g");
    assertEquals(Main.OK, cli("generate", "--type", "rmat", "--nodes", Integer.toString(nodes), "--edges",
        Integer.toString(edges), "--features", Integer.toString(FEATURES), "--files", "4", "--output",
        graph.toString(), "--model", graph.resolve("model").toString(), "--model-type", "gcn", "--hidden",
        Integer.toString(FEATURES), "--model-out", Integer.toString(FEATURES)));
    CostInputs in = CostInputs.builder().nodes(nodes).edges(edges).featureWidth(FEATURES).layers(GCN)
        .workers(workers).coresPerWorker(1).build();
    long bound = CostModel.localJvmHeapBytes(in);
    long target = CostModel.JVM_BASE_HEAP + workers * CostModel.targetHeapBytesPerWorker(in);
    assertTrue(bound <= target, "the model's bound " + bound + " passes the issue's target " + target);

    Path metrics = dir.resolve("metrics.json");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Path log = dir.resolve("infer.log");
    Process p = new ProcessBuilder(java, "-Xmx" + (bound >> 20) + "m", "--add-modules", "jdk.incubator.vector",
        "-cp", classpath, Main.class.getName(), "infer", "--local", "--workers", Integer.toString(workers),
        "--edges", graph.resolve("edges").toString(), "--nodes", graph.resolve("nodes").toString(), "--model",
        graph.resolve("model").toString(), "--output", dir.resolve("out").toString(), "--metrics",
        metrics.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    int rc = p.waitFor();
    String output = Files.readString(log);
    assertEquals(Main.OK, rc, "infer in a heap of the model's bound (" + (bound >> 20) + " MiB) failed:\n" + output);

    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) Json.parse(Files.readString(metrics));
    long peak = ((Number) m.get("peak_heap_bytes")).longValue();
    long afterGc = 0;
    for (Object w : (List<?>) m.get("per_worker")) {
      afterGc = Math.max(afterGc, ((Number) ((Map<?, ?>) w).get("peakHeapAfterGcBytes")).longValue());
    }
    System.out.printf("memory: %,d nodes, %,d edges, %d workers: bound %,d MiB (target %,d MiB), peak heap %,d MiB, "
        + "after GC at most %,d MiB%n", nodes, edges, workers, bound >> 20, target >> 20, peak >> 20, afterGc >> 20);
    // The child's -Xmx is the bound, so its peak cannot exceed it: what says the bound holds is the exit status
    // above (an OutOfMemoryError fails the job). Here only that the job measured and reported its heap.
    assertTrue(peak > 0 && afterGc > 0, "peak heap " + peak + ", after GC " + afterGc + ": not reported");
  }

  private static int cli(String... args) {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
    int rc = Main.run(args, out, out);
    if (rc != Main.OK) {
      System.out.println(sink.toString(StandardCharsets.UTF_8));
    }
    return rc;
  }
}
