package org.yarngnn.app.yarn;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;

/**
 * Registers with the ResourceManager, runs a {@link JobDriver} in its own thread with a {@link ContainerPool}, and
 * unregisters SUCCEEDED or FAILED with diagnostics. A container failure, a ResourceManager error or shutdown
 * request, a driver exception or a non-zero driver result fails the application; every container is stopped
 * before unregistering. A later attempt first releases the containers an earlier one left running (they are
 * kept across attempts: {@link PreviousAttemptContainers}), or leaves them to a driver that may take them over. Settings: {@value #HEARTBEAT_KEY} (ms, default 250), {@value #GRACE_KEY} (ms the driver
 * gets to return after a container failure before it is interrupted, default 10000), {@value #STOP_WAIT_KEY} (ms
 * to wait for stopped containers to report, default 10000).
 */
public final class ApplicationMaster {
  public static final String HEARTBEAT_KEY = "yarngnn.am.heartbeat-ms";
  public static final String GRACE_KEY = "yarngnn.am.driver-grace-ms";
  public static final String STOP_WAIT_KEY = "yarngnn.am.stop-wait-ms";

  private final Configuration conf;
  private final JobDriver driver;
  private final List<String> args;
  private final CompletableFuture<String> fatal = new CompletableFuture<>();
  private volatile ContainerPool pool;
  private volatile DriverContext context;
  /** The containers an earlier attempt of this application left running (kept across attempts). */
  private final PreviousAttemptContainers previous = new PreviousAttemptContainers();

  public ApplicationMaster(Configuration conf, JobDriver driver, List<String> args) {
    this.conf = conf;
    this.driver = driver;
    this.args = List.copyOf(args);
  }

  /** Runs the whole application attempt; returns 0 when it unregistered SUCCEEDED, 1 otherwise. */
  public int run() throws Exception {
    String appId = ContainerEnv.require(ContainerEnv.APP_ID);
    Path staging = new Path(ContainerEnv.require(ContainerEnv.STAGING_DIR));
    FileSystem fs = staging.getFileSystem(conf);
    String host = amHost();
    AMRMClientAsync<ContainerRequest> rm = AMRMClientAsync.createAMRMClientAsync(
        conf.getInt(HEARTBEAT_KEY, 250), new RmCallbacks());
    NMClientAsync nm = NMClientAsync.createNMClientAsync(new NmCallbacks());
    rm.init(conf);
    rm.start();
    nm.init(conf);
    nm.start();
    JobPage page = new JobPage(appId);
    try {
      String url = page.start(host, conf);
      org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse registered =
          rm.registerApplicationMaster(host, 0, url);
      log("registered " + appId + " on " + host + "; driver " + driver.getClass().getName() + " " + args);
      // Their driver died with the earlier attempt: released before this attempt's driver reads what they wrote,
      // unless the driver may take them over (then it releases those it does not).
      List<Container> earlier = registered.getContainersFromPreviousAttempts();
      String released = driver.adoptsContainers() ? null : previous.releaseAndAwait(DriverContext.currentAttempt(),
          earlier, rm, conf.getLong(STOP_WAIT_KEY, 10_000));
      Map<String, String> baseEnv = new LinkedHashMap<>();
      baseEnv.put(ContainerEnv.STAGING_DIR, staging.toString());
      baseEnv.put(ContainerEnv.APP_ID, appId);
      baseEnv.put(ContainerEnv.AM_HOST, host);
      pool = new ContainerPool(conf, rm, nm, LaunchContexts.localResources(fs, staging), baseEnv);
      context = new DriverContext(conf, args, pool, fs, staging, appId, host, page);
      if (driver.adoptsContainers()) {
        context.previous(earlier == null ? List.of() : earlier,
            keep -> previous.releaseExcept(keep, earlier, rm, conf.getLong(STOP_WAIT_KEY, 10_000)));
      }
      if (released != null) {
        context.log().println(released);
      }

      Outcome outcome = runDriver();
      context.close();
      pool.stopAll();
      if (!pool.awaitAllExited(conf.getLong(STOP_WAIT_KEY, 10_000))) {
        log("some containers did not report their exit in time; the ResourceManager stops them at unregister");
      }
      String diagnostics = outcome.diagnostics;
      int stopped = pool.stoppedCount();
      if (outcome.status != FinalApplicationStatus.SUCCEEDED && stopped > 0) {
        diagnostics += " [stopped " + stopped + " other container(s)]";
      }
      log("unregistering " + outcome.status + (diagnostics.isEmpty() ? "" : ": " + diagnostics));
      page.finish(fs, JobHistory.forApplication(conf, fs, appId), outcome.status.name(), diagnostics);
      rm.unregisterApplicationMaster(outcome.status, diagnostics, "");
      StagingDir.delete(fs, staging);
      return outcome.status == FinalApplicationStatus.SUCCEEDED ? 0 : 1;
    } finally {
      page.stop();
      nm.stop();
      rm.stop();
    }
  }

  private record Outcome(FinalApplicationStatus status, String diagnostics) {}

  private Outcome runDriver() throws InterruptedException {
    CompletableFuture<Integer> result = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        result.complete(driver.run(context));
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    }, "yarn-gnn-driver");
    thread.setDaemon(true);
    thread.start();
    waitAny(result, pool.failure(), fatal);
    if (!result.isDone()) {
      // A container failed or the RM gave up: let the driver see it and return, then interrupt it.
      if (!waitFor(result, conf.getLong(GRACE_KEY, 10_000))) {
        thread.interrupt();
        waitFor(result, 5_000);
      }
    }
    ContainerFailedException failed = pool.failure().getNow(null);
    if (failed != null) {
      return new Outcome(FinalApplicationStatus.FAILED, failed.getMessage());
    }
    if (fatal.isDone()) {
      return new Outcome(FinalApplicationStatus.FAILED, fatal.join());
    }
    try {
      int rc = result.getNow(null) == null ? -1 : result.join();
      return rc == 0 ? new Outcome(FinalApplicationStatus.SUCCEEDED, "")
          : new Outcome(FinalApplicationStatus.FAILED, "the driver returned " + rc);
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      cause.printStackTrace(); // the AM container's stderr log; the client prints the one-line reason below
      return new Outcome(FinalApplicationStatus.FAILED, "the driver failed: " + describe(cause));
    }
  }

  private static void waitAny(CompletableFuture<?>... futures) throws InterruptedException {
    try {
      CompletableFuture.anyOf(futures).get();
    } catch (ExecutionException e) {
      // One finished exceptionally: that is an outcome too.
    }
  }

  private static boolean waitFor(CompletableFuture<?> f, long millis) throws InterruptedException {
    try {
      f.get(millis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return true;
    } catch (TimeoutException e) {
      return false;
    }
    return true;
  }

  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null && sb.length() < 2000; t = t.getCause()) {
      if (sb.length() > 0) {
        sb.append(": ");
      }
      sb.append(t.getMessage() == null ? t.getClass().getName() : t.getMessage());
      if (t.getCause() == t) {
        break;
      }
    }
    return sb.toString();
  }

  private static String amHost() throws java.net.UnknownHostException {
    String nmHost = System.getenv(Environment.NM_HOST.name());
    return nmHost != null && !nmHost.isEmpty() ? nmHost : InetAddress.getLocalHost().getCanonicalHostName();
  }

  static void log(String message) {
    System.err.println(LocalTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss.SSS")) + " yarn-gnn AM: " + message);
  }

  private final class RmCallbacks extends AMRMClientAsync.AbstractCallbackHandler {
    @Override
    public void onContainersAllocated(List<Container> containers) {
      pool.onAllocated(containers);
    }

    @Override
    public void onContainersCompleted(List<ContainerStatus> statuses) {
      for (ContainerStatus s : statuses) {
        log("container " + s.getContainerId() + " exited " + s.getExitStatus()
            + (s.getExitStatus() == 0 ? "" : ": " + s.getDiagnostics()));
      }
      previous.onCompleted(statuses);
      ContainerPool p = pool;
      if (p != null) {
        p.onCompleted(statuses);
      }
    }

    @Override
    public void onContainersUpdated(List<UpdatedContainer> containers) {}

    @Override
    public void onShutdownRequest() {
      fatal.complete("the ResourceManager asked the ApplicationMaster to shut down");
    }

    @Override
    public void onNodesUpdated(List<NodeReport> updated) {}

    @Override
    public float getProgress() {
      DriverContext c = context;
      return c == null ? 0f : c.progress();
    }

    @Override
    public void onError(Throwable e) {
      fatal.complete("lost the ResourceManager: " + describe(e));
    }
  }

  private final class NmCallbacks extends NMClientAsync.AbstractCallbackHandler {
    @Override
    public void onContainerStarted(ContainerId id, Map<String, ByteBuffer> serviceResponse) {
      pool.onStarted(id);
    }

    @Override
    public void onStartContainerError(ContainerId id, Throwable t) {
      pool.onStartError(id, t);
    }

    @Override
    public void onContainerStatusReceived(ContainerId id, ContainerStatus status) {}

    @Override
    public void onContainerStopped(ContainerId id) {}

    @Override
    public void onContainerResourceIncreased(ContainerId id, Resource resource) {}

    @Override
    public void onContainerResourceUpdated(ContainerId id, Resource resource) {}

    @Override
    public void onGetContainerStatusError(ContainerId id, Throwable t) {}

    @Override
    public void onIncreaseContainerResourceError(ContainerId id, Throwable t) {}

    @Override
    public void onUpdateContainerResourceError(ContainerId id, Throwable t) {}

    @Override
    public void onStopContainerError(ContainerId id, Throwable t) {
      log("could not stop " + id + ": " + describe(t));
    }
  }
}
