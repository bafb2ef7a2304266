package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.NativeCodeLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.e2e.cluster.KerberizedClusters;
import org.yarngnn.e2e.cluster.MapReduceFramework;
import org.yarngnn.e2e.cluster.MiniClusters;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.GraphBuildOptions;
import org.yarngnn.partition.PartitionBuilder;
import org.yarngnn.partition.format.PartitionedGraph;

/**
 * {@code infer}, {@code train} (its graph workers, tensor workers and the ApplicationMaster's parameter server),
 * {@code partition --local}, and {@code partition} on YARN (where Hadoop's native library is present) on a
 * Kerberized cluster (MiniKdc, HDFS with two namespaces, YARN), run by a client JVM that logs in with {@code --principal}/{@code --keytab} and has no ticket cache. The edges are on the
 * default namespace and the nodes on the second one, so the containers (which have no Kerberos credentials of
 * their own) can read them only with the delegation tokens the client obtained for both namespaces; outputs equal
 * the non-secure references. Tagged {@code kerberos}: surefire runs it in a JVM of its own (the Kerberos
 * configuration and Hadoop's login are process-wide).
 */
@Tag("kerberos")
class KerberizedClusterTest {
  private static MapReduceFramework framework;
  private static KerberizedClusters cluster;
  private static String edges;
  private static String nodes;
  @TempDir static java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    framework = MapReduceFramework.load();
    cluster = KerberizedClusters.start("kerberos", framework::configureCluster);
    java.nio.file.Path cora = SharedData.planetoid("cora");
    edges = cluster.namespace(0) + "/data/cora/edges.tsv";
    nodes = cluster.namespace(1) + "/data/cora/nodes.tsv.gz";
    cluster.fs(0).copyFromLocalFile(new Path(cora.resolve("edges.tsv").toUri()), new Path(edges));
    cluster.fs(1).copyFromLocalFile(new Path(cora.resolve("nodes.tsv.gz").toUri()), new Path(nodes));
    CoraLocalInferenceTest.work = local;
    CoraLocalInferenceTest.load();
    TrainLocalTest.edges = cora.resolve("edges.tsv");
    TrainLocalTest.nodes = cora.resolve("nodes.tsv.gz");
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** One run of the CLI in its own JVM against {@code confDir}, logged in from the client's keytab. */
  private static CliRun client(File confDir, String... args) throws Exception {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--principal", cluster.clientPrincipal(), "--keytab", cluster.clientKeytab().toString()));
    return run(confDir, a);
  }

  private static CliRun run(File confDir, List<String> args) throws Exception {
    File out = Files.createTempFile(local, "client", ".out").toFile();
    File err = Files.createTempFile(local, "client", ".err").toFile();
    Process p = cluster.client(confDir, args).redirectOutput(out).redirectError(err).start();
    if (!p.waitFor(4, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the client did not finish in 4 minutes: " + args);
    }
    CliRun run = new CliRun(p.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8),
        Files.readString(err.toPath(), StandardCharsets.UTF_8));
    System.out.print(run.out());
    System.err.print(run.err());
    return run;
  }

  @Test
  void inferOnYarnReadsTablesOnTwoNamespacesWithTheClientsDelegationTokens() throws Exception {
    Model model = RandomModels.random(CoraLocalInferenceTest.sageSpec(), 77);
    java.nio.file.Path dir = local.resolve("model-sage");
    ModelDirectory.write(model, dir);
    CliRun run = client(cluster.confDir(), "infer", "--edges", edges, "--nodes", nodes, "--model",
        dir.toUri().toString(), "--output", "/out/cora-sage", "--workers", "2", "--worker-memory", "512",
        "--seed", "5");
    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("delegation token(s) for [" + cluster.namespace(0) + ", " + cluster.namespace(1)
        + "] (renewer hadoop/localhost@"), "a token for each namespace, renewed by the RM: " + run.out());
    FileSystem fs = cluster.fs(0);
    Path out = new Path("/out/cora-sage");
    assertEquals(KerberizedClusters.CLIENT, fs.getFileStatus(out).getOwner(), "written as the keytab's user");
    java.nio.file.Path copy = local.resolve("copy-sage");
    fs.copyToLocalFile(out, new Path(copy.toUri()));
    CoraLocalInferenceTest.compare(model, 5, copy);
  }

  /**
   * Training on the secure cluster: the graph workers read the tables on both namespaces with the client's tokens,
   * the remote tensor workers join the AM's parameter server, and the AM writes the model as the keytab's user;
   * the losses are the single-JVM trainer's.
   */
  @Test
  void trainOnYarnWithRemoteTensorWorkersWritesTheModelAsTheKeytabsUser() throws Exception {
    int epochs = 5;
    java.nio.file.Path spec = Files.writeString(local.resolve("train-spec.json"), TrainLocalTest.SPEC);
    CliRun run = client(cluster.confDir(), "train", "--edges", edges, "--nodes", nodes, "--model-spec",
        spec.toUri().toString(), "--output", "/out/cora-model", "--workers", "2", "--worker-memory", "512",
        "--epochs", Integer.toString(epochs), "--weight-decay", "5e-4", "--seed", "1", "--tensor-backend", "remote",
        "--tensor-workers", "1", "--tensor-worker-memory", "384");
    assertEquals(0, run.status(), run.toString());
    assertTrue(run.out().contains("delegation token(s) for [" + cluster.namespace(0) + ", " + cluster.namespace(1)
        + "]"), "a token for each namespace: " + run.out());
    FileSystem fs = cluster.fs(0);
    Path out = new Path("/out/cora-model");
    assertEquals(KerberizedClusters.CLIENT, fs.getFileStatus(new Path(out, "weights.safetensors")).getOwner());
    Map<?, ?> m;
    try (java.io.InputStream in = fs.open(new Path(out, "metrics.json"))) {
      m = (Map<?, ?>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    TrainLocalTest.assertSameLosses(TrainLocalTest.referenceLosses(epochs), TrainLocalTest.losses(m),
        "train on the Kerberized cluster");
  }

  /**
   * {@code partition --local} (Hadoop's local job runner in the client) logged in from the keytab. Its shuffle runs
   * in the client's JVM, and on a Kerberized cluster MapReduce's secure shuffle needs Hadoop's native library
   * there. With it (-Pnative-hadoop, where libhadoop is installed) the job reads both namespaces and writes the
   * second one as the keytab's user; without it (this machine: neither Maven Central nor Debian ship libhadoop)
   * it fails before any map runs, exit 1 with the reason, nothing written.
   */
  @Test
  void partitionWithTheLocalJobRunnerNeedsTheNativeLibraryAndSaysSo() throws Exception {
    String graph = cluster.namespace(1) + "/graphs/cora-local-p2";
    CliRun run = client(cluster.confDir(), "partition", "--local", "--edges", edges, "--nodes", nodes, "--output",
        graph, "--partitions", "2");
    if (NativeCodeLoader.isNativeCodeLoaded()) {
      assertEquals(0, run.status(), run.toString());
      assertEquals(KerberizedClusters.CLIENT, cluster.fs(1).getFileStatus(new Path(graph)).getOwner());
      assertSamePartitions(graph);
      return;
    }
    assertEquals(1, run.status(), run.toString());
    assertEquals(List.of("yarn-gnn partition failed: --local on a Kerberized cluster needs Hadoop's native library "
        + "(libhadoop) in this JVM for MapReduce's secure shuffle; give its directory in java.library.path, or run "
        + "partition on YARN"), run.err().lines().filter(l -> l.startsWith("yarn-gnn")).toList(), run.err());
    FileSystem fs = cluster.fs(1);
    assertFalse(fs.exists(new Path(graph)), "no output");
    assertTrue(!fs.exists(new Path("/graphs")) || java.util.Arrays.stream(fs.listStatus(new Path("/graphs")))
        .noneMatch(f -> f.getPath().getName().contains("cora-local-p2")), "nothing left beside the output");
  }

  /**
   * Needs Hadoop's native library in this JVM (the NodeManagers'): on a secure cluster the shuffle service opens
   * map outputs through SecureIOUtils, which refuses to load without it ("Secure IO is not possible without native
   * code extensions"). Without it the maps still run, reading both namespaces with the job's tokens, and every
   * reducer fails at the shuffle.
   */
  /** Needs libhadoop (MapReduce's shuffle under Kerberos): only with -Pnative-hadoop. */
  @Test
  @Tag("native-hadoop")
  void partitionOnYarnWritesToTheSecondNamespace() throws Exception {
    assumeTrue(NativeCodeLoader.isNativeCodeLoaded(), "no native Hadoop library (libhadoop) in the NodeManagers'"
        + " JVM: a Kerberized MapReduce shuffle needs it (SecureIOUtils)");
    Configuration mr = cluster.conf();
    framework.configureJob(mr, MiniClusters.shippedJar());
    File confDir = cluster.writeConfDir("conf-mr", mr);
    String graph = cluster.namespace(1) + "/graphs/cora-p2";
    CliRun run = client(confDir, "partition", "--edges", edges, "--nodes", nodes, "--output", graph,
        "--partitions", "2", "--name", "kerberized partition");
    assertEquals(0, run.status(), run.toString());
    assertSamePartitions(graph);
  }

  @Test
  void aKeytabWithoutThePrincipalsKeyIsRefusedBeforeAnythingRuns() throws Exception {
    File other = cluster.keytabOf("someone-else");
    CliRun run = run(cluster.confDir(), List.of("infer", "--edges", edges, "--nodes", nodes, "--model", "/m",
        "--output", "/out/never", "--principal", cluster.clientPrincipal(), "--keytab", other.toString()));
    assertEquals(2, run.status(), run.toString());
    List<String> said = run.err().lines().filter(l -> l.startsWith("yarn-gnn")).toList();
    assertEquals(List.of("yarn-gnn infer: --keytab " + other + " holds no key of --principal "
        + cluster.clientPrincipal()), said, run.err());
  }

  /** The partitioned graph {@code graph} holds the partitions the in-JVM builder makes of Cora, 2 of them. */
  private static void assertSamePartitions(String graph) throws Exception {
    Configuration conf = cluster.conf();
    PartitionedGraph g = PartitionedGraph.open(conf, new Path(graph));
    PartitionBuilder.Result expected = PartitionBuilder.build(EdgeTable.open(conf, new Path(edges),
        TableReadOptions.defaults()), NodeTable.open(conf, new Path(nodes), TableReadOptions.defaults()), 2,
        GraphBuildOptions.builder().build());
    assertEquals(2708, g.stats().nodes());
    assertEquals(10556, g.stats().edges());
    assertEquals(expected.stats().partitions(), g.stats().partitions(), "per-partition nodes, edges and halo");
    for (int p = 0; p < 2; p++) {
      PartitionJobClusterTest.assertSamePartition(expected.partitions().get(p), g.loadPartition(p));
    }
  }
}
