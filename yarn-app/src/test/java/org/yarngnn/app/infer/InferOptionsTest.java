package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.EdgeReading;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.yarn.LaunchContexts;
import org.yarngnn.io.table.TableFormat;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;

class InferOptionsTest {
  @TempDir
  java.nio.file.Path tmp;

  /** Every field set, none to its default. */
  static InferOptions everything() {
    return InferOptions.builder().set(GraphJobOptions.EDGES,
        "hdfs://nn:8020/data/edges").set(GraphJobOptions.NODES, "hdfs://nn:8020/data/nodes dir/n.tsv.gz")
        .set(GraphJobOptions.EDGES_FORMAT, TableFormat.CSV).set(GraphJobOptions.NODES_FORMAT, TableFormat.TSV)
        .set(GraphJobOptions.OUTPUT_FORMAT, TableFormat.ORC).set(GraphJobOptions.UNDIRECTED, true)
        .set(GraphJobOptions.MISSING_FEATURES, MissingFeatures.ZERO).set(GraphJobOptions.OVERWRITE, true)
        .set(GraphJobOptions.SEED, -7).set(GraphJobOptions.THREADS, 3).set(GraphJobOptions.WORKERS, 5)
        .set(GraphJobOptions.WORKER_MEMORY, 2048).set(GraphJobOptions.WORKER_VCORES, 4).set(GraphJobOptions.QUEUE,
        "q1").set(GraphJobOptions.NAME, "my job & <co>").set(GraphJobOptions.CHUNK_ROWS, 99)
        .set(GraphJobOptions.OWNERSHIP, Ownership.Kind.HASH).set(GraphJobOptions.EDGE_READING, EdgeReading.SHARE)
        .set(GraphJobOptions.LOCAL, false).set(GraphJobOptions.VERBOSE, true).set(GraphJobOptions.WORK_DIR,
        "hdfs://nn:8020/.out.yarn-gnn-tmp-1").set(GraphJobOptions.LAYERS, 3)
        .set(InferOptions.MODEL, "staged:model").set(GraphJobOptions.OUTPUT, "hdfs://nn:8020/out")
        .set(InferOptions.FUSION, false).set(InferOptions.PIPELINING, false)
        .set(InferOptions.STRATEGY, InferOptions.Strategy.LAYERWISE).set(InferOptions.BATCH_SIZE, 17)
        .set(InferOptions.TARGETS, "hdfs://nn:8020/data/targets")
        .set(InferOptions.TARGETS_FORMAT, TableFormat.ORC).build();
  }

  /** The fewest fields: a partitioned graph, no formats, no internal fields, workers unset. */
  static InferOptions minimal() {
    return InferOptions.builder().set(GraphJobOptions.GRAPH, "/g").set(InferOptions.MODEL, "/m")
        .set(GraphJobOptions.OUTPUT, "/o").build();
  }

  @Test
  void everyFieldRoundTripsThroughAConfiguration() {
    for (InferOptions o : new InferOptions[] {everything(), minimal(),
        minimal().toBuilder().set(InferOptions.STRATEGY, InferOptions.Strategy.NODEWISE).set(GraphJobOptions.LOCAL,
        true)
            .build()}) {
      assertEquals(o, InferOptions.fromConfiguration(o.toConfiguration()), o.toString());
      assertEquals(o, o.toBuilder().build());
    }
    InferOptions back = InferOptions.fromConfiguration(minimal().toConfiguration());
    assertNull(back.get(GraphJobOptions.EDGES));
    assertNull(back.get(GraphJobOptions.NODES));
    assertNull(back.get(GraphJobOptions.EDGES_FORMAT));
    assertNull(back.get(GraphJobOptions.NODES_FORMAT));
    assertNull(back.get(GraphJobOptions.WORK_DIR));
    assertNull(back.get(InferOptions.TARGETS));
    assertEquals(0, back.getInt(GraphJobOptions.WORKERS));
    assertEquals(0, back.getInt(GraphJobOptions.LAYERS));
  }

  @Test
  void everyFieldRoundTripsThroughAWrittenJobXml() throws Exception {
    for (InferOptions o : new InferOptions[] {everything(), minimal()}) {
      File file = tmp.resolve("job-" + o.hashCode() + ".xml").toFile();
      try (OutputStream out = Files.newOutputStream(file.toPath())) {
        o.toConfiguration().writeXml(out);
      }
      Configuration read = LaunchContexts.jobConf(file);
      assertEquals(o, InferOptions.fromConfiguration(read));
      assertEquals(o.toConfiguration().size(), read.size(), "nothing but the job's keys");
    }
  }

  @Test
  void keysAreTheDocumentedOptionNamesOrInternalJobKeys() {
    OptionSpec spec = InferOptions.optionSpec();
    Configuration c = everything().toConfiguration();
    for (Map.Entry<String, String> e : c) {
      String key = e.getKey();
      assertTrue(key.startsWith("yarngnn."), key);
      String name = key.substring("yarngnn.".length());
      assertTrue(name.startsWith("job.") || spec.options().containsKey(name), key);
    }
    assertEquals("hdfs://nn:8020/data/edges", c.get("yarngnn.edges"));
    assertEquals("2048", c.get("yarngnn.worker-memory"));
    assertEquals("off", c.get("yarngnn.fusion"));
    assertEquals("hash", c.get("yarngnn.ownership"));
    assertEquals("share", c.get("yarngnn.edge-reading"));
    assertEquals("orc", c.get("yarngnn.output-format"));
    assertEquals("3", c.get(GraphJobOptions.LAYERS.key()));
    Configuration m = minimal().toConfiguration();
    for (String absent : new String[] {"yarngnn.edges", "yarngnn.nodes", "yarngnn.edges-format", "yarngnn.workers",
        GraphJobOptions.WORK_DIR.key(), GraphJobOptions.LAYERS.key()}) {
      assertNull(m.get(absent), absent);
    }
  }

  private static InferOptions parse(Configuration conf, String... args) {
    return InferOptions.fromCommandLine(CommandLine.parse(InferOptions.optionSpec(), args, conf));
  }

  @Test
  void theCommandLineIsParsedIntoTypedValuesAndWinsOverConfigurationKeys() {
    Configuration conf = new Configuration(false);
    conf.set("yarngnn.seed", "7");
    conf.set("yarngnn.chunk-rows", "5");
    InferOptions o = parse(conf, "--local", "--edges", "e.tsv", "--nodes", "n.tsv", "--model", "m", "--output", "o",
        "--chunk-rows", "8", "--fusion", "off", "--ownership", "range", "--edge-reading", "all",
        "--edges-format", "csv", "--workers", "3",
        "--missing-features", "zero", "--output-format", "orc", "--undirected");
    assertEquals(7, o.get(GraphJobOptions.SEED));
    assertEquals(8, o.getInt(GraphJobOptions.CHUNK_ROWS));
    assertFalse(o.get(InferOptions.FUSION));
    assertFalse(o.get(InferOptions.PIPELINING), "auto: off between --local workers");
    assertEquals(Ownership.Kind.RANGE, o.get(GraphJobOptions.OWNERSHIP));
    assertEquals(EdgeReading.ALL, o.get(GraphJobOptions.EDGE_READING));
    assertEquals(EdgeReading.ALL, o.get(GraphJobOptions.EDGE_READING).resolve(EdgeReading.MAX_READING_ALL + 1));
    assertEquals(TableFormat.CSV, o.get(GraphJobOptions.EDGES_FORMAT));
    assertNull(o.get(GraphJobOptions.NODES_FORMAT));
    assertEquals(3, o.getInt(GraphJobOptions.WORKERS));
    assertEquals(MissingFeatures.ZERO, o.get(GraphJobOptions.MISSING_FEATURES));
    assertEquals(TableFormat.ORC, o.get(GraphJobOptions.OUTPUT_FORMAT));
    assertTrue(o.get(GraphJobOptions.UNDIRECTED));
    assertTrue(o.get(GraphJobOptions.LOCAL));
    InferOptions defaults = parse(new Configuration(false), "--local", "--graph", "g", "--model", "m", "--output", "o");
    assertEquals(0, defaults.getInt(GraphJobOptions.WORKERS));
    assertEquals(EdgeReading.AUTO, defaults.get(GraphJobOptions.EDGE_READING));
    assertEquals(EdgeReading.ALL, defaults.get(GraphJobOptions.EDGE_READING).resolve(2));
    assertEquals(EdgeReading.ALL, defaults.get(GraphJobOptions.EDGE_READING).resolve(EdgeReading.MAX_READING_ALL));
    assertEquals(EdgeReading.SHARE,
        defaults.get(GraphJobOptions.EDGE_READING).resolve(EdgeReading.MAX_READING_ALL + 1));
    assertEquals(1024, defaults.getInt(GraphJobOptions.WORKER_MEMORY));
    assertEquals("yarn-gnn infer", defaults.get(GraphJobOptions.NAME));
    assertEquals("default", defaults.get(GraphJobOptions.QUEUE));
    assertEquals(InferOptions.Strategy.LAYERWISE, defaults.get(InferOptions.STRATEGY));
    assertEquals(Runtime.getRuntime().availableProcessors(), defaults.job().threads());
  }

  @Test
  void pipeliningAutoIsOnBetweenContainersAndOffBetweenLocalWorkers() {
    String[] base = {"--graph", "g", "--model", "m", "--output", "o"};
    Configuration conf = new Configuration(false);
    conf.set("yarn.resourcemanager.address", "rm.example:8032"); // without --local the job goes to YARN
    assertTrue(parse(conf, base).get(InferOptions.PIPELINING), "containers, auto");
    assertFalse(parse(conf, concat(base, "--local")).get(InferOptions.PIPELINING), "--local, auto");
    assertFalse(parse(conf, concat(base, "--local", "--pipelining", "auto")).get(InferOptions.PIPELINING),
        "--local, auto named");
    assertTrue(parse(conf, concat(base, "--local", "--pipelining", "on")).get(InferOptions.PIPELINING), "--local, on");
    assertFalse(parse(conf, concat(base, "--pipelining", "off")).get(InferOptions.PIPELINING), "containers, off");
    // A container takes the value its driver resolved, whatever its own yarngnn.local says.
    InferOptions local = parse(conf, concat(base, "--local", "--pipelining", "on"));
    assertTrue(InferOptions.fromConfiguration(local.toConfiguration()).get(InferOptions.PIPELINING));
    InferOptions remote = parse(conf, base);
    assertTrue(InferOptions.fromConfiguration(remote.toConfiguration()).get(InferOptions.PIPELINING));
  }

  @Test
  void threadsDefaultToTheCoresAWorkerHasWhereItRuns() {
    int cores = Runtime.getRuntime().availableProcessors();
    String[] base = {"--edges", "e", "--nodes", "n", "--model", "m", "--output", "o"};
    // --local workers share this JVM's cores; a lone worker has them all.
    InferOptions local = parse(new Configuration(false), concat(base, "--local", "--workers", "2"));
    assertEquals(Math.max(1, cores / 2), local.job().threads());
    assertEquals(Math.max(1, cores / 64),
        parse(new Configuration(false), concat(base, "--local", "--workers", "64")).job().threads());
    // On YARN the client's cores are not the container's: the default is not shipped, each worker has its vcores.
    Configuration cluster = new Configuration(false);
    cluster.set("yarn.resourcemanager.address", "rm.example:8032");
    InferOptions yarn = parse(cluster, concat(base, "--worker-vcores", "3"));
    assertFalse(yarn.get(GraphJobOptions.LOCAL));
    assertEquals(3, yarn.job().threads());
    assertNull(yarn.toConfiguration().get(GraphJobOptions.THREADS.key()));
    assertEquals(3, InferOptions.fromConfiguration(yarn.toConfiguration()).job().threads());
    // Given, it is the same everywhere and travels with the job.
    InferOptions given = parse(cluster, concat(base, "--worker-vcores", "3", "--threads", "5"));
    assertEquals(5, given.job().threads());
    assertEquals(5, InferOptions.fromConfiguration(given.toConfiguration()).job().threads());
    assertEquals(5, parse(new Configuration(false), concat(base, "--local", "--workers", "2", "--threads", "5"))
        .job().threads());
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static String refused(Configuration conf, String... args) {
    return assertThrows(UsageException.class, () -> parse(conf, args)).getMessage();
  }

  private static String refused(String... extra) {
    String[] base = {"--local", "--edges", "e", "--nodes", "n", "--model", "m", "--output", "o"};
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return refused(new Configuration(false), args);
  }

  @Test
  void validationErrorsAreOneLineNamingTheOption() {
    assertEquals("option --workers needs a whole number, not 'x'", refused("--workers", "x"));
    assertEquals("option --workers must be at least 1, not 0", refused("--workers", "0"));
    assertEquals("option --worker-memory must be at least 128, not 64", refused("--worker-memory", "64"));
    assertEquals("option --worker-vcores must be at least 1, not 0", refused("--worker-vcores", "0"));
    assertEquals("option --threads must be at least 1, not 0", refused("--threads", "0"));
    assertEquals("option --chunk-rows must be at least 1, not 99999999999", refused("--chunk-rows", "99999999999"));
    assertEquals("option --batch-size must be at least 1, not -1", refused("--batch-size", "-1"));
    assertEquals("option --seed needs a whole number, not '1.5'", refused("--seed", "1.5"));
    assertEquals("--fusion must be on or off, not 'yes'", refused("--fusion", "yes"));
    assertEquals("--pipelining must be auto, on or off, not '1'", refused("--pipelining", "1"));
    assertEquals("--edge-reading must be auto, share or all, not 'some'", refused("--edge-reading", "some"));
    assertEquals("--ownership must be auto, range or hash, not 'x'", refused("--ownership", "x"));
    assertEquals("--missing-features must be error or zero, not 'x'", refused("--missing-features", "x"));
    assertEquals("--strategy must be layerwise or nodewise, not 'x'", refused("--strategy", "x"));
    assertEquals("--output-format must be parquet or orc", refused("--output-format", "tsv"));
    assertEquals("--edges-format: unknown format 'x' (parquet, orc, tsv, csv)", refused("--edges-format", "x"));
    assertEquals("--graph replaces --edges and --nodes: give one or the other", refused("--graph", "g"));
    assertEquals("infer needs --nodes", refused(new Configuration(false), "--local", "--edges", "e", "--model", "m",
        "--output", "o"));
    assertEquals("infer needs --model", refused(new Configuration(false), "--graph", "g", "--output", "o"));
    assertEquals("--targets needs --strategy layerwise (the nodewise baseline computes every node)",
        refused("--strategy", "nodewise", "--targets", "t"));
    assertEquals("--strategy nodewise is a single-JVM baseline: add --local",
        assertThrows(UsageException.class, () -> minimal().toBuilder().set(InferOptions.STRATEGY,
        InferOptions.Strategy.NODEWISE)
            .build()).getMessage());
    // The builder checks what the command line would: the same messages.
    assertEquals("option --workers must be at least 1, not 0",
        assertThrows(UsageException.class, () -> minimal().toBuilder().set(GraphJobOptions.WORKERS, 0)
            .build()).getMessage());
    // And so does a job.xml read back.
    Configuration c = minimal().toConfiguration();
    c.set("yarngnn.chunk-rows", "0");
    assertEquals("option --chunk-rows must be at least 1, not 0",
        assertThrows(UsageException.class, () -> InferOptions.fromConfiguration(c)).getMessage());
    c.set("yarngnn.chunk-rows", "1");
    c.set(GraphJobOptions.LAYERS.key(), "two");
    assertTrue(assertThrows(UsageException.class, () -> InferOptions.fromConfiguration(c)).getMessage()
        .contains(GraphJobOptions.LAYERS.key()));
  }
}
