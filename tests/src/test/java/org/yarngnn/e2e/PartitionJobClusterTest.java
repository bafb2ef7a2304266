package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.e2e.cluster.MapReduceFramework;
import org.yarngnn.e2e.cluster.MiniClusters;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.GraphBuildOptions;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.PartitionBuilder;
import org.yarngnn.partition.PartitionedGraphStats;
import org.yarngnn.partition.format.PartitionedGraph;
import org.yarngnn.partition.mr.PartitionJob;
import org.yarngnn.partition.mr.PartitionJobOptions;

/**
 * The partition MapReduce job on a real MiniDFSCluster + MiniYARNCluster: the MR ApplicationMaster, map and reduce
 * tasks run in NodeManager containers from the unshaded MapReduce framework and the shipped jar, reducers fetch
 * map outputs through the NodeManagers' shuffle service, and tables and output are on HDFS.
 */
class PartitionJobClusterTest {
  private static final Path CORA_EDGES = new Path("/data/cora/edges.tsv");
  private static final Path CORA_NODES = new Path("/data/cora/nodes.tsv.gz");

  private static MapReduceFramework framework;
  private static MiniClusters cluster;

  @BeforeAll
  static void start() throws Exception {
    framework = MapReduceFramework.load();
    cluster = MiniClusters.start("partition-job", framework::configureCluster);
    java.nio.file.Path cora = SharedData.planetoid("cora");
    FileSystem fs = cluster.fs();
    fs.copyFromLocalFile(new Path(cora.resolve("edges.tsv").toUri()), CORA_EDGES);
    fs.copyFromLocalFile(new Path(cora.resolve("nodes.tsv.gz").toUri()), CORA_NODES);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The cluster's client configuration set up to run MapReduce jobs on YARN with the shipped jar. */
  private static Configuration jobConf() {
    Configuration c = cluster.conf();
    framework.configureJob(c, MiniClusters.shippedJar());
    return c;
  }

  private static PartitionJobOptions.Builder job(Path edges, Path out, int parts, String name) throws Exception {
    FileSystem fs = cluster.fs();
    return PartitionJobOptions.builder().edges(fs.makeQualified(edges)).nodes(fs.makeQualified(CORA_NODES))
        .output(fs.makeQualified(out)).partitions(parts).name(name);
  }

  @Test
  void coraOnYarnEqualsTheInMemoryBuildForTwoAndThreePartitions() throws Exception {
    FileSystem fs = cluster.fs();
    for (int parts : new int[] {2, 3}) {
      String name = "cluster-test cora p" + parts;
      Path out = fs.makeQualified(new Path("/graphs/cora-p" + parts));
      PartitionedGraphStats stats = PartitionJob.run(jobConf(), job(CORA_EDGES, out, parts, name).build());
      System.out.println(stats.summary());
      assertRanOnYarn(name);
      assertEquals(10556, stats.edges());
      assertEquals(2708, stats.nodes());
      assertTrue(fs.exists(new Path(out, "_SUCCESS")), "no _SUCCESS in " + out);

      Configuration conf = cluster.conf();
      PartitionedGraph g = PartitionedGraph.open(conf, out);
      PartitionBuilder.Result expected = PartitionBuilder.build(
          EdgeTable.open(conf, fs.makeQualified(CORA_EDGES), TableReadOptions.defaults()),
          NodeTable.open(conf, fs.makeQualified(CORA_NODES), TableReadOptions.defaults()), parts,
          GraphBuildOptions.builder().build());
      assertEquals(parts, g.parts());
      assertEquals(expected.stats().ownership(), g.ownership());
      assertEquals(expected.stats().partitions(), stats.partitions(), "per-partition nodes, edges and halo");
      assertEquals(expected.stats().partitions(), g.stats().partitions(), "stats in the manifest");
      for (int p = 0; p < parts; p++) {
        assertSamePartition(expected.partitions().get(p), g.loadPartition(p));
      }
    }
  }

  @Test
  void danglingEndpointIsRefusedNamingTheRowAndNothingIsWritten() throws Exception {
    FileSystem fs = cluster.fs();
    Path edges = new Path("/data/bad/edges.tsv");
    try (FSDataOutputStream o = fs.create(edges)) {
      o.write("0\t1\n1\t2\n2\t99999\n".getBytes(StandardCharsets.UTF_8));
    }
    Path out = new Path("/graphs/bad");
    String name = "cluster-test dangling";
    PartitionJobOptions options = job(edges, out, 2, name).build();
    InputException e = assertThrows(InputException.class, () -> PartitionJob.run(jobConf(), options));
    assertTrue(e.getMessage().matches(".*/data/bad/edges\\.tsv:3: dst 99999 has no row in the nodes table.*"),
        e.getMessage());
    // The tasks record the bad row in the work directory and succeed; the client reports the first one.
    assertRanOnYarn(name);
    assertFalse(fs.exists(out), "nothing at the output path");
    for (FileStatus st : fs.exists(out.getParent()) ? fs.listStatus(out.getParent()) : new FileStatus[0]) {
      assertFalse(st.getPath().getName().startsWith(".bad"), "work directory left: " + st.getPath());
    }
  }

  /** The ResourceManager ran the job as a MapReduce application (not the local job runner), and it succeeded. */
  private static void assertRanOnYarn(String name) throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(cluster.conf());
      yarn.start();
      List<ApplicationReport> apps = yarn.getApplications(Set.of("MAPREDUCE"),
          EnumSet.allOf(YarnApplicationState.class)).stream().filter(a -> a.getName().equals(name)).toList();
      assertEquals(1, apps.size(), "MAPREDUCE applications named '" + name + "': " + apps);
      ApplicationReport app = apps.get(0);
      assertEquals(YarnApplicationState.FINISHED, app.getYarnApplicationState(), app.toString());
      assertEquals(FinalApplicationStatus.SUCCEEDED, app.getFinalApplicationStatus(), app.getDiagnostics());
    }
  }

  static void assertSamePartition(GraphPartition a, GraphPartition b) {
    assertEquals(a.index(), b.index());
    GraphBlock x = a.block();
    GraphBlock y = b.block();
    assertArrayEquals(x.nodeIds(), y.nodeIds(), "nodes of partition " + a.index());
    assertArrayEquals(x.haloIds(), y.haloIds(), "halo of partition " + a.index());
    Csr cx = x.inEdges();
    Csr cy = y.inEdges();
    assertEquals(cx.numEdges(), cy.numEdges());
    assertArrayEquals(cx.rowPtr(), cy.rowPtr(), "in-edge rows of partition " + a.index());
    assertArrayEquals(java.util.Arrays.copyOf(cx.colIdx(), (int) cx.numEdges()),
        java.util.Arrays.copyOf(cy.colIdx(), (int) cy.numEdges()), "in-edge sources of partition " + a.index());
    assertArrayEquals(a.features().data(), b.features().data());
    assertArrayEquals(a.labels(), b.labels());
    assertArrayEquals(a.splits(), b.splits());
    assertEquals(a.stats(), b.stats());
  }
}
