package org.yarngnn.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.yarn.JobResult;
import org.yarngnn.app.yarn.JobSubmission;
import org.yarngnn.app.yarn.SelfTestDriver;
import org.yarngnn.app.yarn.StagingDir;
import org.yarngnn.app.yarn.YarnJobClient;

/**
 * The YARN runtime on a real MiniDFSCluster + MiniYARNCluster, with the shipped jar: the AM and worker containers
 * are separate JVMs that only see that jar and Hadoop's client jars.
 */
class YarnRuntimeClusterTest {
  private static MiniClusters cluster;

  @TempDir
  java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    cluster = MiniClusters.start("yarn-runtime");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private record Run(JobResult result, String printed) {}

  private Run run(JobSubmission submission) throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    JobResult r = new YarnJobClient(cluster.conf(), new PrintStream(buf, true, StandardCharsets.UTF_8)).run(submission);
    String printed = buf.toString(StandardCharsets.UTF_8);
    System.out.print(printed);
    return new Run(r, printed);
  }

  private void assertStagingDeleted(JobResult r) throws Exception {
    FileSystem fs = cluster.fs();
    Path staging = StagingDir.forApplication(cluster.conf(), fs, r.applicationId());
    assertFalse(fs.exists(staging), "staging dir left behind: " + staging);
  }

  @Test
  void twoWorkersWriteTheirFilesAndTheApplicationSucceeds() throws Exception {
    java.nio.file.Path extra = Files.writeString(local.resolve("extra.txt"), "shipped\n");
    java.nio.file.Path modelDir = Files.createDirectories(local.resolve("model"));
    Files.writeString(modelDir.resolve("model.json"), "{}\n");
    Path out = new Path("/selftest/ok");

    Run run = run(SelfTestDriver.submission(MiniClusters.shippedJar(), out.toString(), 2, 256, "ok",
        List.of(extra, modelDir)).build());

    JobResult r = run.result();
    assertTrue(r.succeeded(), "expected SUCCEEDED: " + r);
    FileSystem fs = cluster.fs();
    for (int i = 0; i < 2; i++) {
      Path f = new Path(out, "worker-" + i);
      assertTrue(fs.exists(f), "missing " + f);
      String text = new String(fs.open(f).readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(text.startsWith(i + " of 2 on "), text);
    }
    assertTrue(run.printed().contains("submitted " + r.applicationId()), run.printed());
    assertTrue(run.printed().contains("tracking URL"), run.printed());
    assertTrue(run.printed().contains("RUNNING"), run.printed());
    assertStagingDeleted(r);
  }

  @Test
  void aWorkerExitingNonZeroFailsTheApplicationAndStopsTheOther() throws Exception {
    Path out = new Path("/selftest/exit");
    long t0 = System.nanoTime();

    JobResult r = run(SelfTestDriver.submission(MiniClusters.shippedJar(), out.toString(), 2, 256, "exit",
        List.of()).build()).result();

    double seconds = (System.nanoTime() - t0) / 1e9;
    assertEquals(FinalApplicationStatus.FAILED, r.finalStatus(), r.toString());
    assertTrue(r.diagnostics().contains("selftest-worker #0"), r.diagnostics());
    assertTrue(r.diagnostics().contains("exit status 1"), r.diagnostics());
    // The container's own diagnostics carry the tail of the worker's stderr.
    assertTrue(r.diagnostics().contains("failing on purpose (mode exit)"), r.diagnostics());
    assertTrue(r.diagnostics().contains("stopped 1 other container"), r.diagnostics());
    FileSystem fs = cluster.fs();
    assertTrue(fs.exists(new Path(out, "started-1")), "worker 1 never started");
    assertFalse(fs.exists(new Path(out, "worker-1")), "worker 1 ran to the end instead of being stopped");
    // Half the stopped worker's 600 s sleep: it was stopped, not waited for, however loaded the machine.
    assertTrue(seconds < 300, "the stopped worker sleeps 600 s; the application took " + seconds + " s");
    assertStagingDeleted(r);
  }

  @Test
  void aKilledWorkerFailsTheApplication() throws Exception {
    Path out = new Path("/selftest/kill");

    JobResult r = run(SelfTestDriver.submission(MiniClusters.shippedJar(), out.toString(), 2, 256, "kill",
        List.of()).build()).result();

    assertEquals(FinalApplicationStatus.FAILED, r.finalStatus(), r.toString());
    assertTrue(r.diagnostics().contains("selftest-worker #0"), r.diagnostics());
    assertTrue(r.diagnostics().contains("exit status 137"), r.diagnostics());
    assertTrue(r.diagnostics().contains("stopped 1 other container"), r.diagnostics());
    assertFalse(cluster.fs().exists(new Path(out, "worker-1")));
    assertStagingDeleted(r);
  }
}
