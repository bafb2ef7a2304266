package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.io.table.EmbeddingTable;
import org.yarngnn.io.table.IdTable;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.io.table.TableReadOptions;

/**
 * {@code infer --targets} writes exactly the targets' rows, each once, with the all-node job's values (the same
 * floats, for the same worker count), on Cora and on a generated R-MAT graph, with 1 and 3 workers, for gcn, sage
 * with sampled fanouts and gat; bad targets are refused with exit 2.
 */
class TargetedInferenceTest {
  private static final Configuration CONF = new Configuration();

  @TempDir static Path work;
  static Path coraDir;
  static long[] coraIds;
  static Path rmat;

  @BeforeAll
  static void data() throws Exception {
    coraDir = SharedData.planetoid("cora");
    coraIds = SharedData.loadPlanetoid(coraDir, false).ids;
    rmat = work.resolve("rmat");
    CliRun gen = CliRun.of("generate", "--type", "rmat", "--nodes", "20000", "--edges", "200000", "--features",
        "24", "--sparse-ids", "--files", "3", "--seed", "5", "--output", rmat.toString());
    assertEquals(0, gen.status(), gen.toString());
  }

  static ModelSpec spec(String type, int in) {
    switch (type) {
      case "gcn":
        return new ModelSpec("row", List.of(LayerSpec.gcn(in, 16, Activation.RELU, true),
            LayerSpec.gcn(16, 7, Activation.NONE, true)), "none", true);
      case "sage":
        return new ModelSpec("none", List.of(LayerSpec.sage(in, 24, Activation.RELU, true, 5),
            LayerSpec.sage(24, 16, Activation.TANH, false, -1),
            LayerSpec.sage(16, 8, Activation.NONE, true, 3)), "l2", false);
      default:
        return new ModelSpec("none", List.of(LayerSpec.gat(in, 8, 2, true, 0.2f, Activation.ELU, true),
            LayerSpec.sage(16, 6, Activation.NONE, true, 4)), "none", true);
    }
  }

  @ParameterizedTest
  @CsvSource({"gcn, 1, tsv", "gcn, 3, parquet", "sage, 1, parquet", "sage, 3, tsv", "gat, 3, orc"})
  void coraTargetsEqualTheAllNodeRows(String type, int workers, String format) throws Exception {
    // A few ids (one twice) and then every 37th node: about 3% of Cora.
    List<Long> targets = new ArrayList<>(List.of(coraIds[5], coraIds[2707], coraIds[5]));
    for (int i = 0; i < coraIds.length; i += 37) {
      targets.add(coraIds[i]);
    }
    check("cora-" + type + "-" + workers, spec(type, 1433), workers, format, targets,
        coraDir.resolve("edges.tsv").toString(), coraDir.resolve("nodes.tsv.gz").toString(), "7");
  }

  @ParameterizedTest
  @CsvSource({"gcn, 1", "sage, 1", "gcn, 3", "sage, 3"})
  void rmatTargetsEqualTheAllNodeRows(String type, int workers) throws Exception {
    // 1% of the nodes, drawn from the nodes table (ids are scrambled int64 values).
    List<Long> all = new ArrayList<>();
    IdTable.open(CONF, rmat.resolve("nodes").toString(), TableReadOptions.builder().build(), "nodes")
        .read((id, file, row) -> all.add(id));
    long[] ids = all.stream().mapToLong(Long::longValue).toArray();
    SplittableRandom rnd = new SplittableRandom(workers * 31L + type.length());
    List<Long> targets = new ArrayList<>();
    for (int i = 0; i < ids.length / 100; i++) {
      targets.add(ids[rnd.nextInt(ids.length)]);
    }
    check("rmat-" + type + "-" + workers, spec(type, 24), workers, "parquet", targets,
        rmat.resolve("edges").toString(), rmat.resolve("nodes").toString(), "11");
  }

  /** Runs the all-node job and the targeted one with the same options; the targets' rows must be identical. */
  private static void check(String name, ModelSpec spec, int workers, String format, List<Long> targets,
      String edges, String nodes, String seed) throws Exception {
    Path model = work.resolve("models").resolve(name);
    ModelDirectory.write(RandomModels.random(spec, name.hashCode()), model);
    Path table = work.resolve("targets-" + name).resolve("ids." + format);
    Files.createDirectories(table.getParent());
    IdTable.write(CONF, new org.apache.hadoop.fs.Path(table.toUri()), TableFormat.fromName(format),
        targets.stream().mapToLong(Long::longValue).toArray());
    Path all = work.resolve("all-" + name);
    Path some = work.resolve("some-" + name);
    String[] common = {"infer", "--local", "--edges", edges, "--nodes", nodes, "--model", model.toString(),
        "--seed", seed, "--workers", Integer.toString(workers), "--chunk-rows", "101"};
    CliRun a = CliRun.of(concat(common, "--output", all.toString()));
    assertEquals(0, a.status(), a.toString());
    CliRun t = CliRun.of(concat(common, "--output", some.toString(), "--targets", table.getParent().toString()));
    assertEquals(0, t.status(), t.toString());
    TreeSet<Long> distinct = new TreeSet<>(targets);
    assertTrue(t.out().contains(String.format("wrote %,d embeddings", distinct.size())), t.toString());

    EmbeddingTable want = EmbeddingTable.read(CONF, new org.apache.hadoop.fs.Path(all.toUri()));
    EmbeddingTable got = EmbeddingTable.read(CONF, new org.apache.hadoop.fs.Path(some.toUri()));
    assertTrue(got.committed());
    assertEquals(distinct, new TreeSet<>(got.embeddings().keySet()), "exactly the targets, each once");
    for (Map.Entry<Long, float[]> e : got.embeddings().entrySet()) {
      assertArrayEquals(want.embedding(e.getKey()), e.getValue(), "node " + e.getKey());
      if (want.hasPredictions()) {
        assertEquals(want.predictions().get(e.getKey()), got.predictions().get(e.getKey()));
      }
    }
    try (Stream<Path> files = Files.list(some)) {
      // Only the contract's files: part files and _SUCCESS (and Hadoop's .crc side files of the local FileSystem).
      files.map(p -> p.getFileName().toString()).filter(f -> !f.endsWith(".crc"))
          .forEach(f -> assertTrue(f.equals("_SUCCESS") || f.startsWith("part-"), f));
    }
    // Work is the receptive field's: fewer rows computed than the all-node job's.
    assertTrue(t.out().contains("fieldRows="), t.toString());
  }

  @Test
  void aPartitionedGraphGivesTheSameTargetRows() throws Exception {
    Path graph = work.resolve("cora-partitioned");
    CliRun part = CliRun.of("partition", "--local", "--edges", coraDir.resolve("edges.tsv").toString(), "--nodes",
        coraDir.resolve("nodes.tsv.gz").toString(), "--output", graph.toString(), "--partitions", "3");
    assertEquals(0, part.status(), part.toString());
    Path model = work.resolve("models").resolve("graph-sage");
    ModelDirectory.write(RandomModels.random(spec("sage", 1433), 8), model);
    Path table = work.resolve("graph-targets.txt");
    Files.writeString(table, coraIds[100] + "\n" + coraIds[7] + "\n" + coraIds[2000] + "\n");
    String[] common = {"infer", "--local", "--graph", graph.toString(), "--model", model.toString(), "--seed", "2"};
    CliRun a = CliRun.of(concat(common, "--output", work.resolve("graph-all").toString()));
    assertEquals(0, a.status(), a.toString());
    CliRun t = CliRun.of(concat(common, "--output", work.resolve("graph-some").toString(), "--targets",
        table.toString()));
    assertEquals(0, t.status(), t.toString());
    EmbeddingTable want = EmbeddingTable.read(CONF, new org.apache.hadoop.fs.Path(work.resolve("graph-all").toUri()));
    EmbeddingTable got = EmbeddingTable.read(CONF, new org.apache.hadoop.fs.Path(work.resolve("graph-some").toUri()));
    assertEquals(3, got.size());
    for (long id : new long[] {coraIds[100], coraIds[7], coraIds[2000]}) {
      assertArrayEquals(want.embedding(id), got.embedding(id), "node " + id);
    }
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void unknownAndEmptyTargetsAreRefused() throws Exception {
    Path model = work.resolve("models").resolve("bad");
    ModelDirectory.write(RandomModels.random(spec("gcn", 1433), 3), model);
    Path unknown = work.resolve("unknown.txt");
    Files.writeString(unknown, coraIds[0] + "\n" + coraIds[1] + "\n999999999\n123456789\n");
    Path empty = work.resolve("empty.txt");
    Files.writeString(empty, "# no ids\n");
    for (String workers : new String[] {"1", "3"}) {
      Path out = work.resolve("bad-out-" + workers);
      String[] common = {"infer", "--local", "--edges", coraDir.resolve("edges.tsv").toString(), "--nodes",
          coraDir.resolve("nodes.tsv.gz").toString(), "--model", model.toString(), "--output", out.toString(),
          "--workers", workers};
      CliRun r = CliRun.of(concat(common, "--targets", unknown.toString()));
      assertEquals(2, r.status(), r.toString());
      // The first unknown id in table order, whichever worker owns it; one line naming the table and the row.
      assertTrue(r.err().contains(unknown + ":3: target id 999999999 is not a node of the graph (--targets "
          + unknown + ")"), r.toString());
      assertEquals(1, r.err().strip().lines().count(), r.toString());
      assertFalse(Files.exists(out.resolve("_SUCCESS")), r.toString());
      r = CliRun.of(concat(common, "--targets", empty.toString()));
      assertEquals(2, r.status(), r.toString());
      assertTrue(r.err().contains(empty + ": targets table has no rows"), r.toString());
    }
    CliRun r = CliRun.of("infer", "--local", "--edges", coraDir.resolve("edges.tsv").toString(), "--nodes",
        coraDir.resolve("nodes.tsv.gz").toString(), "--model", model.toString(), "--output",
        work.resolve("nodewise").toString(), "--strategy", "nodewise", "--targets", unknown.toString());
    assertEquals(2, r.status(), r.toString());
    assertTrue(r.err().contains("--targets needs --strategy layerwise"), r.toString());
    r = CliRun.of("infer", "--local", "--edges", coraDir.resolve("edges.tsv").toString(), "--nodes",
        coraDir.resolve("nodes.tsv.gz").toString(), "--model", model.toString(), "--output",
        work.resolve("missing").toString(), "--targets", work.resolve("no-such-table").toString());
    assertEquals(2, r.status(), r.toString());
    assertTrue(r.err().contains("no-such-table"), r.toString());
  }
}
