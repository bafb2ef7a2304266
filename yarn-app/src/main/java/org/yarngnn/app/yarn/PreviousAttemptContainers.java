package org.yarngnn.app.yarn;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;

/**
 * The containers an earlier attempt of this application left running: the job asks YARN to keep them across
 * attempts ({@code keepContainersAcrossApplicationAttempts}) so that a new attempt, not the ResourceManager, decides
 * what becomes of them. Their driver died with that attempt; a new attempt's driver that continues from the
 * checkpoints may take the surviving graph workers over ({@link JobDriver#adoptsContainers}), the others it
 * releases and waits, bounded, until the ResourceManager
 * reports them completed: then no worker of the dead attempt still writes a checkpoint the new one reads. (A worker
 * whose driver connection closed exits by itself within seconds anyway.) Thread-safe: completions arrive on
 * YARN's callback thread, possibly before the registration that lists the containers returns.
 */
final class PreviousAttemptContainers {
  private final Set<ContainerId> completed = new HashSet<>();
  private final Set<ContainerId> waiting = new HashSet<>();

  /** Records completed containers (any of this application's: only those of an earlier attempt matter here). */
  synchronized void onCompleted(List<ContainerStatus> statuses) {
    for (ContainerStatus s : statuses) {
      completed.add(s.getContainerId());
      waiting.remove(s.getContainerId());
    }
    notifyAll();
  }

  /**
   * Releases {@code containers} (those of earlier attempts, as the registration listed them) and waits up to
   * {@code millis} until each was reported completed; returns what it did, for the driver's log of attempt
   * {@code attempt} (null for a first attempt). Those not reported in time are stopped by the ResourceManager all
   * the same.
   */
  String releaseAndAwait(int attempt, List<Container> containers, AMRMClientAsync<ContainerRequest> rm,
      long millis) throws InterruptedException {
    if (containers == null || containers.isEmpty()) {
      return attempt > 1 ? "yarn-gnn: the previous attempt left no container running" : null;
    }
    return releaseAndAwait(containers, rm, millis, "");
  }

  /**
   * As above for those of {@code containers} whose ids {@code adopted} does not name (the driver took those
   * over); null when it took over all.
   */
  String releaseExcept(java.util.Set<String> adopted, List<Container> containers,
      AMRMClientAsync<ContainerRequest> rm, long millis) throws InterruptedException {
    List<Container> rest = new java.util.ArrayList<>();
    for (Container c : containers == null ? List.<Container>of() : containers) {
      if (!adopted.contains(c.getId().toString())) {
        rest.add(c);
      }
    }
    return rest.isEmpty() ? null : releaseAndAwait(rest, rm, millis, " not taken over");
  }

  private String releaseAndAwait(List<Container> containers, AMRMClientAsync<ContainerRequest> rm, long millis,
      String which) throws InterruptedException {
    long t0 = System.nanoTime();
    synchronized (this) {
      for (Container c : containers) {
        if (!completed.contains(c.getId())) {
          waiting.add(c.getId());
        }
      }
    }
    for (Container c : containers) {
      rm.releaseAssignedContainer(c.getId());
    }
    int left;
    synchronized (this) {
      long deadline = System.currentTimeMillis() + millis;
      for (long now = System.currentTimeMillis(); !waiting.isEmpty() && now < deadline;
          now = System.currentTimeMillis()) {
        wait(deadline - now);
      }
      left = waiting.size();
    }
    String done = String.format(java.util.Locale.ROOT, "yarn-gnn: released the %d container(s) the previous "
        + "attempt left running%s; %s in %.1f s", containers.size(), which,
        left == 0 ? "all stopped" : left + " not yet reported stopped", (System.nanoTime() - t0) / 1e9);
    ApplicationMaster.log(done.substring("yarn-gnn: ".length()));
    return done;
  }
}
