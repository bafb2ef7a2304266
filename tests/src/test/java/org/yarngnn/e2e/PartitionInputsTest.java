package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.io.table.EmbeddingTable;
import org.yarngnn.partition.Ownership;

/**
 * {@code partition}'s inputs that used to fail inside MapReduce: bad {@code -D yarngnn.partition.*} tuning
 * values, more partitions than nodes (refused up front), and a partition that hashing leaves without a node
 * (legitimate: written empty, and {@code infer --graph} reads it).
 */
class PartitionInputsTest {
  @TempDir Path dir;

  @Test
  void badTuningValuesAreRefusedNamingTheKeyBeforeTheJobRuns() throws Exception {
    Path[] t = RunLimitsTest.tinyJob(dir);
    Path out = dir.resolve("graph");
    for (String bad : List.of("yarngnn.partition.block-rows=many", "yarngnn.partition.block-rows=-3",
        "yarngnn.partition.block-rows=0", "yarngnn.partition.block-buffer-bytes=-1",
        "yarngnn.partition.block-buffer-bytes=1.5")) {
      CliRun run = CliRun.of("partition", "--local", "--edges", t[0].toString(), "--nodes", t[1].toString(),
          "--output", out.toString(), "--partitions", "2", "-D", bad);
      assertEquals(2, run.status(), () -> bad + "\n" + run);
      String key = bad.substring(0, bad.indexOf('='));
      assertTrue(run.err().contains(key), () -> bad + "\n" + run);
      assertEquals(1, run.err().strip().lines().count(), () -> "one line: " + run);
      assertFalse(Files.exists(out), run::toString);
      assertFalse(hiddenLeftBeside(out), run::toString);
    }
  }

  @Test
  void morePartitionsThanNodesAreRefused() throws Exception {
    Path[] t = RunLimitsTest.tinyJob(dir); // four nodes with sparse ids: hash ownership
    Path dense = dir.resolve("dense.tsv"); // ids 0..3: range ownership
    Files.writeString(dense, "0\t1,2,3\n1\t0,0,1\n2\t0.5,0.5,0.5\n3\t1,0,0\n");
    Path denseEdges = dir.resolve("dense-edges.tsv");
    Files.writeString(denseEdges, "0\t1\n1\t2\n2\t3\n");
    Path out = dir.resolve("graph");
    for (String[] tables : new String[][] {{t[0].toString(), t[1].toString()},
        {denseEdges.toString(), dense.toString()}}) {
      for (String ownership : List.of("auto", "hash", "range")) {
        CliRun run = CliRun.of("partition", "--local", "--edges", tables[0], "--nodes", tables[1], "--output",
            out.toString(), "--partitions", "5", "--ownership", ownership);
        assertEquals(2, run.status(), run::toString);
        assertTrue(run.err().contains("--partitions 5") && run.err().contains("4 nodes"), run::toString);
        assertEquals(1, run.err().strip().lines().count(), () -> "one line: " + run);
        assertFalse(Files.exists(out), run::toString);
        assertFalse(hiddenLeftBeside(out), run::toString);
      }
    }
  }

  @Test
  void aPartitionThatHashingLeavesEmptyIsWrittenAndInferReadsIt() throws Exception {
    // Four sparse ids none of which hashes to partition 0 of 3: partition 0 receives no node.
    Ownership hash = Ownership.hash(3);
    List<Long> ids = new ArrayList<>();
    for (long id = 1000; ids.size() < 4; id += 7) {
      if (hash.owner(id) != 0) {
        ids.add(id);
      }
    }
    Path nodes = dir.resolve("nodes.tsv");
    Path edges = dir.resolve("edges.tsv");
    Files.writeString(nodes, ids.get(0) + "\t1,2,3\n" + ids.get(1) + "\t0,0,1\n" + ids.get(2) + "\t0.5,0.5,0.5\n"
        + ids.get(3) + "\t1,0,0\n");
    Files.writeString(edges, ids.get(0) + "\t" + ids.get(1) + "\n" + ids.get(1) + "\t" + ids.get(2) + "\n"
        + ids.get(3) + "\t" + ids.get(0) + "\n");
    Path model = dir.resolve("model");
    ModelDirectory.write(RandomModels.random(new ModelSpec("none",
        List.of(LayerSpec.gcn(3, 2, Activation.RELU, true)), "none", false), 1), model);

    Path graph = dir.resolve("graph");
    CliRun part = CliRun.of("partition", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(),
        "--output", graph.toString(), "--partitions", "3", "--ownership", "hash");
    assertEquals(0, part.status(), part::toString);
    assertTrue(Files.exists(graph.resolve("_SUCCESS")), part::toString);

    Path fromGraph = dir.resolve("from-graph");
    CliRun inf = CliRun.of("infer", "--local", "--graph", graph.toString(), "--model", model.toString(),
        "--output", fromGraph.toString());
    assertEquals(0, inf.status(), inf::toString);
    Path fromTables = dir.resolve("from-tables");
    CliRun raw = CliRun.of("infer", "--local", "--edges", edges.toString(), "--nodes", nodes.toString(), "--model",
        model.toString(), "--output", fromTables.toString());
    assertEquals(0, raw.status(), raw::toString);
    Map<Long, float[]> want = embeddings(fromTables);
    Map<Long, float[]> got = embeddings(fromGraph);
    assertEquals(want.keySet(), got.keySet(), "every node exactly once");
    for (long id : ids) {
      float[] w = want.get(id);
      float[] g = got.get(id);
      for (int c = 0; c < w.length; c++) {
        assertEquals(w[c], g[c], 1e-5f * Math.max(1f, Math.abs(w[c])), "node " + id + " column " + c);
      }
    }
  }

  private static Map<Long, float[]> embeddings(Path out) {
    return EmbeddingTable.read(new Configuration(), new org.apache.hadoop.fs.Path(out.toUri())).embeddings();
  }

  /** Whether a hidden work directory was left beside {@code out}. */
  private static boolean hiddenLeftBeside(Path out) throws Exception {
    try (var siblings = Files.list(out.getParent())) {
      return siblings.anyMatch(p -> p.getFileName().toString().startsWith("."));
    }
  }
}
