package org.yarngnn.app.graphworker;

import org.yarngnn.app.runtime.ReplaceableWorkers;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.yarngnn.app.yarn.ContainerEnv;
import org.yarngnn.app.yarn.ContainerExit;
import org.yarngnn.app.yarn.ContainerHandle;
import org.yarngnn.app.yarn.ContainerPool;
import org.yarngnn.app.yarn.ContainerSpec;
import org.yarngnn.app.yarn.LaunchContexts;

/**
 * Graph workers of any role as YARN containers running the role's {@code mainClass}, launched by the
 * ApplicationMaster's container pool. Made replaceable, the containers are expendable to the pool (a lost one does
 * not fail it): each exit that is not a success nor a stop by the AM (preempted, lost node, killed, non-zero
 * status) is reported as a {@link ReplaceableWorkers.Loss} of that worker's index and attempt, and
 * {@link #relaunch} starts one container with the same index ({@value ATTEMPT_ENV} telling it which attempt it
 * is).
 */
public final class ContainerWorkers implements ReplaceableWorkers {
  static final String ROLE = "graph-worker";
  /** Which start of its index a graph-worker container is: absent or 0 for the first, higher for a replacement. */
  public static final String ATTEMPT_ENV = "YARNGNN_ATTEMPT";

  private final ContainerPool pool;
  private final int memoryMb;
  private final int vcores;
  private final List<String> preferredHosts;
  private final String mainClass;
  /** JVM options the role adds to the computed heap and GC settings ("" for none). */
  private final String roleJavaOpts;
  private final boolean replaceable;
  /** Which set of restartable workers this is (0 first; {@value #ATTEMPT_ENV} tells its containers). */
  private final int set;
  private final CompletableFuture<String> failure = new CompletableFuture<>();
  private final ConcurrentLinkedQueue<Loss> losses = new ConcurrentLinkedQueue<>();
  /** This set's containers: the pool's exit listeners hear every container, also an earlier set's. */
  private final java.util.Set<ContainerHandle> mine = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private volatile boolean replacing;
  private String driverHost;
  private int driverPort;
  private int workers;

  /** Graph-worker containers whose JVMs run {@code mainClass} (a role's entry point). */
  public ContainerWorkers(ContainerPool pool, int memoryMb, int vcores, List<String> preferredHosts,
      String mainClass) {
    this(pool, memoryMb, vcores, preferredHosts, mainClass, "", false, 0);
  }

  /**
   * As above, the JVMs started with {@code roleJavaOpts} too; made {@code replaceable}, a lost container is a
   * {@link ReplaceableWorkers.Loss} the driver replaces ({@link org.yarngnn.app.runtime.WorkerRecovery}).
   */
  public ContainerWorkers(ContainerPool pool, int memoryMb, int vcores, List<String> preferredHosts,
      String mainClass, String roleJavaOpts, boolean replaceable) {
    this(pool, memoryMb, vcores, preferredHosts, mainClass, roleJavaOpts, replaceable, 0);
  }

  private ContainerWorkers(ContainerPool pool, int memoryMb, int vcores, List<String> preferredHosts,
      String mainClass, String roleJavaOpts, boolean replaceable, int set) {
    this.set = set;
    this.mainClass = mainClass;
    this.roleJavaOpts = roleJavaOpts;
    this.pool = pool;
    this.memoryMb = memoryMb;
    this.vcores = vcores;
    this.preferredHosts = preferredHosts;
    this.replaceable = replaceable;
    pool.failure().thenAccept(e -> failure.complete(e.getMessage()));
    if (replaceable) {
      pool.addExitListener(this::exited);
    }
  }

  /**
   * Training's graph workers: expendable to the pool, a loss completes {@link #failure()} (so the driver's round
   * ends naming it) without failing the application, and {@link #stopAll()} stops them so the job may launch a
   * new set (training restarts from its last checkpoint).
   */
  public static ContainerWorkers restartable(ContainerPool pool, int memoryMb, int vcores,
      List<String> preferredHosts, String mainClass, int set) {
    return new ContainerWorkers(pool, memoryMb, vcores, preferredHosts, mainClass, "", true, set);
  }

  /** Stops this job's graph-worker containers, leaving the pool open for other launches. */
  public void stopAll() {
    pool.stopRole(ROLE);
  }

  @Override
  public void launch(String host, int port, int workers) {
    this.driverHost = host;
    this.driverPort = port;
    this.workers = workers;
    ContainerSpec.Builder b = builder(host, port, workers, memoryMb, vcores, preferredHosts, mainClass, roleJavaOpts)
        .expendable(replaceable);
    if (set > 0) {
      b.env(ATTEMPT_ENV, Integer.toString(set));
    }
    mine.addAll(pool.launch(b.build()));
  }

  /** One container per index of {@code indices}: the others were taken over from an earlier AM attempt. */
  @Override
  public void launch(String host, int port, int workers, int[] indices) {
    this.driverHost = host;
    this.driverPort = port;
    this.workers = workers;
    for (int w : indices) {
      mine.addAll(pool.launch(one(w).build()));
    }
  }

  @Override
  public void relaunch(int worker, int attempt) {
    if (!replaceable || driverHost == null) {
      throw new IllegalStateException("graph workers of this job are not replaced");
    }
    mine.addAll(pool.launch(one(worker).env(ATTEMPT_ENV, Integer.toString(attempt)).build()));
  }

  /** One container, with worker index {@code worker} (the pool's own index of a one-container launch is 0). */
  private ContainerSpec.Builder one(int worker) {
    return builder(driverHost, driverPort, 1, memoryMb, vcores, preferredHosts, mainClass, roleJavaOpts)
        .expendable(replaceable).env(ContainerEnv.INDEX, Integer.toString(worker))
        .env(ContainerEnv.COUNT, Integer.toString(workers));
  }

  private void exited(ContainerHandle h, ContainerExit exit) {
    if (!mine.contains(h) || exit.succeeded() || exit.stoppedByAm()) {
      return;
    }
    String index = h.spec().environment().get(ContainerEnv.INDEX);
    String attempt = h.spec().environment().get(ATTEMPT_ENV);
    Loss loss = new Loss(index == null ? h.index() : Integer.parseInt(index),
        attempt == null ? 0 : Integer.parseInt(attempt), h + " exited with status " + exit.exitStatus()
        + (exit.diagnostics().isEmpty() ? "" : ": " + firstLine(exit.diagnostics())));
    if (replacing) {
      losses.add(loss);
    } else {
      failure.complete(loss.reason());
    }
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  @Override
  public void replaceLosses() {
    replacing = true;
  }

  @Override
  public Loss pollLoss() {
    return losses.poll();
  }

  /** The containers: the job's options come from the localized job.xml, the command line names the driver. */
  public static ContainerSpec spec(String host, int port, int workers, int memoryMb, int vcores,
      List<String> preferredHosts, String mainClass, String roleJavaOpts) {
    return builder(host, port, workers, memoryMb, vcores, preferredHosts, mainClass, roleJavaOpts).build();
  }

  private static ContainerSpec.Builder builder(String host, int port, int workers, int memoryMb, int vcores,
      List<String> preferredHosts, String mainClass, String roleJavaOpts) {
    String opts = LaunchContexts.computeJavaOpts(memoryMb, vcores)
        + (roleJavaOpts.isEmpty() ? "" : " " + roleJavaOpts);
    return ContainerSpec.builder(ROLE, workers, mainClass)
        .memoryMb(memoryMb).vcores(vcores).javaOpts(opts)
        .args(List.of(host, Integer.toString(port)))
        .preferredHosts(preferredHosts);
  }

  @Override
  public CompletableFuture<String> failure() {
    return failure;
  }

  @Override
  public void close() {
    pool.stopAll();
  }

  /**
   * Hosts that hold blocks of a partitioned graph's files: the locality hint for the worker containers (YARN
   * relaxes it when those hosts are busy).
   */
  public static List<String> partitionHosts(org.apache.hadoop.conf.Configuration conf,
      org.apache.hadoop.fs.Path graph) {
    java.util.Set<String> hosts = new java.util.TreeSet<>();
    try {
      org.apache.hadoop.fs.FileSystem fs = graph.getFileSystem(conf);
      org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> it = fs.listFiles(graph, true);
      while (it.hasNext()) {
        for (org.apache.hadoop.fs.BlockLocation b : it.next().getBlockLocations()) {
          hosts.addAll(java.util.Arrays.asList(b.getHosts()));
        }
      }
    } catch (java.io.IOException e) {
      System.err.println("yarn-gnn AM: no locality hints for " + graph + ": " + e.getMessage());
    }
    return List.copyOf(hosts);
  }
}
