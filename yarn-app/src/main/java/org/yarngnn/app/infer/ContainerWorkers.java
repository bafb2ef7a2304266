package org.yarngnn.app.infer;

import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.yarngnn.app.yarn.ContainerPool;
import org.yarngnn.app.yarn.ContainerSpec;
import org.yarngnn.app.yarn.LaunchContexts;

/** Graph workers as YARN containers, launched by the ApplicationMaster's container pool. */
final class ContainerWorkers implements WorkerLauncher {
  static final String ROLE = "graph-worker";

  private final ContainerPool pool;
  private final int memoryMb;
  private final int vcores;
  private final List<String> preferredHosts;
  private final CompletableFuture<String> failure = new CompletableFuture<>();

  private final InferenceJobSpec spec;

  ContainerWorkers(ContainerPool pool, InferenceJobSpec spec, int memoryMb, int vcores, List<String> preferredHosts) {
    this.spec = spec;
    this.pool = pool;
    this.memoryMb = memoryMb;
    this.vcores = vcores;
    this.preferredHosts = preferredHosts;
    pool.failure().thenAccept(e -> failure.complete(e.getMessage()));
  }

  @Override
  public void launch(String host, int port, int workers) {
    // Compute threads follow the container's vcores, not the node's cores.
    String opts = LaunchContexts.defaultJavaOpts(memoryMb)
        + " -Djava.util.concurrent.ForkJoinPool.common.parallelism=" + Math.max(1, vcores);
    pool.launch(ContainerSpec.builder(ROLE, workers, GraphWorkerMain.class.getName())
        .memoryMb(memoryMb).vcores(vcores).javaOpts(opts)
        .args(List.of(host, Integer.toString(port), Integer.toString(workers),
            Base64.getEncoder().encodeToString(spec.toBytes())))
        .preferredHosts(preferredHosts).build());
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
