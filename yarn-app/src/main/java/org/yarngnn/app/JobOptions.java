package org.yarngnn.app;

import java.io.File;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.OptionValues;

/** The options every job command shares (docs/commands.md, "Options every job shares") and where a job runs. */
public final class JobOptions {
  private JobOptions() {}

  /** Adds the options of every job command ({@code --local}, {@code --workers}, the containers, the output). */
  public static OptionSpec common(OptionSpec spec) {
    return OptionValues.declare(kerberos(spec), GraphJobOptions.JOB);
  }

  /** Adds {@code --principal} and {@code --keytab}. */
  public static OptionSpec kerberos(OptionSpec spec) {
    return KerberosLogin.options(spec);
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
