package org.yarngnn.app.yarn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.yarngnn.app.runtime.JobSecretKey;

/**
 * The containers a {@link JobDriver} runs. {@link #launch} asks the ResourceManager for containers and starts
 * them as they arrive; each request carries its own allocation id, so every container lands on exactly the handle
 * (role, index) that asked for it. The first container that exits non-zero, is killed or lost, or cannot start
 * (unless its spec is {@link ContainerSpec#expendable()}) fails the pool: every other container is stopped, {@link #awaitSuccess} throws {@link ContainerFailedException},
 * and the ApplicationMaster unregisters FAILED with that container's diagnostics.
 */
public final class ContainerPool {
  private static final Priority PRIORITY = Priority.newInstance(1);

  private final Configuration conf;
  private final AMRMClientAsync<ContainerRequest> rm;
  private final NMClientAsync nm;
  private final Map<String, LocalResource> resources;
  private final Map<String, String> baseEnv;
  private final ByteBuffer tokens;
  private final Map<Long, ContainerHandle> pending = new LinkedHashMap<>();
  private final Map<ContainerId, ContainerHandle> allocated = new HashMap<>();
  private final List<ContainerHandle> all = new ArrayList<>();
  private final List<BiConsumer<ContainerHandle, ContainerExit>> listeners = new CopyOnWriteArrayList<>();
  private final CompletableFuture<ContainerFailedException> failure = new CompletableFuture<>();
  private long nextRequestId = 1;
  private boolean stopping;
  private int stoppedTotal;

  ContainerPool(Configuration conf, AMRMClientAsync<ContainerRequest> rm, NMClientAsync nm,
      Map<String, LocalResource> resources, Map<String, String> baseEnv) throws IOException {
    this.conf = conf;
    this.rm = rm;
    this.nm = nm;
    this.resources = Map.copyOf(resources);
    this.baseEnv = Map.copyOf(baseEnv);
    this.tokens = containerTokens();
  }

  /** Asks for {@code spec.count()} containers; returns their handles at once (allocation is asynchronous). */
  public synchronized List<ContainerHandle> launch(ContainerSpec spec) {
    if (stopping) {
      throw new IllegalStateException("the container pool is stopping: " + failure.getNow(null));
    }
    List<ContainerHandle> handles = new ArrayList<>(spec.count());
    String[] hosts = spec.preferredHosts().isEmpty() ? null : spec.preferredHosts().toArray(new String[0]);
    for (int i = 0; i < spec.count(); i++) {
      long id = nextRequestId++;
      ContainerRequest request = ContainerRequest.newBuilder()
          .capability(Resource.newInstance(spec.memoryMb(), spec.vcores()))
          .nodes(hosts).priority(PRIORITY).allocationRequestId(id).relaxLocality(true).build();
      ContainerHandle h = new ContainerHandle(spec, i, id, request);
      pending.put(id, h);
      all.add(h);
      handles.add(h);
      rm.addContainerRequest(request);
    }
    return handles;
  }

  /** The convenience form of {@link #launch(ContainerSpec)}. */
  public List<ContainerHandle> launch(String role, int count, int memoryMb, int vcores, String mainClass,
      List<String> args, List<String> preferredHosts) {
    return launch(ContainerSpec.builder(role, count, mainClass).memoryMb(memoryMb).vcores(vcores).args(args)
        .preferredHosts(preferredHosts).build());
  }

  /** Called (from a YARN callback thread) after every container exit, failures included. */
  public void addExitListener(BiConsumer<ContainerHandle, ContainerExit> listener) {
    listeners.add(listener);
  }

  /**
   * Waits until every handle exited 0 (or was stopped by this AM). Throws at the pool's first failure, whichever
   * container it was: once one fails, the job cannot succeed.
   */
  public void awaitSuccess(Collection<ContainerHandle> handles) throws ContainerFailedException, InterruptedException {
    CompletableFuture<?> allExited = CompletableFuture.allOf(
        handles.stream().map(ContainerHandle::exit).toArray(CompletableFuture[]::new));
    try {
      CompletableFuture.anyOf(allExited, failure).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
    ContainerFailedException f = failure.getNow(null);
    if (f != null) {
      throw f;
    }
  }

  /** Like {@link #awaitSuccess(Collection)}, but returns false when the timeout passes first. */
  public boolean awaitSuccess(Collection<ContainerHandle> handles, long timeout, TimeUnit unit)
      throws ContainerFailedException, InterruptedException {
    CompletableFuture<?> allExited = CompletableFuture.allOf(
        handles.stream().map(ContainerHandle::exit).toArray(CompletableFuture[]::new));
    try {
      CompletableFuture.anyOf(allExited, failure).get(timeout, unit);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      return false;
    }
    ContainerFailedException f = failure.getNow(null);
    if (f != null) {
      throw f;
    }
    return true;
  }

  /** Completes with the first container failure; never completes when all goes well. */
  public CompletableFuture<ContainerFailedException> failure() {
    return failure;
  }

  public synchronized List<ContainerHandle> handles() {
    return List.copyOf(all);
  }

  /**
   * Withdraws the open requests and stops the running containers of role {@code role}, leaving the pool open for
   * new launches (a job that starts that role again: training after a lost graph worker). Returns how many running
   * containers it asked to stop.
   */
  public int stopRole(String role) {
    int stopped = 0;
    synchronized (this) {
      for (Iterator<ContainerHandle> it = pending.values().iterator(); it.hasNext();) {
        ContainerHandle h = it.next();
        if (h.role().equals(role)) {
          it.remove();
          rm.removeContainerRequest(h.request);
        }
      }
      for (ContainerHandle h : allocated.values()) {
        if (h.role().equals(role) && !h.exited && !h.stopRequested) {
          h.stopRequested = true;
          stopped++;
          stoppedTotal++;
          if (h.started().isDone()) {
            nm.stopContainerAsync(h.container.getId(), h.container.getNodeId());
          }
        }
      }
    }
    return stopped;
  }

  /**
   * Withdraws open requests and stops every running container. Returns how many running containers it asked to
   * stop. Idempotent.
   */
  public int stopAll() {
    List<ContainerHandle> given = new ArrayList<>();
    int stopped = 0;
    synchronized (this) {
      stopping = true;
      for (Iterator<ContainerHandle> it = pending.values().iterator(); it.hasNext();) {
        ContainerHandle h = it.next();
        it.remove();
        rm.removeContainerRequest(h.request);
        given.add(h);
      }
      for (ContainerHandle h : allocated.values()) {
        if (!h.exited && !h.stopRequested) {
          h.stopRequested = true;
          stopped++;
          stoppedTotal++;
          if (h.started().isDone()) {
            nm.stopContainerAsync(h.container.getId(), h.container.getNodeId());
          }
          // Not yet started: onStarted stops it.
        }
      }
    }
    for (ContainerHandle h : given) {
      finish(h, new ContainerExit(ContainerExitStatus.ABORTED, "never allocated: the pool was stopped", true));
    }
    return stopped;
  }

  /** How many running containers this pool stopped so far. */
  synchronized int stoppedCount() {
    return stoppedTotal;
  }

  /** Waits up to {@code millis} for every allocated container to report its exit; false if some did not. */
  boolean awaitAllExited(long millis) throws InterruptedException {
    CompletableFuture<?> allExited;
    synchronized (this) {
      allExited = CompletableFuture.allOf(all.stream().map(ContainerHandle::exit).toArray(CompletableFuture[]::new));
    }
    try {
      allExited.get(millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  // ---- YARN callbacks (ApplicationMaster forwards them) ----

  void onAllocated(List<Container> containers) {
    for (Container c : containers) {
      ContainerHandle h;
      synchronized (this) {
        h = stopping ? null : pending.remove(c.getAllocationRequestId());
        if (h != null) {
          rm.removeContainerRequest(h.request);
          h.container = c;
          allocated.put(c.getId(), h);
        }
      }
      if (h == null) {
        // A surplus container (its request was satisfied or withdrawn meanwhile): give it back.
        rm.releaseAssignedContainer(c.getId());
        continue;
      }
      try {
        nm.startContainerAsync(c, launchContext(h));
      } catch (RuntimeException e) {
        onStartError(c.getId(), e);
      }
    }
  }

  void onStarted(ContainerId id) {
    ContainerHandle h;
    boolean stopNow;
    synchronized (this) {
      h = allocated.get(id);
      stopNow = h != null && h.stopRequested;
    }
    if (h == null) {
      return;
    }
    h.started().complete(h.host());
    if (stopNow) {
      nm.stopContainerAsync(id, h.container.getNodeId());
    }
  }

  void onStartError(ContainerId id, Throwable t) {
    ContainerHandle h;
    synchronized (this) {
      h = allocated.get(id);
    }
    if (h != null) {
      rm.releaseAssignedContainer(id);
      finish(h, new ContainerExit(ContainerExitStatus.INVALID, "could not start: " + t, h.stopRequested));
    }
  }

  void onCompleted(List<ContainerStatus> statuses) {
    for (ContainerStatus s : statuses) {
      ContainerHandle h;
      synchronized (this) {
        h = allocated.get(s.getContainerId());
      }
      if (h != null) {
        String diagnostics = s.getDiagnostics() == null ? "" : s.getDiagnostics().trim();
        finish(h, new ContainerExit(s.getExitStatus(), diagnostics, h.stopRequested));
      }
    }
  }

  private void finish(ContainerHandle h, ContainerExit exit) {
    synchronized (this) {
      if (h.exited) {
        return;
      }
      // Before the failure is published: whoever wakes on it must not count this one among those to stop.
      h.exited = true;
    }
    if (!exit.succeeded() && !exit.stoppedByAm() && !h.spec().expendable()) {
      // Record the failure and stop the others before anyone waiting on this exit wakes up.
      if (failure.complete(new ContainerFailedException(h, exit))) {
        stopAll();
      }
    }
    h.started().complete(h.host());
    h.exit().complete(exit);
    for (BiConsumer<ContainerHandle, ContainerExit> l : listeners) {
      try {
        l.accept(h, exit);
      } catch (RuntimeException e) {
        System.err.println("yarn-gnn AM: exit listener failed: " + e);
      }
    }
  }

  private ContainerLaunchContext launchContext(ContainerHandle h) {
    ContainerSpec spec = h.spec();
    Map<String, String> env = new LinkedHashMap<>(baseEnv);
    env.put(ContainerEnv.ROLE, spec.role());
    env.put(ContainerEnv.INDEX, Integer.toString(h.index()));
    env.put(ContainerEnv.COUNT, Integer.toString(spec.count()));
    env.putAll(spec.environment());
    return ContainerLaunchContext.newInstance(resources, LaunchContexts.environment(conf, env),
        LaunchContexts.command(spec), null,
        tokens == null ? null : tokens.duplicate(), null);
  }

  /**
   * The AM's own credentials minus the AM-RM token, for the workers: the job's transport secret
   * ({@link JobSecretKey}) and, on a secure cluster, the HDFS delegation tokens.
   */
  private static ByteBuffer containerTokens() throws IOException {
    return workerTokens(UserGroupInformation.getCurrentUser().getCredentials());
  }

  /** {@code creds} (a copy the caller owns) without the AM-RM token, serialized; null when nothing is left. */
  static ByteBuffer workerTokens(Credentials creds) throws IOException {
    creds.getAllTokens().removeIf(t -> AMRMTokenIdentifier.KIND_NAME.equals(t.getKind()));
    if (creds.numberOfTokens() == 0 && creds.numberOfSecretKeys() == 0) {
      return null;
    }
    DataOutputBuffer buf = new DataOutputBuffer();
    creds.writeTokenStorageToStream(buf);
    return ByteBuffer.wrap(buf.getData(), 0, buf.getLength());
  }
}
