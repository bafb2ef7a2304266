package org.yarngnn.app.tensor;

import java.util.List;
import org.yarngnn.app.yarn.ContainerPool;
import org.yarngnn.app.yarn.ContainerSpec;
import org.yarngnn.app.yarn.LaunchContexts;

/**
 * Tensor workers as small YARN containers of the ApplicationMaster's pool ({@code --tensor-worker-memory},
 * {@code --tensor-worker-vcores}), each running a {@link TensorWorker}; expendable: a lost one is replaced by
 * the {@link TensorPool}, it does not fail the job.
 */
public final class ContainerTensorWorkers implements TensorLauncher {
  public static final String ROLE = "tensor-worker";

  private final ContainerPool pool;
  private final int memoryMb;
  private final int vcores;
  private final String mainClass;

  /** {@code mainClass}: the container's entry point, which runs a {@link TensorWorker}. */
  public ContainerTensorWorkers(ContainerPool pool, int memoryMb, int vcores, String mainClass) {
    this.mainClass = mainClass;
    this.pool = pool;
    this.memoryMb = memoryMb;
    this.vcores = vcores;
  }

  @Override
  public java.util.concurrent.CompletableFuture<?> launch(int id, String host, int port) {
    String opts = LaunchContexts.computeJavaOpts(memoryMb, vcores);
    return pool.launch(ContainerSpec.builder(ROLE, 1, mainClass)
        .memoryMb(memoryMb).vcores(vcores).javaOpts(opts).expendable(true)
        .args(List.of(host, Integer.toString(port), Integer.toString(id))).build()).get(0).exit();
  }

  @Override
  public void close() {
    // The pool stops every container when the job ends.
  }
}
