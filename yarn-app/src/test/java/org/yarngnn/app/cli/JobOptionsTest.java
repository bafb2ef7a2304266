package org.yarngnn.app.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.CommandOptions;

/** Where a job runs: locally without a cluster configuration, on YARN when one names a ResourceManager (HA too). */
class JobOptionsTest {
  private static CommandLine line(Configuration conf, String... args) {
    return CommandLine.parse(CommandOptions.declare(JobOptions.kerberos(new OptionSpec("t", "")),
        GraphJobOptions.JOB), args, conf);
  }

  @Test
  void aClusterConfigurationSendsTheJobToYarn() {
    assumeTrue(System.getenv("HADOOP_CONF_DIR") == null && System.getenv("YARN_CONF_DIR") == null,
        "a cluster configuration in the environment decides first");
    Configuration none = new Configuration(false);
    assertTrue(JobOptions.runLocally(line(none)));
    Configuration rm = new Configuration(false);
    rm.set("yarn.resourcemanager.address", "rm.example.com:8032");
    assertFalse(JobOptions.runLocally(line(rm)));
    assertTrue(JobOptions.runLocally(line(rm, "--local")));
    // ResourceManager HA names its addresses per id (yarn.resourcemanager.address.rm1), never the plain key.
    Configuration ha = new Configuration(false);
    ha.setBoolean("yarn.resourcemanager.ha.enabled", true);
    ha.set("yarn.resourcemanager.ha.rm-ids", "rm1,rm2");
    ha.set("yarn.resourcemanager.address.rm1", "rm1.example.com:8032");
    assertFalse(JobOptions.runLocally(line(ha)));
  }
}
