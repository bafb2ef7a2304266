package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;

/**
 * Every bad input of the contract through the CLI: exit 2, one line naming the file and row (or option), and
 * nothing in the output directory: no part files, no {@code _SUCCESS}; an existing output survives.
 */
class BadInputTest {
  @TempDir Path dir;
  Path model;
  Path out;

  @BeforeEach
  void goodModel() throws Exception {
    model = dir.resolve("model");
    ModelDirectory.write(RandomModels.random(new ModelSpec("none",
        List.of(LayerSpec.gcn(3, 2, Activation.RELU, true)), "none", false), 1), model);
    out = dir.resolve("out");
  }

  private Path write(String name, String... lines) throws Exception {
    Path p = dir.resolve(name);
    Files.write(p, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    return p;
  }

  private Path goodNodes() throws Exception {
    return write("nodes.tsv", "# id\tfeatures", "10\t1,2,3", "20\t0,0,1", "30\t0.5,0.5,0.5");
  }

  private Path goodEdges() throws Exception {
    return write("edges.tsv", "10\t20", "20\t30", "30\t10");
  }

  private CliRun infer(Path edges, Path nodes, String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("infer", "--local", "--edges", edges.toString(),
        "--nodes", nodes.toString(), "--model", model.toString(), "--output", out.toString()));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(new String[0]));
  }

  /** Exit 2, a one-line message containing every fragment, and no output. */
  private void refused(CliRun run, String... fragments) throws Exception {
    assertEquals(2, run.status(), run.toString());
    String msg = run.err().trim();
    assertEquals(1, msg.lines().count(), "one line: " + msg);
    for (String f : fragments) {
      assertTrue(msg.contains(f), "message names '" + f + "': " + msg);
    }
    assertFalse(Files.exists(out.resolve("_SUCCESS")), "no _SUCCESS");
    if (Files.exists(out)) {
      try (Stream<Path> s = Files.list(out)) {
        assertFalse(s.anyMatch(p -> p.getFileName().toString().startsWith("part-")), "no part files");
      }
    }
    try (Stream<Path> s = Files.list(dir)) {
      assertFalse(s.anyMatch(p -> p.getFileName().toString().startsWith(".out")), "no leftover work directory");
    }
  }

  @Test
  void goodInputSucceeds() throws Exception {
    CliRun run = infer(goodEdges(), goodNodes());
    assertEquals(0, run.status(), run.toString());
    assertTrue(Files.exists(out.resolve("_SUCCESS")));
  }

  @Test
  void danglingEndpoint() throws Exception {
    refused(infer(write("edges.tsv", "10\t20", "20\t99"), goodNodes()), "edges.tsv:2", "99");
  }

  @Test
  void danglingEndpointAllowedWithZeroFeatures() throws Exception {
    CliRun run = infer(write("edges.tsv", "10\t20", "20\t99"), goodNodes(), "--missing-features", "zero");
    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("4 embeddings"), run.toString());
  }

  @Test
  void duplicateNodeId() throws Exception {
    refused(infer(goodEdges(), write("nodes.tsv", "10\t1,2,3", "20\t0,0,1", "10\t1,1,1")), "nodes.tsv:3",
        "duplicate");
  }

  @Test
  void featureWidthMismatch() throws Exception {
    refused(infer(goodEdges(), write("nodes.tsv", "10\t1,2,3", "20\t0,1", "30\t1,1,1")), "nodes.tsv:2");
  }

  @Test
  void nonFiniteFeature() throws Exception {
    refused(infer(goodEdges(), write("nodes.tsv", "10\t1,2,3", "20\t0,NaN,1", "30\t1,1,1")), "nodes.tsv:2");
  }

  @Test
  void malformedEdgeLine() throws Exception {
    refused(infer(write("edges.tsv", "10\t20", "# comment", "20\tabc"), goodNodes()), "edges.tsv:3");
  }

  @Test
  void wrongParquetColumnType() throws Exception {
    Path file = dir.resolve("edges.parquet");
    MessageType schema = MessageTypeParser.parseMessageType(
        "message edges { required binary src (UTF8); required int64 dst; }");
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(
        new org.apache.hadoop.fs.Path(file.toUri())).withType(schema).withConf(new Configuration()).build()) {
      w.write(new SimpleGroupFactory(schema).newGroup().append("src", "10").append("dst", 20L));
    }
    refused(infer(file, goodNodes()), "edges.parquet", "src");
  }

  /** A one-edge Parquet table whose src and dst are of physical type {@code physical} with {@code annotation}. */
  private Path parquetEdges(String name, String physical, String annotation, Object src, Object dst)
      throws Exception {
    Path file = dir.resolve(name);
    MessageType schema = MessageTypeParser.parseMessageType("message edges { required " + physical + " src ("
        + annotation + "); required " + physical + " dst (" + annotation + "); }");
    try (ParquetWriter<Group> w = ExampleParquetWriter.builder(
        new org.apache.hadoop.fs.Path(file.toUri())).withType(schema).withConf(new Configuration()).build()) {
      Group g = new SimpleGroupFactory(schema).newGroup();
      if (src instanceof Integer i) {
        g.append("src", i).append("dst", (Integer) dst);
      } else {
        g.append("src", (Long) src).append("dst", (Long) dst);
      }
      w.write(g);
    }
    return file;
  }

  @Test
  void parquetIdsAreReadByTheirLogicalType() throws Exception {
    // UINT32 4294967295 is stored as the int32 -1: read by its physical type it names no node (exit 2).
    Path nodes = write("nodes.tsv", "# id\tfeatures", "4294967295\t1,2,3", "20\t0,0,1");
    Path edges = parquetEdges("edges.parquet", "int32", "INTEGER(32,false)", -1, 20);
    CliRun run = infer(edges, nodes);
    assertEquals(0, run.status(), run::toString);
    assertTrue(Files.exists(out.resolve("_SUCCESS")), run::toString);
  }

  @Test
  void scaledDecimalAndDateIdsAreRefused() throws Exception {
    refused(infer(parquetEdges("dec.parquet", "int64", "DECIMAL(18,2)", 1000L, 2000L), goodNodes()),
        "dec.parquet", "src");
    refused(infer(parquetEdges("date.parquet", "int32", "DATE", 10, 20), goodNodes()), "date.parquet", "src");
  }

  @Test
  void theSmallestInt64IsAnOrdinaryId() throws Exception {
    Path nodes = write("nodes.tsv", "-9223372036854775808\t1,2,3", "20\t0,0,1");
    Path edges = write("edges.tsv", "-9223372036854775808\t20", "20\t-9223372036854775808");
    CliRun run = infer(edges, nodes);
    assertEquals(0, run.status(), run::toString);
  }

  @Test
  void modelWidthDiffersFromFeatures() throws Exception {
    refused(infer(goodEdges(), write("nodes.tsv", "10\t1,2", "20\t0,1", "30\t1,1")), "model", "width");
  }

  @Test
  void badModelActivation() throws Exception {
    Path json = model.resolve("model.json");
    Files.writeString(json, Files.readString(json).replace("\"relu\"", "\"swish\""));
    refused(infer(goodEdges(), goodNodes()), "model.json", "swish");
  }

  @Test
  void unknownOptionAndMissingOption() throws Exception {
    refused(infer(goodEdges(), goodNodes(), "--fanout", "3"), "--fanout");
    refused(CliRun.of("infer", "--local", "--edges", goodEdges().toString()), "--nodes");
    refused(infer(goodEdges(), goodNodes(), "-D", "yarngnn.sed=3"), "yarngnn.sed");
  }

  @Test
  void existingOutputIsRefusedAndSurvivesABadOverwrite() throws Exception {
    assertEquals(0, infer(goodEdges(), goodNodes()).status());
    CliRun again = infer(goodEdges(), goodNodes());
    assertEquals(2, again.status(), again.toString());
    assertTrue(again.err().contains("--overwrite"), again.toString());
    // A bad run with --overwrite must not destroy the good output it would have replaced.
    CliRun bad = infer(write("edges.tsv", "10\t20", "20\t99"), goodNodes(), "--overwrite");
    assertEquals(2, bad.status(), bad.toString());
    assertTrue(Files.exists(out.resolve("_SUCCESS")), "previous output kept");
  }
}
