package org.yarngnn.e2e.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;

/**
 * The unshaded MapReduce framework as a real cluster installs it, for MapReduce jobs on {@link MiniClusters}:
 * {@code hadoop-client-minicluster} has no MRAppMaster, YarnChild or ShuffleHandler. The jars are resolved by the
 * {@code tests/mr-framework} module, apart from the test classpath (whose shaded Hadoop they would clash with),
 * and listed in the file named by the system property {@value #CLASSPATH_FILE_PROPERTY}. The NodeManagers load
 * the shuffle service from them in its own class loader ({@link IsolatedShuffleService}); a job's containers get
 * them as the cluster's Hadoop installation, plus the job jar.
 */
public final class MapReduceFramework {
  /** A file holding the framework's jars, path-separated (maven-dependency-plugin build-classpath). */
  public static final String CLASSPATH_FILE_PROPERTY = "yarngnn.mr.framework.classpath";

  /**
   * Hadoop's own classes come from the NodeManager (they cross the service boundary: Configuration, records);
   * the MapReduce packages and the libraries they use (Netty) from the framework's jars.
   */
  private static final String SHUFFLE_SYSTEM_CLASSES = "java.,javax.,jdk.,sun.,org.w3c.dom.,org.xml.sax.,"
      + "org.apache.commons.logging.,org.apache.log4j.,org.slf4j.,"
      + "-org.apache.hadoop.mapred.,-org.apache.hadoop.mapreduce.,org.apache.hadoop.";

  private final List<String> jars;

  private MapReduceFramework(List<String> jars) {
    this.jars = jars;
  }

  /** The framework recorded by the build; fails clearly when it was not built. */
  public static MapReduceFramework load() throws IOException {
    String prop = System.getProperty(CLASSPATH_FILE_PROPERTY);
    File f = new File(prop != null ? prop : "mr-framework/target/mr-framework-classpath.txt").getAbsoluteFile();
    if (!f.isFile()) {
      throw new IllegalStateException(f + " is missing: run mvn -q -B -DskipTests install (it builds the module"
          + " tests/mr-framework)");
    }
    String cp = Files.readString(f.toPath(), StandardCharsets.UTF_8).trim();
    List<String> jars = Arrays.stream(cp.split(File.pathSeparator)).filter(s -> !s.isEmpty()).toList();
    if (jars.stream().noneMatch(j -> new File(j).getName().startsWith("hadoop-mapreduce-client-app-"))) {
      throw new IllegalStateException(f + " lists no hadoop-mapreduce-client-app jar");
    }
    return new MapReduceFramework(jars);
  }

  /**
   * Cluster settings: the NodeManagers' {@code mapreduce_shuffle} auxiliary service (reducers fetch map outputs
   * from it) loaded from the framework's jars by {@link IsolatedShuffleService}, on a free port per NodeManager
   * (they share this host).
   */
  public void configureCluster(Configuration yarnConf) {
    String service = IsolatedShuffleService.SERVICE;
    String[] services = yarnConf.getTrimmedStrings("yarn.nodemanager.aux-services");
    if (!Arrays.asList(services).contains(service)) {
      String[] more = Arrays.copyOf(services, services.length + 1);
      more[services.length] = service;
      yarnConf.setStrings("yarn.nodemanager.aux-services", more);
    }
    yarnConf.setClass("yarn.nodemanager.aux-services." + service + ".class", IsolatedShuffleService.class,
        AuxiliaryService.class);
    yarnConf.set(IsolatedShuffleService.CLASSPATH_KEY, String.join(File.pathSeparator, jars));
    yarnConf.set(IsolatedShuffleService.SYSTEM_CLASSES_KEY, SHUFFLE_SYSTEM_CLASSES);
    yarnConf.setInt("mapreduce.shuffle.port", 0);
  }

  /**
   * Job settings for MapReduce on YARN: the containers' classpath is the framework (Hadoop's jars as
   * {@code yarn.application.classpath}, the MapReduce ones as {@code mapreduce.application.classpath}) and the
   * job jar, never the test's classpath; small containers; no JobHistory server (the client takes the final
   * state from the ResourceManager).
   */
  public void configureJob(Configuration job, Path jobJar) {
    job.set("mapreduce.framework.name", "yarn");
    job.set("mapreduce.job.jar", jobJar.toString());
    List<String> mr = jars.stream().filter(j -> new File(j).getName().startsWith("hadoop-mapreduce-")).toList();
    List<String> rest = jars.stream().filter(j -> !mr.contains(j)).toList();
    job.set("yarn.application.classpath", String.join(",", rest));
    job.set("mapreduce.application.classpath", String.join(",", mr));
    // MRApps adds the client JVM's class path for a minicluster: that is the shaded test classpath.
    job.setBoolean("yarn.is.minicluster", false);
    String javaHome = "JAVA_HOME=" + System.getProperty("java.home");
    job.set("yarn.app.mapreduce.am.env", javaHome);
    job.set("mapreduce.map.env", javaHome);
    job.set("mapreduce.reduce.env", javaHome);
    // Small, quick-starting JVMs: the tasks are tiny and the machine has two cores.
    String jvm = " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    job.setInt("yarn.app.mapreduce.am.resource.mb", 512);
    job.set("yarn.app.mapreduce.am.command-opts", "-Xmx384m" + jvm);
    job.setInt("mapreduce.map.memory.mb", 384);
    job.setInt("mapreduce.reduce.memory.mb", 384);
    job.set("mapreduce.map.java.opts", "-Xmx256m" + jvm);
    job.set("mapreduce.reduce.java.opts", "-Xmx256m" + jvm);
    job.setInt("mapreduce.task.io.sort.mb", 16);
    // Latency, not throughput: the defaults poll every 1-5 s.
    job.setInt("mapreduce.client.completion.pollinterval", 200);
    job.setInt("mapreduce.client.progressmonitor.pollinterval", 200);
    job.setInt("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", 250);
    // Reducers start their JVMs while the maps run.
    job.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 0f);
    job.set("mapreduce.jobhistory.address", "");
  }
}
