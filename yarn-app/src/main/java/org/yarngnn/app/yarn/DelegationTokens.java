package org.yarngnn.app.yarn;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.client.util.YarnClientUtils;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.io.table.TablePaths;

/**
 * The delegation tokens a job's containers use on a Kerberized cluster: one for every distinct FileSystem the
 * job's paths name (tables on other namespaces, the model, the output, staging), obtained by the client with its
 * Kerberos login, as MapReduce's {@code TokenCache.obtainTokensForNamenodes} does. The renewer is the
 * ResourceManager's principal, so the RM renews them while the application runs and cancels them when it ends;
 * the ApplicationMaster hands the same tokens to its worker containers. Neither ever sees a keytab.
 */
public final class DelegationTokens {
  private DelegationTokens() {}

  /** What was obtained: the credentials and, for the client's log, the FileSystems they are for. */
  public record Obtained(Credentials credentials, List<URI> fileSystems, String renewer) {
    public String describe() {
      return credentials.numberOfTokens() + " delegation token(s) for " + fileSystems + " (renewer " + renewer + ")";
    }
  }

  /**
   * Tokens for every FileSystem named by {@code paths} (each may be a comma-separated table list; local paths
   * need none); empty credentials when security is off.
   */
  public static Obtained forPaths(Configuration conf, Collection<String> paths) throws IOException {
    Credentials creds = new Credentials();
    if (!UserGroupInformation.isSecurityEnabled()) {
      return new Obtained(creds, List.of(), null);
    }
    String renewer = renewer(conf);
    Map<URI, FileSystem> distinct = new LinkedHashMap<>();
    for (String list : paths) {
      for (String p : TablePaths.split(list)) {
        FileSystem fs = new Path(p).getFileSystem(conf);
        distinct.putIfAbsent(fs.getUri(), fs);
      }
    }
    List<URI> named = new ArrayList<>();
    for (Map.Entry<URI, FileSystem> e : distinct.entrySet()) {
      // None for the local disk; a FileSystem of several (viewfs) adds one for each of its namespaces.
      Token<?>[] added = e.getValue().addDelegationTokens(renewer, creds);
      if (added != null && added.length > 0) {
        named.add(e.getKey());
      }
    }
    return new Obtained(creds, List.copyOf(named), renewer);
  }

  /**
   * The ResourceManager's Kerberos principal with {@code _HOST} resolved, as YARN's own clients name the renewer
   * of the tokens they hand to the RM.
   */
  public static String renewer(Configuration conf) throws IOException {
    String principal = YarnClientUtils.getRmPrincipal(conf);
    if (principal == null || principal.isEmpty()) {
      throw new IOException("security is on but " + YarnConfiguration.RM_PRINCIPAL + " is not set: the "
          + "ResourceManager's principal renews the job's delegation tokens");
    }
    return principal;
  }
}
