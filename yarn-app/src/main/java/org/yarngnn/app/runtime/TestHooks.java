package org.yarngnn.app.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The one gate of fault injection. The hooks ({@code yarngnn.test.*} keys: a worker halted, stalled, paused or
 * slowed at a phase, a tensor worker or the ApplicationMaster halted) travel with the job's configuration, but act
 * only in a JVM the test harness started with hooks on: the system property {@value #PROPERTY}{@code =true} (the
 * surefire JVMs, the fault sweep's client) or the environment variable {@value #ENV}{@code =1} (containers of the
 * harness's clusters, through the NodeManagers' {@code yarn.nodemanager.admin-env}, which only a cluster's
 * administrator sets). Anywhere else a hook key reads as unset, and the CLI refuses one a user gives
 * ({@link #refuseUnlessEnabled}): no {@code -D}, {@code -conf} or site file can halt or stall a real job.
 */
public final class TestHooks {
  public static final String PROPERTY = "yarngnn.test-hooks";
  public static final String ENV = "YARNGNN_TEST_HOOKS";
  public static final String KEY_PREFIX = "yarngnn.test.";

  private TestHooks() {}

  /** Whether this JVM was started with hooks on. */
  public static boolean enabled() {
    return Boolean.getBoolean(PROPERTY) || "1".equals(System.getenv(ENV));
  }

  /** The hook {@code key} of {@code conf}, trimmed; null when unset or when this JVM has hooks off. */
  public static String get(Configuration conf, String key) {
    return enabled() ? conf.getTrimmed(key) : null;
  }

  /** As {@link #get}, a number; {@code otherwise} when unset or off. */
  public static long getLong(Configuration conf, String key, long otherwise) {
    return enabled() ? conf.getLong(key, otherwise) : otherwise;
  }

  /**
   * The hook keys {@code conf} holds (sorted) when this JVM has hooks off, for the CLI to refuse with exit 2;
   * empty when hooks are on or none is set. {@code internal} keys carry a hook inside a job's settings and are
   * refused too.
   */
  public static List<String> refusedKeys(Configuration conf, String... internal) {
    List<String> keys = new ArrayList<>();
    if (enabled()) {
      return keys;
    }
    for (Map.Entry<String, String> e : conf) {
      if (e.getKey().startsWith(KEY_PREFIX) || List.of(internal).contains(e.getKey())) {
        keys.add(e.getKey());
      }
    }
    keys.sort(null);
    return keys;
  }
}
