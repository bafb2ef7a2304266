package org.yarngnn.app.cli;

import java.io.File;

/**
 * What every command decides before it reads its own options: who runs it ({@code --principal}, {@code --keytab})
 * and where ({@code --local}, or a cluster configuration found). The options every graph job shares are
 * GraphJobOptions' (graphworker).
 */
public final class JobOptions {
  private JobOptions() {}

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
