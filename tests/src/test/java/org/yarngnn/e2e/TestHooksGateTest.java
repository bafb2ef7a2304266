package org.yarngnn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.runtime.TestHooks;

/**
 * Fault injection is the harness's, never a user's: in a JVM started without hooks on (as every user's is) a
 * {@code yarngnn.test.*} key, or the job setting that carries a hook to the workers, is refused with exit 2 before
 * anything runs, and a hook key in a job's configuration reads as unset; with hooks on, the same key halts the job.
 */
class TestHooksGateTest {
  @TempDir Path dir;

  @AfterEach
  void hooksOnAgain() {
    System.setProperty(TestHooks.PROPERTY, "true");
  }

  private List<String> infer(String... extra) throws Exception {
    Path[] t = RunLimitsTest.tinyJob(dir);
    List<String> args = new java.util.ArrayList<>(List.of("infer", "--local", "--workers", "2", "--edges",
        t[0].toString(), "--nodes", t[1].toString(), "--model", t[2].toString(), "--output",
        dir.resolve("out").toString()));
    args.addAll(List.of(extra));
    return args;
  }

  @Test
  void aUsersHookKeysAreRefusedAndNothingRuns() throws Exception {
    System.clearProperty(TestHooks.PROPERTY);
    for (String hook : List.of("yarngnn.test.halt-worker=0@job", "yarngnn.test.halt-worker=stall:0@job",
        "yarngnn.test.halt-am-at=layer", "yarngnn.job.halt-at=0@job")) {
      CliRun run = CliRun.of(infer("-D", hook).toArray(new String[0]));
      assertEquals(2, run.status(), run::toString);
      String key = hook.substring(0, hook.indexOf('='));
      assertTrue(run.err().contains("-D " + key + " is a test hook, not an option"), run::toString);
      assertFalse(Files.exists(dir.resolve("out")), "nothing written: " + run);
    }
    // A hook in a -conf file (a workflow's shared settings) is refused the same way.
    Path conf = dir.resolve("hooks.xml");
    Files.writeString(conf, "<configuration><property><name>yarngnn.test.slow-worker</name><value>0:100</value>"
        + "</property></configuration>");
    List<String> args = infer();
    args.add(1, "-conf");
    args.add(2, conf.toString());
    CliRun run = CliRun.of(args.toArray(new String[0]));
    assertEquals(2, run.status(), run::toString);
    assertTrue(run.err().contains("yarngnn.test.slow-worker is a test hook"), run::toString);
  }

  @Test
  void withHooksOffAHookInAJobsSettingsReadsAsUnset() {
    Configuration conf = new Configuration(false);
    conf.set("yarngnn.test.halt-tensor-worker-after", "5");
    assertEquals("5", TestHooks.get(conf, "yarngnn.test.halt-tensor-worker-after"), "the harness has them on");
    System.clearProperty(TestHooks.PROPERTY);
    assertNull(TestHooks.get(conf, "yarngnn.test.halt-tensor-worker-after"));
    assertEquals(-1, TestHooks.getLong(conf, "yarngnn.test.halt-tensor-worker-after", -1));
    assertEquals(List.of("yarngnn.test.halt-tensor-worker-after"), TestHooks.refusedKeys(conf));
  }

  @Test
  void withHooksOnAMalformedHookIsRefusedBeforeAnythingRuns() throws Exception {
    CliRun run = CliRun.of(infer("-D", "yarngnn.test.halt-worker=0-job").toArray(new String[0]));
    assertEquals(2, run.status(), run::toString);
    assertTrue(run.err().contains("-D yarngnn.test.halt-worker must be"), run::toString);
    assertFalse(Files.exists(dir.resolve("out")), "nothing written: " + run);
  }

  @Test
  void withHooksOnTheSameKeyHaltsTheJob() throws Exception {
    CliRun run = CliRun.of(infer("-D", "yarngnn.test.halt-worker=0@job").toArray(new String[0]));
    assertEquals(1, run.status(), run::toString);
    assertTrue(run.err().contains("halted by yarngnn.test.halt-worker"), run::toString);
  }
}
