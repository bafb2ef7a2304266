package org.yarngnn.app.yarn;

import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;

/**
 * One container a {@link ContainerPool} asked for: its role and index at once, its YARN container and host once
 * allocated, {@link #started()} once its NodeManager launched it, and {@link #exit()} once it ended.
 */
public final class ContainerHandle {
  private final ContainerSpec spec;
  private final int index;
  final long requestId;
  final ContainerRequest request;
  private final CompletableFuture<String> started = new CompletableFuture<>();
  private final CompletableFuture<ContainerExit> exit = new CompletableFuture<>();
  // Written under the pool's lock; volatile so drivers read them without it.
  volatile Container container;
  volatile boolean stopRequested;
  volatile boolean exited;

  ContainerHandle(ContainerSpec spec, int index, long requestId, ContainerRequest request) {
    this.spec = spec;
    this.index = index;
    this.requestId = requestId;
    this.request = request;
  }

  public String role() {
    return spec.role();
  }

  public int index() {
    return index;
  }

  public ContainerSpec spec() {
    return spec;
  }

  /** The YARN container id, or null before allocation. */
  public String containerId() {
    Container c = container;
    return c == null ? null : c.getId().toString();
  }

  /** The NodeManager host, or null before allocation. */
  public String host() {
    Container c = container;
    return c == null ? null : c.getNodeId().getHost();
  }

  /** Completes with the host once the container's process was launched. */
  public CompletableFuture<String> started() {
    return started;
  }

  /** Completes once the container ended (or was given up before it started). */
  public CompletableFuture<ContainerExit> exit() {
    return exit;
  }

  @Override
  public String toString() {
    Container c = container;
    return spec.role() + " #" + index + (c == null ? "" : " (" + c.getId() + " on " + c.getNodeId().getHost() + ")");
  }
}
