package org.yarngnn.app.yarn;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What YARN's {@code AmIpFilter} does for an AM's web app, for the job page's JDK server: a request that does not
 * come from a web proxy host is sent (302) to the proxy's URL of the same path, so users pass the proxy, which
 * authenticates them on a secure cluster, rather than reading the AM's port directly. Proxy hosts: YARN's
 * ({@code yarn.web-proxy.address}, else the ResourceManagers' web apps), every address each name resolves to,
 * resolved again at most every 5 minutes when a request comes from elsewhere (as AmIpFilter does).
 */
final class ProxyOnlyAccess {
  private static final long RESOLVE_EVERY_NANOS = TimeUnit.MINUTES.toNanos(5);

  private final List<String> proxyHostsAndPorts;
  private final String proxyBase;
  private Set<InetAddress> addresses = Set.of();
  private long resolvedAt;

  /**
   * {@code proxyHostsAndPorts}: {@code host:port} of each proxy; {@code proxyBase}: the URL of this application
   * under the first one ({@code http://host:port/proxy/<app>}), where others are sent.
   */
  ProxyOnlyAccess(List<String> proxyHostsAndPorts, String proxyBase) {
    this.proxyHostsAndPorts = List.copyOf(proxyHostsAndPorts);
    this.proxyBase = proxyBase.endsWith("/") ? proxyBase.substring(0, proxyBase.length() - 1) : proxyBase;
    resolve();
  }

  /** Whether a request from {@code remote} may be answered (it comes through a proxy). */
  synchronized boolean allows(InetAddress remote) {
    if (addresses.contains(remote)) {
      return true;
    }
    if (System.nanoTime() - resolvedAt > RESOLVE_EVERY_NANOS) {
      resolve();
    }
    return addresses.contains(remote);
  }

  /** Where a request for {@code pathAndQuery} (from the root of the page) is sent instead. */
  String redirect(String pathAndQuery) {
    return proxyBase + (pathAndQuery.startsWith("/") ? pathAndQuery : "/" + pathAndQuery);
  }

  private void resolve() {
    Set<InetAddress> found = new HashSet<>();
    for (String hp : proxyHostsAndPorts) {
      int colon = hp.lastIndexOf(':');
      String host = colon > 0 ? hp.substring(0, colon) : hp;
      try {
        for (InetAddress a : InetAddress.getAllByName(host)) {
          found.add(a);
        }
      } catch (UnknownHostException e) {
        ApplicationMaster.log("web proxy host " + host + " does not resolve: " + e.getMessage());
      }
    }
    addresses = Set.copyOf(found);
    resolvedAt = System.nanoTime();
  }
}
