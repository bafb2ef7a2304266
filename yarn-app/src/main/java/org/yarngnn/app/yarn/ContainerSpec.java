package org.yarngnn.app.yarn;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link ContainerPool#launch(ContainerSpec)} starts: {@code count} containers of one role, each running
 * {@code java <javaOpts> --add-modules jdk.incubator.vector <mainClass> <args>} with the shipped jar and files in
 * its working directory. Each learns its index from {@link ContainerEnv}. Immutable; build with {@link #builder}.
 */
public final class ContainerSpec {
  private final String role;
  private final int count;
  private final int memoryMb;
  private final int vcores;
  private final String mainClass;
  private final List<String> args;
  private final String javaOpts;
  private final Map<String, String> environment;
  private final List<String> preferredHosts;
  private final boolean expendable;

  private ContainerSpec(Builder b) {
    this.expendable = b.expendable;
    this.role = b.role;
    this.count = b.count;
    this.memoryMb = b.memoryMb;
    this.vcores = b.vcores;
    this.mainClass = Objects.requireNonNull(b.mainClass, "mainClass");
    this.args = List.copyOf(b.args);
    this.javaOpts = b.javaOpts != null ? b.javaOpts : LaunchContexts.defaultJavaOpts(b.memoryMb);
    this.environment = Map.copyOf(b.environment);
    this.preferredHosts = List.copyOf(b.preferredHosts);
    LaunchContexts.checkShellSafe(args);
    LaunchContexts.checkShellSafe(List.of(javaOpts));
  }

  /** A spec of {@code count} containers of {@code role} running {@code mainClass}, 1 GB and 1 vcore each. */
  public static Builder builder(String role, int count, String mainClass) {
    return new Builder(role, count, mainClass);
  }

  public String role() {
    return role;
  }

  public int count() {
    return count;
  }

  public int memoryMb() {
    return memoryMb;
  }

  public int vcores() {
    return vcores;
  }

  public String mainClass() {
    return mainClass;
  }

  public List<String> args() {
    return args;
  }

  public String javaOpts() {
    return javaOpts;
  }

  public Map<String, String> environment() {
    return environment;
  }

  /** Hosts to place the containers on when possible (locality is relaxed: other hosts are used if busy). */
  /**
   * Whether the job survives this container's failure (a stateless tensor worker, replaced by its pool): its
   * exit is reported to listeners but does not fail the {@link ContainerPool}.
   */
  public boolean expendable() {
    return expendable;
  }

  public List<String> preferredHosts() {
    return preferredHosts;
  }

  public static final class Builder {
    private final String role;
    private final int count;
    private int memoryMb = 1024;
    private int vcores = 1;
    private final String mainClass;
    private List<String> args = List.of();
    private String javaOpts;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private List<String> preferredHosts = List.of();
    private boolean expendable;

    private Builder(String role, int count, String mainClass) {
      if (role == null || role.isEmpty()) {
        throw new IllegalArgumentException("role must be named");
      }
      if (count < 1) {
        throw new IllegalArgumentException("count must be at least 1: " + count);
      }
      this.role = role;
      this.count = count;
      this.mainClass = mainClass;
    }

    public Builder memoryMb(int v) {
      if (v < 64) {
        throw new IllegalArgumentException("container memory must be at least 64 MB: " + v);
      }
      this.memoryMb = v;
      return this;
    }

    public Builder vcores(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("vcores must be at least 1: " + v);
      }
      this.vcores = v;
      return this;
    }

    public Builder args(List<String> v) {
      this.args = List.copyOf(v);
      return this;
    }

    /** JVM options; default {@code -Xmx} at 75% of the container's memory. */
    public Builder javaOpts(String v) {
      this.javaOpts = v;
      return this;
    }

    public Builder env(String name, String value) {
      environment.put(Objects.requireNonNull(name), Objects.requireNonNull(value));
      return this;
    }

    public Builder preferredHosts(List<String> v) {
      this.preferredHosts = List.copyOf(v);
      return this;
    }

    public Builder expendable(boolean v) {
      expendable = v;
      return this;
    }

    public ContainerSpec build() {
      return new ContainerSpec(this);
    }
  }
}
