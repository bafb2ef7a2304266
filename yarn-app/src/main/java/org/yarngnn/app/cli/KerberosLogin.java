package org.yarngnn.app.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import javax.security.auth.kerberos.KerberosPrincipal;
import javax.security.auth.kerberos.KeyTab;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * {@code --principal P --keytab FILE}: the client logs in to Kerberos from a keytab before it touches the cluster,
 * as Spark's options of the same names, so a scheduler (Oozie, Airflow, cron) needs no {@code kinit}. Only the
 * client uses the keytab: it obtains delegation tokens for the job, and the ApplicationMaster and the containers
 * run on those. Without the options the client uses the ticket cache, as every Hadoop client does.
 */
public final class KerberosLogin {
  private KerberosLogin() {}

  /** Adds the two options to a command's spec. */
  public static OptionSpec options(OptionSpec spec) {
    return spec
        .value("principal", "P", "Kerberos principal to log in as (with --keytab) instead of the ticket cache")
        .value("keytab", "FILE", "keytab of --principal, read only by this client");
  }

  /**
   * Logs in when the command has and was given the options. A principal without a keytab or the other way round,
   * or a keytab that cannot be read or holds no key of the principal, is refused (exit 2); on a cluster without
   * Kerberos the options are checked and then ignored, with a warning on {@code err}.
   */
  public static void loginIfAsked(CommandLine cl, PrintStream err) throws IOException {
    if (!cl.declares("principal")) {
      return;
    }
    String principal = cl.get("principal");
    String keytab = cl.get("keytab");
    if (principal == null && keytab == null) {
      return;
    }
    if (principal == null || principal.isEmpty()) {
      throw new UsageException("--keytab needs --principal (the principal whose keys it holds)");
    }
    if (keytab == null || keytab.isEmpty()) {
      throw new UsageException("--principal " + principal + " needs --keytab FILE");
    }
    File file = new File(keytab);
    if (!file.isFile() || !file.canRead()) {
      throw new UsageException("--keytab " + keytab + ": " + (file.exists() ? "not a readable file" : "no such file"));
    }
    UserGroupInformation.setConfiguration(cl.conf());
    if (!UserGroupInformation.isSecurityEnabled()) {
      err.println("yarn-gnn: warning: hadoop.security.authentication is not kerberos: --principal and --keytab are"
          + " ignored");
      return;
    }
    checkKeyFor(principal, file);
    UserGroupInformation.loginUserFromKeytab(principal, file.getAbsolutePath());
  }

  /** Refuses a keytab that has no key for the principal here, with the file's name, rather than a JAAS trace. */
  private static void checkKeyFor(String principal, File file) {
    KerberosPrincipal p;
    try {
      p = new KerberosPrincipal(principal);
    } catch (IllegalArgumentException noRealm) {
      return; // no default realm known to this JVM: the login below says why it fails
    }
    KeyTab tab = KeyTab.getInstance(file);
    if (!tab.exists()) {
      throw new UsageException("--keytab " + file + ": not a keytab");
    }
    if (tab.getKeys(p).length == 0) {
      throw new UsageException("--keytab " + file + " holds no key of --principal " + p.getName());
    }
  }
}
