package org.yarngnn.app.yarn;

import java.util.Map;

/**
 * Environment variables the runtime sets in the ApplicationMaster and every worker container, and typed
 * accessors for the code running there (a worker learns who it is from these, not from its arguments).
 */
public final class ContainerEnv {
  /** The staging directory of the application on the cluster FileSystem (shipped jar, files, status). */
  public static final String STAGING_DIR = "YARNGNN_STAGING_DIR";
  /** The role a worker was launched with, e.g. {@code graph-worker}. */
  public static final String ROLE = "YARNGNN_ROLE";
  /** The worker's index within its launch call, 0..count-1. */
  public static final String INDEX = "YARNGNN_INDEX";
  /** How many workers the launch call asked for. */
  public static final String COUNT = "YARNGNN_COUNT";
  /** The host the ApplicationMaster runs on (where a driver's own server would listen). */
  public static final String AM_HOST = "YARNGNN_AM_HOST";
  /** The application id, e.g. {@code application_1700000000000_0001}. */
  public static final String APP_ID = "YARNGNN_APP_ID";

  private ContainerEnv() {}

  public static String require(String name) {
    return require(System.getenv(), name);
  }

  static String require(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null || v.isEmpty()) {
      throw new IllegalStateException("environment variable " + name + " is not set: not running in a yarn-gnn container");
    }
    return v;
  }

  public static int index() {
    return Integer.parseInt(require(INDEX));
  }

  public static int count() {
    return Integer.parseInt(require(COUNT));
  }

  public static String role() {
    return require(ROLE);
  }
}
