package org.yarngnn.app.yarn;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.api.records.URL;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * What the AM container and the worker containers have in common: the localized staging directory, the
 * classpath (configuration first, then the jar, then the cluster's Hadoop classpath) and the java command line.
 */
public final class LaunchContexts {
  /** The application jar's name in every container's working directory. */
  public static final String JAR_NAME = "yarn-gnn.jar";
  /** The client's configuration, localized as a directory and put first on every classpath. */
  public static final String CONF_DIR = "yarngnn-conf";
  /**
   * The job's own settings (a driver's options, e.g. {@code infer}'s), staged when the submission has them and
   * localized beside the jar in the AM's and every worker's working directory, as MapReduce ships its job.xml.
   */
  public static final String JOB_XML = "job.xml";
  /**
   * Where a JDK lives on the NodeManagers when their own JAVA_HOME is not right (a MiniYARNCluster has none):
   * set as JAVA_HOME in every container.
   */
  public static final String JAVA_HOME_KEY = "yarngnn.container.java-home";
  /** JVM options added to every container of ours: the compute kernels use the Vector API. */
  public static final String VECTOR_FLAGS = "--add-modules jdk.incubator.vector";

  private LaunchContexts() {}

  /**
   * Transparent huge pages for the heap where the kernel leaves them to {@code madvise} (its usual default): a
   * worker touches gigabytes of fresh heap, and on a virtual machine every 4 KiB first touch and TLB miss goes
   * through the hypervisor's nested page tables. Measured on a 2-vcore VM, 1M-node gcn {@code infer --local}
   * (2.8 GB heap), medians of 4 interleaved pairs: 11.9 -> 8.5 s (user CPU 13.2 -> 10.6 s). Under THP {@code never}
   * it does nothing, under {@code always} it is already so.
   */
  public static final String HUGE_PAGES = "-XX:+UseTransparentHugePages";
  /**
   * Containers from this size on ask for huge pages. A small one gains nothing and loses a little: Cora on 1-3
   * workers of 512 MB took 61.2 and 68.0 s with them, 58.5 and 58.7 s without (InferOnYarnTest, run one by one).
   */
  public static final int HUGE_PAGES_MIN_MB = 2048;

  /**
   * G1 without concurrent marking, for inference's graph workers (as {@code scripts/lib/launch.sh} runs a local
   * {@code infer}): their garbage is large primitive arrays, which every young collection frees without marking,
   * while each concurrent cycle, started again and again by those allocations as the heap grows, adds three
   * safepoints, and a safepoint that comes while a thread zeroes a large new array stops every other thread until
   * the zeroing ends (0.5-0.8 s for the first layer's messages on a VM). Measured on the 1M-node bench graph, 4
   * interleaved pairs per model and worker count, every pair faster (docs/benchmarks.md). A heap that does fill
   * still gets G1's full collection. Nor does the JVM stop them every second for its periodic "Cleanup" safepoint
   * ({@code GuaranteedSafepointInterval=0}, a diagnostic flag): that one waited on the same zeroing, 0.3-0.6 s,
   * and what it cleans up waits for the next collection's safepoint instead.
   */
  public static final String INFER_GC = "-XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=100"
      + " -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0";

  /**
   * The vector kernels ({@code org.yarngnn.compute.kernel}) compiled by C2 after a twentieth of the JIT's usual
   * invocations and loop iterations. Until C2 has them, Vector API code runs as plain objects (an allocation per
   * operation, tens of times slower), and a one-shot job pays for every row that runs so: the kernel warm-up's
   * rows, which share the cores with the reading phases, and a first layer that comes before C2 (on a loaded JIT
   * queue the aggregation kernel reached C2 only 7.6 s into a 10 s job). Measured on the 1M-node bench graph
   * (docs/benchmarks.md): sage on one worker 9.58 -> 9.02 s median wall and 17.2 -> 16.1 CPU seconds, gcn on two
   * workers 10.87 -> 9.51 s and 19.7 -> 17.5. {@code quiet}: the JVM would otherwise print the command on stdout.
   * The NodeManager's shell sees the word unquoted, and leaves its {@code *} alone: no file is so named.
   */
  public static final String KERNEL_JIT = "-XX:CompileCommand=quiet"
      + " -XX:CompileCommand=CompileThresholdScaling,org.yarngnn.compute.kernel.*::*,0.05";

  /** {@code -Xmx} at 75% of the container: the rest is metaspace, thread stacks and direct buffers. */
  public static String defaultJavaOpts(int memoryMb) {
    return "-Xmx" + Math.max(32, memoryMb * 3 / 4) + "m";
  }

  /**
   * The JVM options of a container that computes (graph and tensor workers): the default heap, huge pages from
   * {@link #HUGE_PAGES_MIN_MB} on, the kernels' early compilation ({@link #KERNEL_JIT}) and compute threads that
   * follow the container's vcores, not the node's cores.
   */
  public static String computeJavaOpts(int memoryMb, int vcores) {
    String extra = new Configuration().getTrimmed(WORKER_JAVA_OPTS_KEY, "");
    return defaultJavaOpts(memoryMb) + (memoryMb >= HUGE_PAGES_MIN_MB ? " " + HUGE_PAGES : "") + " " + KERNEL_JIT
        + " -Djava.util.concurrent.ForkJoinPool.common.parallelism=" + Math.max(1, vcores)
        + (extra.isEmpty() ? "" : " " + extra);
  }

  /**
   * JVM options appended to every graph and tensor worker's (as {@code mapreduce.map.java.opts} is to a map
   * task's): a GC log, a profiler agent, JFR ({@code -XX:StartFlightRecording=filename=...}), set with
   * {@code -D} on the client, which ships its configuration to the ApplicationMaster.
   */
  public static final String WORKER_JAVA_OPTS_KEY = "yarngnn.worker.java-opts";

  static Path localIfUnqualified(Path p) {
    return p.toUri().getScheme() == null ? new Path("file", null, new java.io.File(p.toString()).getAbsolutePath()) : p;
  }

  /**
   * NodeManagers run the command inside {@code bash -c "..."}: arguments are single-quoted, so they may not hold
   * characters the outer double quotes would interpret, nor a single quote.
   */
  static void checkShellSafe(List<String> args) {
    for (String a : args) {
      for (int i = 0; i < a.length(); i++) {
        char c = a.charAt(i);
        if (c == '"' || c == '\'' || c == '$' || c == '`' || c == '\\' || c == '\n' || c == '\r') {
          throw new IllegalArgumentException("container argument " + a + " holds the character " + c
              + ", which cannot pass through the NodeManager's launch script; pass it in a shipped file");
        }
      }
    }
  }

  /** The container's classpath in YARN's cross-platform form ({@code <CPS>}, {@code {{PWD}}}). */
  public static String classpath(Configuration conf) {
    String pwd = Environment.PWD.$$();
    StringBuilder cp = new StringBuilder(pwd).append('/').append(CONF_DIR);
    cp.append(ApplicationConstants.CLASS_PATH_SEPARATOR).append(pwd).append("/*");
    for (String e : conf.getTrimmedStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
        YarnConfiguration.DEFAULT_YARN_CROSS_PLATFORM_APPLICATION_CLASSPATH)) {
      cp.append(ApplicationConstants.CLASS_PATH_SEPARATOR).append(e);
    }
    return cp.toString();
  }

  /** CLASSPATH, JAVA_HOME when configured, then the caller's variables (which win). */
  public static Map<String, String> environment(Configuration conf, Map<String, String> extra) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put(Environment.CLASSPATH.name(), classpath(conf));
    String javaHome = conf.getTrimmed(JAVA_HOME_KEY);
    if (javaHome != null && !javaHome.isEmpty()) {
      env.put(Environment.JAVA_HOME.name(), javaHome);
    }
    env.putAll(extra);
    return env;
  }

  /**
   * The localized {@value #JOB_XML} of this container's working directory, alone (no Hadoop defaults, not the
   * shipped cluster configuration).
   */
  public static Configuration jobConf() throws IOException {
    return jobConf(new java.io.File(JOB_XML).getAbsoluteFile());
  }

  /** The job settings file {@code file}, alone. */
  public static Configuration jobConf(java.io.File file) throws IOException {
    if (!file.isFile()) {
      throw new IOException("no " + file + ": the job's settings are missing from the container's working directory");
    }
    Configuration conf = new Configuration(false);
    conf.addResource(new Path(file.toURI()));
    conf.size(); // loads it now, while the file is known to be there
    return conf;
  }

  /** The AM container's command line. */
  public static List<String> command(JobSubmission s) {
    return javaCommand(s.amJavaOpts(), s.amMainClass(), s.amArgs());
  }

  /** A worker container's command line. */
  public static List<String> command(ContainerSpec spec) {
    return javaCommand(spec.javaOpts(), spec.mainClass(), spec.args());
  }

  /** {@code java <opts> --add-modules jdk.incubator.vector <mainClass> 'arg'...}, logs to the container's log dir. */
  public static List<String> javaCommand(String javaOpts, String mainClass, List<String> args) {
    checkShellSafe(args);
    StringBuilder cmd = new StringBuilder(Environment.JAVA_HOME.$$()).append("/bin/java");
    if (!javaOpts.isBlank()) {
      cmd.append(' ').append(javaOpts.trim());
    }
    // Warnings of Hadoop, Netty and Parquet go to a log file beside stdout and stderr (see log4j.properties).
    cmd.append(" -Dyarngnn.log.file=").append(ApplicationConstants.LOG_DIR_EXPANSION_VAR).append("/yarn-gnn.log");
    cmd.append(' ').append(VECTOR_FLAGS).append(' ').append(mainClass);
    for (String a : args) {
      cmd.append(" '").append(a).append('\'');
    }
    cmd.append(" 1>").append(ApplicationConstants.LOG_DIR_EXPANSION_VAR).append("/stdout");
    cmd.append(" 2>").append(ApplicationConstants.LOG_DIR_EXPANSION_VAR).append("/stderr");
    return List.of(cmd.toString());
  }

  /**
   * Every entry of the staging directory whose name does not start with {@code _} (the runtime's own files), as
   * application-private resources under the same names, and the cached jar it points at ({@link JarCache}).
   */
  public static Map<String, LocalResource> localResources(FileSystem fs, Path stagingDir) throws IOException {
    Map<String, LocalResource> resources = new LinkedHashMap<>();
    for (FileStatus st : fs.listStatus(stagingDir)) {
      String name = st.getPath().getName();
      if (name.startsWith("_") || name.startsWith(".")) {
        continue;
      }
      resources.put(name, LocalResource.newInstance(URL.fromPath(fs.makeQualified(st.getPath())),
          LocalResourceType.FILE, LocalResourceVisibility.APPLICATION, st.getLen(), st.getModificationTime()));
    }
    Path jar = JarCache.pointedFrom(fs, stagingDir);
    if (jar != null) {
      // Private: the NodeManager keeps it for the user's later jobs (see JarCache).
      FileStatus st = fs.getFileStatus(jar);
      resources.put(JAR_NAME, LocalResource.newInstance(URL.fromPath(fs.makeQualified(st.getPath())),
          LocalResourceType.FILE, LocalResourceVisibility.PRIVATE, st.getLen(), st.getModificationTime()));
    }
    return resources;
  }
}
