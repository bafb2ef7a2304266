package org.yarngnn.e2e.cluster;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.yarngnn.app.yarn.LaunchContexts;

/**
 * A MiniDFSCluster (1 datanode) and a MiniYARNCluster (2 NodeManagers by default) in this JVM, set up so that
 * applications built from the shipped jar run on it: containers get JAVA_HOME and Hadoop's client jars
 * ({@code yarn-app/target/hadoop-classpath.txt}) but never our classes, which must come from the shipped jar.
 * Start once per test class ({@code @BeforeAll}); {@link #conf()} is a client configuration; {@link #confDir()}
 * holds core-site.xml, hdfs-site.xml and yarn-site.xml for other processes ({@code HADOOP_CONF_DIR}).
 */
public final class MiniClusters implements AutoCloseable {
  /** Where yarn-app's build output is: the shipped jar and hadoop-classpath.txt. Set by tests/pom.xml. */
  public static final String APP_BUILD_DIR_PROPERTY = "yarngnn.app.build.dir";

  private final MiniDFSCluster dfs;
  private final MiniYARNCluster yarn;
  private final File confDir;
  private final Configuration conf;

  private MiniClusters(MiniDFSCluster dfs, MiniYARNCluster yarn, File confDir) {
    this.dfs = dfs;
    this.yarn = yarn;
    this.confDir = confDir;
    this.conf = new YarnConfiguration(yarn.getConfig());
    // MiniDFSCluster's rack mapping is a test class that the shipped configuration must not name.
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
        "org.apache.hadoop.net.ScriptBasedMapping");
  }

  /** Starts both clusters under {@code <build dir>/minicluster/<name>}. */
  public static MiniClusters start(String name) throws IOException {
    return start(name, c -> { });
  }

  /** As {@link #start(String)}, with {@code settings} applied last to the cluster's configuration. */
  public static MiniClusters start(String name, Consumer<? super YarnConfiguration> settings) throws IOException {
    File build = new File(System.getProperty("yarngnn.build.dir", "target"));
    return start(new File(build, "minicluster/" + name), 2, settings);
  }

  public static MiniClusters start(File baseDir, int nodeManagers) throws IOException {
    return start(baseDir, nodeManagers, c -> { });
  }

  /**
   * Starts both clusters under {@code baseDir}; {@code settings} may add to (or override) the configuration the
   * ResourceManager and NodeManagers start with, e.g. an auxiliary service.
   */
  public static MiniClusters start(File baseDir, int nodeManagers, Consumer<? super YarnConfiguration> settings)
      throws IOException {
    FileUtil.fullyDelete(baseDir);
    // MiniYARNCluster's work dirs follow test.build.data (default target/test/data under the working directory).
    System.setProperty("test.build.data", new File(baseDir, "data").getAbsolutePath());
    File confDir = new File(baseDir, "conf");
    Configuration hdfsConf = new Configuration();
    hdfsConf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(baseDir, "dfs").getAbsolutePath());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(hdfsConf).numDataNodes(1).format(true).build();
    MiniYARNCluster yarn = null;
    try {
      dfs.waitActive();
      yarn = startYarn(baseDir.getName(), nodeManagers, dfs.getConfiguration(0), settings);
      MiniClusters clusters = new MiniClusters(dfs, yarn, confDir);
      clusters.writeConfDir();
      return clusters;
    } catch (RuntimeException | IOException e) {
      if (yarn != null) {
        yarn.stop();
      }
      dfs.shutdown();
      throw e;
    }
  }

  /**
   * What a MiniYARNCluster here needs on top of {@code base} (the HDFS configuration): a capacity-scheduler
   * queue, small allocations, no vmem check, a fast stop, and containers that get JAVA_HOME and Hadoop's client
   * jars but never our classes.
   */
  public static YarnConfiguration yarnSettings(Configuration base) throws IOException {
    YarnConfiguration yconf = new YarnConfiguration(base);
    yconf.set("yarn.scheduler.capacity.root.queues", "default");
    yconf.set("yarn.scheduler.capacity.root.default.capacity", "100");
    yconf.set("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
    yconf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    yconf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    // The harness's containers run with fault injection on (TestHooks): an administrator's setting, which no
    // job's configuration can reach.
    yconf.set(YarnConfiguration.NM_ADMIN_USER_ENV,
        YarnConfiguration.DEFAULT_NM_ADMIN_USER_ENV + "," + org.yarngnn.app.runtime.TestHooks.ENV + "=1");
    yconf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99f);
    yconf.setInt(YarnConfiguration.NM_PMEM_MB, 4096);
    // Fast stop: without these a stop waits out log retention and kill delays (~34 s).
    yconf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 1);
    yconf.setLong(YarnConfiguration.NM_SLEEP_DELAY_BEFORE_SIGKILL_MS, 100);
    yconf.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 500);
    yconf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 250);
    yconf.set(YarnConfiguration.YARN_APPLICATION_CLASSPATH, hadoopClasspath());
    yconf.set(LaunchContexts.JAVA_HOME_KEY, System.getProperty("java.home"));
    yconf.setLong("yarngnn.client.poll-ms", 250);
    return yconf;
  }

  /**
   * Starts the YARN cluster on freshly chosen ResourceManager ports; again (3 tries in all) when another process
   * took one of them between the choice and the bind.
   */
  private static MiniYARNCluster startYarn(String name, int nodeManagers, Configuration dfsConf,
      Consumer<? super YarnConfiguration> settings) throws IOException {
    for (int attempt = 1; ; attempt++) {
      YarnConfiguration yconf = yarnSettings(dfsConf);
      fixResourceManagerPorts(yconf);
      settings.accept(yconf);
      MiniYARNCluster yarn = new MiniYARNCluster(name, nodeManagers, 1, 1);
      try {
        yarn.init(yconf);
        yarn.start();
        return yarn;
      } catch (RuntimeException e) {
        yarn.stop();
        if (attempt >= 3 || !portTaken(e)) {
          throw e;
        }
        System.err.println("MiniClusters: a ResourceManager port was taken meanwhile (" + e.getMessage()
            + "); choosing others");
      }
    }
  }

  private static boolean portTaken(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (t instanceof java.net.BindException || m.contains("Address already in use") || m.contains("Port in use")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Free ports for the ResourceManager's addresses, its web app among them. Left to itself MiniYARNCluster binds
   * them ephemerally and its configuration keeps port 0 for the web app, so the tracking URLs it hands out
   * ({@code http://localhost:0/proxy/<app>/}) open nothing; with fixed ports the web app, and the web proxy in it,
   * listen where the configuration says. The NodeManagers stay ephemeral (MiniYARNCluster binds them at 0 in
   * every mode). The ports are found free by binding them and closing; another process could take one in between
   * ({@link #startYarn} then tries other ports).
   */
  static void fixResourceManagerPorts(YarnConfiguration yconf) throws IOException {
    String[] keys = {YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS,
        YarnConfiguration.RM_SCHEDULER_ADDRESS, YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
        YarnConfiguration.RM_WEBAPP_ADDRESS};
    java.net.ServerSocket[] held = new java.net.ServerSocket[keys.length];
    try {
      for (int i = 0; i < keys.length; i++) {
        held[i] = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("localhost"));
        yconf.set(keys[i], "localhost:" + held[i].getLocalPort());
      }
    } finally {
      for (java.net.ServerSocket s : held) {
        if (s != null) {
          s.close();
        }
      }
    }
    yconf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
  }

  /** The ResourceManager's web app, where its web proxy serves the applications' tracking URLs. */
  public String webAppAddress() {
    return "http://" + conf.get(YarnConfiguration.RM_WEBAPP_ADDRESS);
  }

  /** A fresh client configuration (HDFS default file system, the ResourceManager's addresses). */
  public Configuration conf() {
    return new YarnConfiguration(conf);
  }

  public FileSystem fs() throws IOException {
    return dfs.getFileSystem();
  }

  public File confDir() {
    return confDir;
  }

  public MiniYARNCluster yarn() {
    return yarn;
  }

  /** The shipped jar, {@code yarn-app/target/yarn-gnn-<version>.jar}; fails clearly when it was not built. */
  public static Path shippedJar() {
    File dir = appBuildDir();
    File[] jars = dir.listFiles((d, n) -> n.matches("yarn-gnn-\\d.*\\.jar") && !n.contains("original"));
    if (jars == null || jars.length != 1) {
      throw new IllegalStateException("no single shipped jar yarn-gnn-<version>.jar in " + dir.getAbsolutePath()
          + " (found " + (jars == null ? "none" : Arrays.toString(jars)) + "): run mvn -q -B -DskipTests package"
          + " (or let mvn verify package yarn-app before the tests module)");
    }
    return new Path(jars[0].getAbsoluteFile().toURI());
  }

  /** Hadoop's client jars as recorded by yarn-app's build, comma-separated for yarn.application.classpath. */
  static String hadoopClasspath() throws IOException {
    File f = new File(appBuildDir(), "hadoop-classpath.txt");
    if (!f.isFile()) {
      throw new IllegalStateException(f.getAbsolutePath() + " is missing: run mvn -q -B -DskipTests package");
    }
    String cp = Files.readString(f.toPath(), StandardCharsets.UTF_8).trim();
    return Arrays.stream(cp.split(File.pathSeparator)).filter(s -> !s.isEmpty()).collect(Collectors.joining(","));
  }

  static File appBuildDir() {
    return new File(System.getProperty(APP_BUILD_DIR_PROPERTY, "../yarn-app/target")).getAbsoluteFile();
  }

  private void writeConfDir() throws IOException {
    if (!confDir.mkdirs() && !confDir.isDirectory()) {
      throw new IOException("cannot create " + confDir);
    }
    for (String name : new String[] {"core-site.xml", "hdfs-site.xml", "yarn-site.xml"}) {
      try (OutputStream out = new FileOutputStream(new File(confDir, name))) {
        conf.writeXml(out);
      }
    }
  }

  @Override
  public void close() {
    try {
      yarn.stop();
    } finally {
      dfs.shutdown();
    }
  }
}
