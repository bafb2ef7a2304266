package org.yarngnn.app.infer;

import org.yarngnn.app.runtime.WorkerLauncher;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.yarngnn.app.yarn.ContainerPool;
import org.yarngnn.app.yarn.ContainerSpec;
import org.yarngnn.app.yarn.LaunchContexts;

/** Graph workers as YARN containers, launched by the ApplicationMaster's container pool. */
public final class ContainerWorkers implements WorkerLauncher {
  static final String ROLE = "graph-worker";

  private final ContainerPool pool;
  private final int memoryMb;
  private final int vcores;
  private final List<String> preferredHosts;
  private final String mainClass;
  private final CompletableFuture<String> failure = new CompletableFuture<>();

  ContainerWorkers(ContainerPool pool, int memoryMb, int vcores, List<String> preferredHosts) {
    this(pool, memoryMb, vcores, preferredHosts, GraphWorkerMain.class.getName());
  }

  /** Graph-worker containers whose JVMs run {@code mainClass} (inference's or training's role). */
  public ContainerWorkers(ContainerPool pool, int memoryMb, int vcores, List<String> preferredHosts,
      String mainClass) {
    this.mainClass = mainClass;
    this.pool = pool;
    this.memoryMb = memoryMb;
    this.vcores = vcores;
    this.preferredHosts = preferredHosts;
    pool.failure().thenAccept(e -> failure.complete(e.getMessage()));
  }

  @Override
  public void launch(String host, int port, int workers) {
    pool.launch(spec(host, port, workers, memoryMb, vcores, preferredHosts, mainClass));
  }

  /** The containers: the job's options come from the localized job.xml, the command line names the driver. */
  static ContainerSpec spec(String host, int port, int workers, int memoryMb, int vcores,
      List<String> preferredHosts) {
    return spec(host, port, workers, memoryMb, vcores, preferredHosts, GraphWorkerMain.class.getName());
  }

  static ContainerSpec spec(String host, int port, int workers, int memoryMb, int vcores,
      List<String> preferredHosts, String mainClass) {
    // Compute threads follow the container's vcores, not the node's cores.
    String opts = LaunchContexts.defaultJavaOpts(memoryMb)
        + " -Djava.util.concurrent.ForkJoinPool.common.parallelism=" + Math.max(1, vcores);
    return ContainerSpec.builder(ROLE, workers, mainClass)
        .memoryMb(memoryMb).vcores(vcores).javaOpts(opts)
        .args(List.of(host, Integer.toString(port)))
        .preferredHosts(preferredHosts).build();
  }

  @Override
  public CompletableFuture<String> failure() {
    return failure;
  }

  @Override
  public void close() {
    pool.stopAll();
  }
}
