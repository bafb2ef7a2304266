package org.yarngnn.app.yarn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * What to run on YARN: the shipped jar, extra files, and the ApplicationMaster (its main class, arguments,
 * resources and environment). Immutable; build with {@link #builder()}. Usually the AM is {@link AmMain} running a
 * {@link JobDriver}: {@code builder().driver(MyDriver.class.getName(), args)}.
 */
public final class JobSubmission {
  public static final String APPLICATION_TYPE = "YARN-GNN";

  private final String appName;
  private final String queue;
  private final int amMemoryMb;
  private final int amVcores;
  private final String amJavaOpts;
  private final Path jar;
  private final List<Path> files;
  private final Configuration jobConf;
  private final String amMainClass;
  private final List<String> amArgs;
  private final Map<String, String> environment;
  private final int maxAttempts;
  private final List<String> accessedPaths;

  private JobSubmission(Builder b) {
    this.appName = b.appName;
    this.queue = b.queue;
    this.amMemoryMb = b.amMemoryMb;
    this.amVcores = b.amVcores;
    this.amJavaOpts = b.amJavaOpts != null ? b.amJavaOpts : LaunchContexts.defaultJavaOpts(b.amMemoryMb);
    this.jar = Objects.requireNonNull(b.jar, "jar");
    this.files = List.copyOf(b.files);
    this.jobConf = b.jobConf == null ? null : new Configuration(b.jobConf);
    this.amMainClass = b.amMainClass;
    this.amArgs = List.copyOf(b.amArgs);
    this.environment = Collections.unmodifiableMap(new LinkedHashMap<>(b.environment));
    this.maxAttempts = b.maxAttempts;
    this.accessedPaths = List.copyOf(b.accessedPaths);
    Set<String> names = new LinkedHashSet<>();
    names.add(LaunchContexts.JAR_NAME);
    names.add(LaunchContexts.CONF_DIR);
    names.add(LaunchContexts.JOB_XML);
    for (Path f : files) {
      if (f.getName().startsWith("_") || !names.add(f.getName())) {
        throw new IllegalArgumentException("cannot ship " + f + ": its name clashes with another shipped file or "
            + "starts with '_' (reserved for the runtime)");
      }
    }
    LaunchContexts.checkShellSafe(amArgs);
    LaunchContexts.checkShellSafe(List.of(amJavaOpts));
  }

  public static Builder builder() {
    return new Builder();
  }

  public String appName() {
    return appName;
  }

  public String queue() {
    return queue;
  }

  public int amMemoryMb() {
    return amMemoryMb;
  }

  public int amVcores() {
    return amVcores;
  }

  public String amJavaOpts() {
    return amJavaOpts;
  }

  /** The application jar; localized in every container as {@value LaunchContexts#JAR_NAME}. */
  public Path jar() {
    return jar;
  }

  /** Extra files or directories, localized under their own names in the AM's and every worker's directory. */
  public List<Path> files() {
    return files;
  }

  /**
   * The job's settings, staged as {@value LaunchContexts#JOB_XML} and localized in the AM's and every worker's
   * directory; null when the job has none.
   */
  public Configuration jobConf() {
    return jobConf == null ? null : new Configuration(jobConf);
  }

  public String amMainClass() {
    return amMainClass;
  }

  public List<String> amArgs() {
    return amArgs;
  }

  /** Extra environment of the AM container (workers get their own through {@link ContainerSpec}). */
  public Map<String, String> environment() {
    return environment;
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * The paths the job reads or writes besides the shipped ones (tables, model, output): on a secure cluster the
   * client gets a delegation token for each one's FileSystem ({@link DelegationTokens}).
   */
  public List<String> accessedPaths() {
    return accessedPaths;
  }

  public static final class Builder {
    private String appName = "yarn-gnn";
    private String queue = "default";
    private int amMemoryMb = 1024;
    private int amVcores = 1;
    private String amJavaOpts;
    private Path jar;
    private final List<Path> files = new ArrayList<>();
    private Configuration jobConf;
    private String amMainClass = AmMain.class.getName();
    private List<String> amArgs = List.of();
    private final Map<String, String> environment = new LinkedHashMap<>();
    /** 0: {@link YarnJobClient#AM_ATTEMPTS_KEY}, default 2 (a second attempt after an AM crash). */
    private int maxAttempts = 0;
    private final List<String> accessedPaths = new ArrayList<>();

    private Builder() {}

    public Builder appName(String v) {
      this.appName = Objects.requireNonNull(v);
      return this;
    }

    public Builder queue(String v) {
      this.queue = Objects.requireNonNull(v);
      return this;
    }

    public Builder amMemoryMb(int v) {
      if (v < 64) {
        throw new IllegalArgumentException("AM memory must be at least 64 MB: " + v);
      }
      this.amMemoryMb = v;
      return this;
    }

    public Builder amVcores(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("AM vcores must be at least 1: " + v);
      }
      this.amVcores = v;
      return this;
    }

    /** JVM options of the AM; default {@code -Xmx} at 75% of its memory. */
    public Builder amJavaOpts(String v) {
      this.amJavaOpts = v;
      return this;
    }

    /** A jar on any Hadoop FileSystem; a path without a scheme is taken from the local file system. */
    public Builder jar(Path v) {
      this.jar = LaunchContexts.localIfUnqualified(v);
      return this;
    }

    public Builder jar(java.nio.file.Path v) {
      return jar(localPath(v));
    }

    /** Ships a file or directory; a path without a scheme is taken from the local file system. */
    public Builder file(Path v) {
      files.add(LaunchContexts.localIfUnqualified(v));
      return this;
    }

    public Builder file(java.nio.file.Path v) {
      return file(localPath(v));
    }

    // Not toUri(): a directory's URI ends with '/', and Hadoop's Path.getName() of it is empty.
    private static Path localPath(java.nio.file.Path v) {
      return new Path("file", null, v.toAbsolutePath().normalize().toString());
    }

    /**
     * The job's settings (written as {@value LaunchContexts#JOB_XML}: keep it to the job's own keys, e.g. a
     * {@code new Configuration(false)}), so that no command line has to carry them.
     */
    public Builder jobConf(Configuration v) {
      this.jobConf = v;
      return this;
    }

    public Builder amMainClass(String v) {
      this.amMainClass = Objects.requireNonNull(v);
      return this;
    }

    public Builder amArgs(List<String> v) {
      this.amArgs = List.copyOf(v);
      return this;
    }

    /** The usual AM: {@link AmMain} running {@code driverClass} (a {@link JobDriver}) with {@code args}. */
    public Builder driver(String driverClass, List<String> args) {
      List<String> all = new ArrayList<>();
      all.add(driverClass);
      all.addAll(args);
      this.amMainClass = AmMain.class.getName();
      this.amArgs = all;
      return this;
    }

    public Builder env(String name, String value) {
      environment.put(Objects.requireNonNull(name), Objects.requireNonNull(value));
      return this;
    }

    public Builder maxAttempts(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("max attempts must be at least 1: " + v);
      }
      this.maxAttempts = v;
      return this;
    }

    /** Paths (or comma-separated table lists) the job touches, see {@link #accessedPaths()}; nulls are skipped. */
    public Builder accesses(String... paths) {
      for (String p : paths) {
        if (p != null && !p.isEmpty()) {
          accessedPaths.add(p);
        }
      }
      return this;
    }

    public JobSubmission build() {
      return new JobSubmission(this);
    }
  }
}
