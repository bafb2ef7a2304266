package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.UsageException;

class RecoveryOptionsTest {
  private static final String[] JOB = {"--edges", "e.tsv", "--nodes", "n.tsv", "--model", "m", "--output", "o"};

  private static InferOptions parse(String... extra) {
    String[] args = new String[JOB.length + extra.length];
    System.arraycopy(JOB, 0, args, 0, JOB.length);
    System.arraycopy(extra, 0, args, JOB.length, extra.length);
    Configuration conf = new Configuration(false);
    // A cluster configuration, so that the job would run on YARN unless --local says otherwise.
    conf.set("yarn.resourcemanager.address", "rm:8032");
    return InferOptions.fromCommandLine(CommandLine.parse(InferOptions.optionSpec(), args, conf));
  }

  @Test
  void byDefaultNothingIsCheckpointedAndLossesAreRecomputedOnYarn() {
    RecoveryOptions local = parse("--local").recovery();
    assertFalse(local.checkpointLayers());
    assertEquals(3, local.maxWorkerFailures());
    RecoveryOptions yarn = parse().recovery();
    assertFalse(yarn.checkpointLayers(), "a fault-free job on YARN writes no checkpoints");
    assertEquals(3, yarn.maxWorkerFailures());
    assertNull(yarn.dir());
    assertFalse(yarn.replacesWorkers(), "not in a container yet");
    RecoveryOptions staged = yarn.inStaging(new Path("/s"));
    assertTrue(staged.replacesWorkers(), "a container job replaces lost workers without checkpoints");
    assertFalse(staged.writesCheckpoints());
    assertTrue(parse("--checkpoint", "layers").recovery().inStaging(new Path("/s")).writesCheckpoints());
    assertFalse(parse("--local", "--checkpoint", "layers").recovery().writesCheckpoints(),
        "threads are not replaced: nothing to checkpoint for");
  }

  @Test
  void explicitValuesAreTaken() {
    RecoveryOptions r = parse("--local", "--checkpoint", "layers", "--max-worker-failures", "7").recovery();
    assertTrue(r.checkpointLayers());
    assertEquals(7, r.maxWorkerFailures());
    RecoveryOptions none = parse("--checkpoint", "none", "--max-worker-failures", "0").recovery();
    assertFalse(none.checkpointLayers());
    assertEquals(0, none.maxWorkerFailures());
  }

  @Test
  void badValuesNameTheOption() {
    UsageException e = assertThrows(UsageException.class, () -> parse("--checkpoint", "epochs"));
    assertTrue(e.getMessage().contains("--checkpoint must be layers or none"), e.getMessage());
    e = assertThrows(UsageException.class, () -> parse("--max-worker-failures", "-1"));
    assertTrue(e.getMessage().contains("--max-worker-failures"), e.getMessage());
    e = assertThrows(UsageException.class, () -> parse("--max-worker-failures", "1001"));
    assertTrue(e.getMessage().contains("--max-worker-failures"), e.getMessage());
    e = assertThrows(UsageException.class, () -> parse("--max-worker-failures", "three"));
    assertTrue(e.getMessage().contains("max-worker-failures"), e.getMessage());
  }

  @Test
  void theJobConfigurationCarriesBothAndTheStagingGivesTheDirectory() {
    InferOptions o = parse("--local", "--checkpoint", "layers", "--max-worker-failures", "2");
    Configuration c = o.toConfiguration();
    assertEquals("layers", c.get("yarngnn.checkpoint"));
    assertEquals("2", c.get("yarngnn.max-worker-failures"));
    InferOptions back = InferOptions.fromConfiguration(c);
    assertEquals(o.recovery(), back.recovery());
    assertEquals(o, back);
    InferOptions staged = InferenceJobDriver.inStaging(back, new Path("hdfs://nn/user/u/.yarn-gnn/staging/app_1"));
    assertEquals("hdfs://nn/user/u/.yarn-gnn/staging/app_1/_checkpoints", staged.recovery().dir());
    assertTrue(staged.recovery().replacesWorkers());
    assertFalse(InferenceJobDriver.inStaging(parse("--max-worker-failures", "0"), new Path("/s")).recovery()
        .replacesWorkers(), "no losses allowed: nothing to replace");
    assertFalse(InferenceJobDriver.inStaging(parse("--checkpoint", "layers", "--max-worker-failures", "0"),
        new Path("/s")).recovery().writesCheckpoints(), "no losses allowed: nothing checkpointed");
  }
}
