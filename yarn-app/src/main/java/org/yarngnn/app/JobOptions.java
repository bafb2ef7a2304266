package org.yarngnn.app;

import java.io.File;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;

/** The options every job command shares (CONTRACT.md "Common options") and where a job runs. */
public final class JobOptions {
  private JobOptions() {}

  public static OptionSpec common(OptionSpec spec) {
    return KerberosLogin.options(spec)
        .flag("local", "run in this JVM (workers as threads); the default when no cluster configuration is found")
        .value("workers", "N", "graph workers (default 1 locally)")
        .value("worker-memory", "MB", "memory per worker container")
        .value("worker-vcores", "N", "vcores per worker container")
        .value("queue", "Q", "YARN queue")
        .value("name", "NAME", "YARN application name")
        .flag("overwrite", "replace an existing output directory")
        .value("output-format", "parquet|orc", "output table format (default parquet)")
        .value("seed", "S", "seed of the neighbour sampler (default 0)");
  }

  /**
   * True when the job runs in this JVM: {@code --local}, or no cluster configuration is found (no yarn-site.xml
   * under HADOOP_CONF_DIR / YARN_CONF_DIR, none on the classpath, none given with -conf).
   */
  public static boolean runLocally(CommandLine cl) {
    if (cl.flag("local")) {
      return true;
    }
    for (String env : new String[] {"YARN_CONF_DIR", "HADOOP_CONF_DIR"}) {
      String dir = System.getenv(env);
      if (dir != null && new File(dir, "yarn-site.xml").isFile()) {
        return false;
      }
    }
    // yarn-site.xml on the classpath (as `yarn jar` puts it) or given with -conf: a ResourceManager is named,
    // or ResourceManager HA is on (it names rm1, rm2... in yarn.resourcemanager.address.<id> instead).
    org.apache.hadoop.yarn.conf.YarnConfiguration yc = new org.apache.hadoop.yarn.conf.YarnConfiguration(cl.conf());
    if (yc.getBoolean("yarn.resourcemanager.ha.enabled", false)) {
      return false;
    }
    String rm = yc.get("yarn.resourcemanager.address");
    return rm == null || rm.startsWith("0.0.0.0");
  }
}
