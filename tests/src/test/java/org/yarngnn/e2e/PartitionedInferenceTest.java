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
  /**
   * Node tables written in id order (the generator writes chunks of ids) are read where range ownership puts
   * them: with as many workers as file runs, no node row is routed, and the embeddings are those of one worker.
   */
  @Test
  void idOrderedNodeFilesAreReadByTheirOwners() {
    Path tables = work.resolve("ordered");
    Path model = work.resolve("ordered-model");
    CliRun gen = CliRun.of("generate", "--type", "rmat", "--nodes", "2000", "--edges", "16000", "--features", "8",
        "--files", "4", "--output", tables.toString(), "--model", model.toString(), "--model-type", "gcn",
        "--hidden", "8", "--model-out", "4");
    assertEquals(0, gen.status(), gen.toString());
    Map<Long, float[]> want = null;
    for (int w : new int[] {1, 2, 4, 3}) {
      Path out = work.resolve("ordered-out-" + w);
      CliRun r = CliRun.of("infer", "--local", "--edges", tables.resolve("edges").toString(), "--nodes",
          tables.resolve("nodes").toString(), "--model", model.toString(), "--output", out.toString(),
          "--workers", Integer.toString(w));
      assertEquals(0, r.status(), r.toString());
      long routed = 0;
      for (String line : r.out().split("\n")) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(" nodeRowsRouted=(\\d+)").matcher(line);
        if (m.find()) {
          routed += Long.parseLong(m.group(1));
        }
      }
      assertTrue(r.out().contains("nodeRowsRouted="), r.toString());
      if (w == 3) {
        // Four files over three ranges: the files that straddle a range boundary are partly routed.
        assertTrue(routed > 0 && routed < 2000, w + " workers routed " + routed + " rows");
      } else {
        assertEquals(0, routed, w + " workers: node rows routed");
      }
      Map<Long, float[]> got = read(out);
      if (want == null) {
        want = got;
      } else {
        assertSame(want, got, w + " workers against one");
      }
    }
  }
}
