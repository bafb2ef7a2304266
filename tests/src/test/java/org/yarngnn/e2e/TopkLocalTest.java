package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.io.table.EmbeddingWriter;
import org.yarngnn.io.table.TableFormat;

/**
 * {@code topk --local} on 1 and 3 workers against a brute-force top-K computed here from the same embeddings
 * (small integers, so every score is exact and ties are many), with --exclude, --queries/--candidates subsets and
 * --truth metrics recomputed from the written output; the output is read with parquet-mr's example reader, not
 * the project's. Bad input exits 2 and writes nothing.
 */
class TopkLocalTest {
  private static final int NODES = 300;
  private static final int WIDTH = 8;

  @TempDir
  java.nio.file.Path dir;

  private final Random rnd = new Random(48);
  final long[] ids = new long[NODES];
  private final float[][] rows = new float[NODES][WIDTH];
  private final Map<Long, Integer> rowOf = new HashMap<>();

  String embeddings() throws IOException {
    for (int i = 0; i < NODES; i++) {
      ids[i] = 1_000L + 7L * i * (i % 2 == 0 ? 1 : -1); // sparse, some negative
      rowOf.put(ids[i], i);
      for (int p = 0; p < WIDTH; p++) {
        rows[i][p] = rnd.nextInt(7) - 3;
      }
    }
    java.nio.file.Path table = dir.resolve("emb");
    Files.createDirectories(table);
    // Two part files, as infer writes them.
    for (int part = 0; part < 2; part++) {
      try (EmbeddingWriter w = EmbeddingWriter.create(new Configuration(),
          new Path(table.resolve("part-0000" + part + ".parquet").toString()), TableFormat.PARQUET, WIDTH, false)) {
        for (int i = part; i < NODES; i += 2) {
          w.write(ids[i], rows[i], 0, -1);
        }
      }
    }
    return table.toString();
  }

  private String pairs(String name, List<long[]> pairs) throws IOException {
    StringBuilder sb = new StringBuilder("# src dst\n");
    for (long[] p : pairs) {
      sb.append(p[0]).append('\t').append(p[1]).append('\n');
    }
    java.nio.file.Path f = dir.resolve(name + ".tsv");
    Files.writeString(f, sb.toString(), StandardCharsets.UTF_8);
    return f.toString();
  }

  private String idTable(String name, List<Long> list) throws IOException {
    StringBuilder sb = new StringBuilder();
    list.forEach(id -> sb.append(id).append('\n'));
    java.nio.file.Path f = dir.resolve(name + ".txt");
    Files.writeString(f, sb.toString(), StandardCharsets.UTF_8);
    return f.toString();
  }

  /** query -> candidates best first, by brute force in double (exact on these integers). */
  Map<Long, List<Long>> bruteForce(Set<Long> queries, Set<Long> candidates, Set<String> excluded, int k) {
    Map<Long, List<Long>> out = new TreeMap<>();
    for (long q : queries) {
      List<long[]> scored = new ArrayList<>();
      for (long c : candidates) {
        if (c == q || excluded.contains(q + ":" + c)) {
          continue;
        }
        double s = 0;
        for (int p = 0; p < WIDTH; p++) {
          s += (double) rows[rowOf.get(q)][p] * rows[rowOf.get(c)][p];
        }
        scored.add(new long[] {Math.round(s), c});
      }
      scored.sort((a, b) -> a[0] != b[0] ? Long.compare(b[0], a[0]) : Long.compare(a[1], b[1]));
      List<Long> top = new ArrayList<>();
      for (int r = 0; r < Math.min(k, scored.size()); r++) {
        top.add(scored.get(r)[1]);
      }
      out.put(q, top);
    }
    return out;
  }

  /** The output read with parquet-mr's example reader: query -> candidates by rank; checks ranks and scores. */
  Map<Long, List<Long>> readOutput(java.nio.file.Path out) throws IOException {
    assertTrue(Files.exists(out.resolve("_SUCCESS")), "committed");
    Map<Long, TreeMap<Integer, Long>> byQuery = new TreeMap<>();
    try (var files = Files.list(out)) {
      for (java.nio.file.Path f : files.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
        try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(), new Path(f.toString()))
            .withConf(new Configuration()).build()) {
          for (Group g = r.read(); g != null; g = r.read()) {
            long q = g.getLong("query", 0);
            int rank = g.getInteger("rank", 0);
            long c = g.getLong("candidate", 0);
            float score = g.getFloat("score", 0);
            double exact = 0;
            for (int p = 0; p < WIDTH; p++) {
              exact += (double) rows[rowOf.get(q)][p] * rows[rowOf.get(c)][p];
            }
            assertEquals(exact, score, 0.0, "score of " + q + " -> " + c);
            Long before = byQuery.computeIfAbsent(q, x -> new TreeMap<>()).put(rank, c);
            assertEquals(null, before, "query " + q + " rank " + rank + " written once");
          }
        }
      }
    }
    Map<Long, List<Long>> lists = new TreeMap<>();
    byQuery.forEach((q, ranks) -> {
      assertEquals(ranks.size(), (int) ranks.lastKey(), "ranks of " + q + " are 1..n");
      lists.put(q, new ArrayList<>(ranks.values()));
    });
    return lists;
  }

  static Set<Long> all(long[] ids) {
    Set<Long> s = new HashSet<>();
    for (long id : ids) {
      s.add(id);
    }
    return s;
  }

  @Test
  void everyQueryWithExclusionsAndTruthOnOneAndThreeWorkers() throws IOException {
    String emb = embeddings();
    List<long[]> exclude = new ArrayList<>();
    List<long[]> truth = new ArrayList<>();
    Set<String> excluded = new HashSet<>();
    for (int e = 0; e < 900; e++) {
      long a = ids[rnd.nextInt(NODES)];
      long b = ids[rnd.nextInt(NODES)];
      (e % 3 == 0 ? truth : exclude).add(new long[] {a, b});
      if (e % 3 != 0) {
        excluded.add(a + ":" + b);
      }
    }
    String ex = pairs("exclude", exclude);
    String tr = pairs("truth", truth);
    int k = 10;
    Map<Long, List<Long>> expected = bruteForce(all(ids), all(ids), excluded, k);
    for (int workers : new int[] {1, 3}) {
      java.nio.file.Path out = dir.resolve("out" + workers);
      java.nio.file.Path metrics = dir.resolve("metrics" + workers + ".json");
      CliRun run = CliRun.of("topk", "--local", "--embeddings", emb, "--k", Integer.toString(k), "--output",
          out.toString(), "--exclude", ex, "--truth", tr, "--workers", Integer.toString(workers),
          "--candidate-block", "37", "--metrics", metrics.toString());
      assertEquals(0, run.status(), run.toString());
      Map<Long, List<Long>> got = readOutput(out);
      assertEquals(expected, got, "workers " + workers);

      // The metrics, recomputed here from the written lists and the truth pairs.
      Map<Long, Set<Long>> trueOf = new HashMap<>();
      for (long[] p : truth) {
        trueOf.computeIfAbsent(p[0], x -> new HashSet<>()).add(p[1]);
      }
      double recall = 0;
      double ndcg = 0;
      double hit = 0;
      double mrr = 0;
      for (Map.Entry<Long, Set<Long>> t : trueOf.entrySet()) {
        List<Long> list = got.get(t.getKey());
        double dcg = 0;
        double ideal = 0;
        int found = 0;
        int first = 0;
        for (int r = 0; r < list.size(); r++) {
          if (t.getValue().contains(list.get(r))) {
            found++;
            dcg += 1 / (Math.log(r + 2) / Math.log(2));
            first = first == 0 ? r + 1 : first;
          }
        }
        for (int r = 0; r < Math.min(k, t.getValue().size()); r++) {
          ideal += 1 / (Math.log(r + 2) / Math.log(2));
        }
        recall += (double) found / t.getValue().size();
        ndcg += dcg / ideal;
        hit += found > 0 ? 1 : 0;
        mrr += first > 0 ? 1.0 / first : 0;
      }
      int n = trueOf.size();
      String json = Files.readString(metrics);
      String line = run.out().lines().filter(l -> l.startsWith("yarn-gnn topk: truth:")).findFirst().orElseThrow();
      assertTrue(line.contains(String.format(java.util.Locale.ROOT, "recall@10=%.6f", recall / n)), line);
      assertTrue(line.contains(String.format(java.util.Locale.ROOT, "ndcg@10=%.6f", ndcg / n)), line);
      assertTrue(line.contains(String.format(java.util.Locale.ROOT, "hit_rate@10=%.6f", hit / n)), line);
      assertTrue(line.contains(String.format(java.util.Locale.ROOT, "mrr=%.6f", mrr / n)), line);
      assertTrue(line.contains("queries_with_truth=" + n), line);
      assertTrue(json.contains("\"recall@10\"") && json.contains("\"command\" : \"topk\"")
          || json.contains("\"command\": \"topk\""), json);
    }
  }

  @Test
  void querySubsetCandidateSubsetAndKLargerThanSomeLists() throws IOException {
    String emb = embeddings();
    List<Long> queries = new ArrayList<>();
    List<Long> candidates = new ArrayList<>();
    for (int i = 0; i < NODES; i++) {
      if (i % 5 == 0) {
        queries.add(ids[i]);
      }
      if (i % 3 == 0) {
        candidates.add(ids[i]); // overlaps the queries: those lose themselves
      }
    }
    queries.add(ids[5]); // a repeated query id is one query
    Map<Long, List<Long>> expected = bruteForce(new HashSet<>(queries), new HashSet<>(candidates), Set.of(), 100);
    java.nio.file.Path out = dir.resolve("subset");
    CliRun run = CliRun.of("topk", "--local", "--embeddings", emb, "--k", "100", "--output", out.toString(),
        "--queries", idTable("queries", queries), "--candidates", idTable("candidates", candidates), "--workers",
        "3");
    assertEquals(0, run.status(), run.toString());
    assertEquals(expected, readOutput(out));
  }

  @Test
  void badInputExitsTwoNamingTheOptionAndWritesNothing() throws IOException {
    String emb = embeddings();
    java.nio.file.Path out = dir.resolve("bad");
    CliRun k0 = CliRun.of("topk", "--local", "--embeddings", emb, "--k", "0", "--output", out.toString());
    assertEquals(2, k0.status(), k0.toString());
    assertTrue(k0.err().contains("--k"), k0.err());
    CliRun tooMany = CliRun.of("topk", "--local", "--embeddings", emb, "--k", "301", "--output", out.toString());
    assertEquals(2, tooMany.status(), tooMany.toString());
    assertTrue(tooMany.err().contains("--k 301 is more than the 300 candidates"), tooMany.err());
    CliRun unknownQuery = CliRun.of("topk", "--local", "--embeddings", emb, "--k", "3", "--output", out.toString(),
        "--queries", idTable("unknown", List.of(ids[0], 999_999_999L)), "--workers", "3");
    assertEquals(2, unknownQuery.status(), unknownQuery.toString());
    assertTrue(unknownQuery.err().contains("id 999999999 is not in --embeddings"), unknownQuery.err());
    CliRun unknownExclusion = CliRun.of("topk", "--local", "--embeddings", emb, "--k", "3", "--output",
        out.toString(), "--exclude", pairs("badexclude", List.of(new long[] {ids[0], ids[1]},
            new long[] {ids[2], -5L})));
    assertEquals(2, unknownExclusion.status(), unknownExclusion.toString());
    assertTrue(unknownExclusion.err().contains("row 3: id -5 is not in --embeddings"), unknownExclusion.err());
    // A duplicate id: a third part file repeating a row.
    try (EmbeddingWriter w = EmbeddingWriter.create(new Configuration(),
        new Path(dir.resolve("emb").resolve("part-00002.parquet").toString()), TableFormat.PARQUET, WIDTH, false)) {
      w.write(ids[7], rows[7], 0, -1);
    }
    CliRun duplicate = CliRun.of("topk", "--local", "--embeddings", emb, "--k", "3", "--output", out.toString(),
        "--workers", "2");
    assertEquals(2, duplicate.status(), duplicate.toString());
    assertTrue(duplicate.err().contains("id " + ids[7] + " appears twice"), duplicate.err());
    for (CliRun r : List.of(k0, tooMany, unknownQuery, unknownExclusion, duplicate)) {
      assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }
    assertFalse(Files.exists(out), "nothing written");
  }

  /** A table of one part file with {@code rows} rows of {@code width}, each {@code value}, ids from 1. */
  private java.nio.file.Path table(String name, int width, float value, int rows) {
    java.nio.file.Path t = dir.resolve(name);
    try (EmbeddingWriter w = EmbeddingWriter.create(new Configuration(),
        new Path(t.resolve("part-00000.parquet").toString()), TableFormat.PARQUET, width, false)) {
      for (int i = 0; i < rows; i++) {
        float[] row = new float[width];
        java.util.Arrays.fill(row, i == rows / 2 ? value : 1);
        w.write(i + 1, row, 0, -1);
      }
    }
    return t;
  }

  /** Embeddings of two widths, and a NaN in a row: exit 2 naming the table, nothing written. */
  @Test
  void embeddingsOfTwoWidthsOrWithANanExitTwo() throws IOException {
    java.nio.file.Path mixed = table("mixed", 4, 1, 10);
    try (EmbeddingWriter w = EmbeddingWriter.create(new Configuration(),
        new Path(mixed.resolve("part-00001.parquet").toString()), TableFormat.PARQUET, 5, false)) {
      w.write(100, new float[] {1, 2, 3, 4, 5}, 0, -1);
    }
    java.nio.file.Path nan = table("nan", 4, Float.NaN, 10);
    java.nio.file.Path out = dir.resolve("bad-tables");
    for (java.nio.file.Path t : List.of(mixed, nan)) {
      CliRun r = CliRun.of("topk", "--local", "--embeddings", t.toString(), "--k", "3", "--output", out.toString());
      assertEquals(2, r.status(), r.toString());
      assertTrue(r.err().contains(t.getFileName().toString()), "names the table: " + r.err());
      assertEquals(1, r.err().strip().lines().filter(l -> !l.startsWith("WARNING")).count(), "one line: " + r.err());
      assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
      assertFalse(Files.exists(out), "nothing written");
    }
  }
}
