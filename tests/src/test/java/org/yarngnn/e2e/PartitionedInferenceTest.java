package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.io.table.EmbeddingTable;

/**
 * {@code partition} (MapReduce, local job runner) then {@code infer --local --graph DIR} gives the same embeddings
 * as {@code infer --local} on the raw tables: Cora for P = 1..4, an R-MAT graph with sparse int64 ids for P = 2, 3.
 */
class PartitionedInferenceTest {
  @TempDir static Path work;
  static Path cora;

  @BeforeAll
  static void setUp() {
    cora = SharedData.planetoid("cora");
  }

  private static Map<Long, float[]> read(Path out) {
    return EmbeddingTable.read(new Configuration(), new org.apache.hadoop.fs.Path(out.toUri())).embeddings();
  }

  private static void assertSame(Map<Long, float[]> want, Map<Long, float[]> got, String what) {
    assertEquals(want.size(), got.size(), what + ": every node exactly once");
    for (Map.Entry<Long, float[]> e : want.entrySet()) {
      float[] g = got.get(e.getKey());
      for (int c = 0; c < g.length; c++) {
        float w = e.getValue()[c];
        assertTrue(Math.abs(g[c] - w) <= 1e-5f * Math.max(1f, Math.abs(w)),
            what + ": node " + e.getKey() + " column " + c + ": " + g[c] + " vs " + w);
      }
    }
  }

  private void check(String name, String edges, String nodes, Path model, int[] parts) {
    Path raw = work.resolve(name + "-raw");
    CliRun r = CliRun.of("infer", "--local", "--edges", edges, "--nodes", nodes, "--model", model.toString(),
        "--output", raw.toString(), "--seed", "4");
    assertEquals(0, r.status(), r.toString());
    Map<Long, float[]> want = read(raw);
    for (int p : parts) {
      Path graph = work.resolve(name + "-graph-" + p);
      CliRun part = CliRun.of("partition", "--local", "--edges", edges, "--nodes", nodes, "--output",
          graph.toString(), "--partitions", Integer.toString(p));
      assertEquals(0, part.status(), part.toString());
      Path out = work.resolve(name + "-out-" + p);
      CliRun inf = CliRun.of("infer", "--local", "--graph", graph.toString(), "--model", model.toString(),
          "--output", out.toString(), "--seed", "4");
      assertEquals(0, inf.status(), inf.toString());
      assertTrue(inf.out().contains(p + " workers"), inf.toString());
      assertSame(want, read(out), name + " P=" + p);
    }
  }

  @Test
  void coraForOneToFourPartitions() throws Exception {
    Path model = work.resolve("cora-model");
    ModelDirectory.write(RandomModels.random(CoraLocalInferenceTest.sageSpec(), 3), model);
    check("cora", cora.resolve("edges.tsv").toString(), cora.resolve("nodes.tsv.gz").toString(), model,
        new int[] {1, 2, 3, 4});
  }

  @Test
  void sparseIdRmatForTwoAndThreePartitions() {
    Path tables = work.resolve("rmat");
    Path model = work.resolve("rmat-model");
    CliRun gen = CliRun.of("generate", "--type", "rmat", "--nodes", "3000", "--edges", "30000", "--features", "12",
        "--sparse-ids", "--files", "2", "--output", tables.toString(), "--model", model.toString(),
        "--model-type", "gat", "--hidden", "8", "--model-out", "5");
    assertEquals(0, gen.status(), gen.toString());
    check("rmat", tables.resolve("edges").toString(), tables.resolve("nodes").toString(), model, new int[] {2, 3});
  }
}
