package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yarngnn.e2e.cluster.MiniClusters;
import org.yarngnn.io.EdgeTable;
import org.yarngnn.io.EdgeTableWriter;
import org.yarngnn.io.InputException;
import org.yarngnn.io.NodeTable;
import org.yarngnn.io.NodeTableWriter;
import org.yarngnn.io.TableFormat;
import org.yarngnn.io.TableReadOptions;
import org.yarngnn.partition.GraphBuildOptions;
import org.yarngnn.partition.GraphBuilder;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.PartitionJob;
import org.yarngnn.partition.PartitionJobOptions;
import org.yarngnn.partition.PartitionedGraph;
import org.yarngnn.partition.PartitioningStats;

/**
 * The partition MapReduce job on a real MiniDFSCluster + MiniYARNCluster: the MR ApplicationMaster and tasks run
 * in NodeManager containers from the shipped jar, tables and output on HDFS.
 */
class PartitionJobClusterTest {
  private static MiniClusters cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = MiniClusters.start("partition-job");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The cluster's configuration set up for MapReduce on YARN with the shipped jar. */
  private static Configuration mrConf() {
    Configuration c = cluster.conf();
    c.set("mapreduce.framework.name", "yarn");
    c.set("mapreduce.job.jar", MiniClusters.shippedJar().toString());
    // The MR ApplicationMaster and task classes come from hadoop-client-minicluster here (a cluster has its own).
    String cp = Arrays.stream(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))
        .split(File.pathSeparator))
        .filter(s -> s.contains("hadoop-client") || s.contains("bcp") || s.contains("reload4j")
            || s.contains("slf4j"))
        .collect(Collectors.joining(","));
    c.set("mapreduce.application.classpath", cp);
    String javaHome = "JAVA_HOME=" + System.getProperty("java.home");
    c.set("yarn.app.mapreduce.am.env", javaHome);
    c.set("mapreduce.map.env", javaHome);
    c.set("mapreduce.reduce.env", javaHome);
    c.setInt("yarn.app.mapreduce.am.resource.mb", 512);
    c.set("yarn.app.mapreduce.am.command-opts", "-Xmx400m");
    c.setInt("mapreduce.map.memory.mb", 384);
    c.setInt("mapreduce.reduce.memory.mb", 384);
    c.set("mapreduce.map.java.opts", "-Xmx300m");
    c.set("mapreduce.reduce.java.opts", "-Xmx300m");
    c.setInt("mapreduce.task.io.sort.mb", 32);
    c.set("yarn.app.mapreduce.am.staging-dir", "/tmp/hadoop-yarn/staging");
    return c;
  }

  @Test
  void partitionsOnYarnAndReadsBackFromHdfs() throws Exception {
    Configuration conf = mrConf();
    FileSystem fs = cluster.fs();
    Path nodes = new Path("/data/nodes.parquet");
    Path edges = new Path("/data/edges");
    int n = 200;
    long[] ids = new long[n];
    try (NodeTableWriter w = NodeTableWriter.create(conf, fs.makeQualified(nodes), TableFormat.PARQUET, 3, true)) {
      for (int i = 0; i < n; i++) {
        ids[i] = (long) i * 7919 * 1_000_003L + 17;
        w.write(ids[i], new float[] {i, i * 0.5f, -i}, 0, i % 5, (byte) (i % 4));
      }
    }
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(4);
    for (int f = 0; f < 2; f++) {
      try (EdgeTableWriter w = EdgeTableWriter.create(conf, fs.makeQualified(new Path(edges, "part-" + f + ".parquet")),
          TableFormat.PARQUET, false)) {
        for (int e = 0; e < 600; e++) {
          w.write(ids[rnd.nextInt(n)], ids[rnd.nextInt(n)]);
        }
      }
    }
    Path out = fs.makeQualified(new Path("/graphs/p3"));
    PartitioningStats stats = PartitionJob.run(conf, PartitionJobOptions.builder().edges(fs.makeQualified(edges))
        .nodes(fs.makeQualified(nodes)).output(out).partitions(3).build());
    assertEquals(1200, stats.edges());
    assertEquals(n, stats.nodes());
    assertTrue(fs.exists(new Path(out, "_SUCCESS")));

    PartitionedGraph g = PartitionedGraph.open(conf, out);
    List<GraphPartition> expected = GraphBuilder.buildPartitions(
        EdgeTable.open(conf, fs.makeQualified(edges), TableReadOptions.defaults()),
        NodeTable.open(conf, fs.makeQualified(nodes), TableReadOptions.defaults()), 3,
        GraphBuildOptions.builder().build());
    for (int p = 0; p < 3; p++) {
      GraphPartition a = expected.get(p);
      GraphPartition b = g.loadPartition(p);
      assertArrayEquals(a.block().nodeIds(), b.block().nodeIds());
      assertArrayEquals(a.block().haloIds(), b.block().haloIds());
      assertArrayEquals(a.block().inEdges().rowPtr(), b.block().inEdges().rowPtr());
      assertArrayEquals(a.block().inEdges().colIdx(), b.block().inEdges().colIdx());
      assertArrayEquals(a.features().data(), b.features().data());
      assertArrayEquals(a.labels(), b.labels());
    }

    // A dangling endpoint: refused naming the row, nothing written at the output path.
    try (EdgeTableWriter w = EdgeTableWriter.create(conf, fs.makeQualified(new Path("/bad/edges.parquet")),
        TableFormat.PARQUET, false)) {
      w.write(ids[0], ids[1]);
      w.write(ids[2], 42);
    }
    Path badOut = fs.makeQualified(new Path("/graphs/bad"));
    InputException e = assertThrows(InputException.class, () -> PartitionJob.run(conf, PartitionJobOptions.builder()
        .edges(fs.makeQualified(new Path("/bad/edges.parquet"))).nodes(fs.makeQualified(nodes)).output(badOut)
        .partitions(2).build()));
    assertTrue(e.getMessage().matches(".*edges\\.parquet:2: dst 42 has no row in the nodes table.*"), e.getMessage());
    assertFalse(fs.exists(badOut));
  }
}
