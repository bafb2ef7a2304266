package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.e2e.cluster.MiniClusters;

/**
 * {@code topk} submitted to a MiniYARNCluster over a MiniDFSCluster (the harness of {@link InferOnYarnTest}): the
 * AM and two worker containers started from the shipped jar, tables and output on HDFS; the output equals the
 * brute force of {@link TopkLocalTest} on the same embeddings.
 */
class TopkOnYarnTest {
  static MiniClusters cluster;
  @TempDir static java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    cluster = MiniClusters.start("topk");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void twoWorkerContainersEqualTheBruteForce() throws Exception {
    TopkLocalTest data = new TopkLocalTest();
    data.dir = local;
    String emb = data.embeddings();
    FileSystem fs = cluster.fs();
    fs.copyFromLocalFile(new Path(new java.io.File(emb).toURI()), new Path("/data/emb"));
    CliRun run = InferOnYarnTest.cli(cluster, "topk", "--embeddings", "/data/emb", "--k", "7", "--output",
        "/out/topk", "--workers", "2", "--worker-memory", "512", "--candidate-block", "50");
    assertEquals(0, run.status(), run.toString());
    java.nio.file.Path copy = local.resolve("out-copy");
    fs.copyToLocalFile(new Path("/out/topk"), new Path(copy.toUri()));
    Set<Long> all = TopkLocalTest.all(data.ids);
    assertEquals(data.bruteForce(all, all, Set.of(), 7), data.readOutput(copy));
    // The ApplicationMaster's commit leaves its done mark for the client, which removes it once the job succeeded.
    assertEquals(List.of(), java.util.Arrays.stream(fs.listStatus(new Path("/out"))).map(f -> f.getPath().getName())
        .filter(n -> n.startsWith(".")).toList(), "nothing hidden beside the output");
  }
}
