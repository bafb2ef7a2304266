package org.yarngnn.app.yarn;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.yarngnn.app.runtime.JobSecretKey;

/**
 * Submits a {@link JobSubmission} to the ResourceManager and follows it to the end: stages the jar, files and
 * configuration under {@link StagingDir}, prints the application id and tracking URL, prints a progress line
 * whenever the progress or the AM's status text ({@link StatusFile}) changes, hands the epochs the status file
 * carries to the {@link #onEpochs} listener, kills the application on Ctrl-C, and deletes the staging directory
 * however the run ends. Poll interval: {@value #POLL_KEY} (ms, default 1000).
 */
public final class YarnJobClient {
  /** ApplicationMaster attempts of a job (default 2): {@code -D yarngnn.am.max-attempts=N}. */
  public static final String AM_ATTEMPTS_KEY = "yarngnn.am.max-attempts";

  public static final String POLL_KEY = "yarngnn.client.poll-ms";

  private final Configuration conf;
  private final PrintStream out;
  private Consumer<List<Map<String, Object>>> epochs = e -> {};

  public YarnJobClient(Configuration conf, PrintStream out) {
    this.conf = new YarnConfiguration(conf);
    this.out = out;
  }

  /**
   * While the application runs, {@code listener} gets the newest epochs' figures ({@link StatusFile.Status#epochs})
   * at every poll that read some: the same epochs again until newer ones come, so it prints each once.
   */
  public YarnJobClient onEpochs(Consumer<List<Map<String, Object>>> listener) {
    this.epochs = listener;
    return this;
  }

  /**
   * Deletes what earlier jobs left under the staging root {@code root} when both their client and their AM died
   * (neither could delete it): the directories of applications the ResourceManager reports ended or no longer
   * knows. A running application's directory, and anything not named like an application, is left alone; a
   * directory that cannot be deleted is reported and skipped (never a reason not to submit).
   */
  void sweepEnded(YarnClient yarn, FileSystem fs, Path root, ApplicationId self) {
    try {
      if (!fs.isDirectory(root)) {
        return;
      }
      for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(root)) {
        String name = f.getPath().getName();
        ApplicationId id;
        try {
          id = ApplicationId.fromString(name);
        } catch (IllegalArgumentException e) {
          continue;
        }
        if (id.equals(self) || !f.isDirectory()) {
          continue;
        }
        boolean ended;
        try {
          YarnApplicationState state = yarn.getApplicationReport(id).getYarnApplicationState();
          ended = state == YarnApplicationState.FINISHED || state == YarnApplicationState.FAILED
              || state == YarnApplicationState.KILLED;
        } catch (org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException e) {
          ended = true; // the RM forgot it (restarted, or long ago): nothing runs from it
        }
        if (ended) {
          out.println(StagingDir.delete(fs, f.getPath())
              ? "yarn-gnn: deleted the staging directory of ended application " + id + " (" + f.getPath() + ")"
              : "yarn-gnn: warning: could not delete " + f.getPath() + " (application " + id + " has ended)");
        }
      }
    } catch (IOException | YarnException e) {
      out.println("yarn-gnn: warning: could not clean the staging root " + root + ": " + e.getMessage());
    }
  }

  /** Submits, waits for the end, cleans up. Throws only when the submission itself fails. */
  public JobResult run(JobSubmission submission) throws IOException, YarnException, InterruptedException {
    long start = System.nanoTime();
    FileSystem fs = FileSystem.get(conf);
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      YarnClientApplication app = yarn.createApplication();
      ApplicationId appId = app.getNewApplicationResponse().getApplicationId();
      Path staging = StagingDir.forApplication(conf, fs, appId.toString());
      sweepEnded(yarn, fs, staging.getParent(), appId);
      // Hadoop's hook manager, ahead of the hook that closes every FileSystem, so Ctrl-C can still clean up.
      Runnable killOnExit = () -> killAndClean(yarn, appId, fs, staging);
      ShutdownHookManager.get().addShutdownHook(killOnExit, FileSystem.SHUTDOWN_HOOK_PRIORITY + 10);
      try {
        StagingDir.populate(conf, fs, staging, submission);
        yarn.submitApplication(submissionContext(app, submission, fs, staging));
        out.printf("yarn-gnn: submitted %s to queue %s (staging %s)%n", appId, submission.queue(), staging);
        return follow(yarn, appId, fs, staging, start);
      } finally {
        removeHook(killOnExit);
        StagingDir.delete(fs, staging);
      }
    }
  }

  private ApplicationSubmissionContext submissionContext(YarnClientApplication app, JobSubmission s,
      FileSystem fs, Path staging) throws IOException {
    ContainerLaunchContext am = amContainer(s, fs, staging,
        app.getNewApplicationResponse().getApplicationId().toString(), tokens(s, staging, new Credentials()));
    ApplicationSubmissionContext ctx = app.getApplicationSubmissionContext();
    ctx.setApplicationName(s.appName());
    ctx.setApplicationType(JobSubmission.APPLICATION_TYPE);
    ctx.setQueue(s.queue());
    ctx.setResource(Resource.newInstance(s.amMemoryMb(), s.amVcores()));
    // A crashed AM (lost node, OOM kill) gets a second attempt; one that unregistered FAILED does not (a job's own
    // failure is not retried). The cluster's yarn.resourcemanager.am.max-attempts caps it.
    int attempts = s.maxAttempts() > 0 ? s.maxAttempts() : Math.max(1, conf.getInt(AM_ATTEMPTS_KEY, 2));
    ctx.setMaxAppAttempts(attempts);
    // The next attempt, not the RM, decides what becomes of a crashed attempt's containers (it releases them
    // before reading their checkpoints: PreviousAttemptContainers).
    ctx.setKeepContainersAcrossApplicationAttempts(attempts > 1);
    ctx.setAMContainerSpec(am);
    return ctx;
  }

  /** The AM container: staged resources, environment, command line, and {@code tokens} (its credentials). */
  ContainerLaunchContext amContainer(JobSubmission s, FileSystem fs, Path staging, String appId, ByteBuffer tokens)
      throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    env.put(ContainerEnv.STAGING_DIR, staging.toString());
    env.put(ContainerEnv.APP_ID, appId);
    env.putAll(s.environment());
    return ContainerLaunchContext.newInstance(LaunchContexts.localResources(fs, staging),
        LaunchContexts.environment(conf, env), LaunchContexts.command(s), null, tokens, null);
  }

  /**
   * The AM container's credentials, {@code creds} filled: the job's fresh transport secret (see
   * {@link JobSecretKey}), which the AM passes on to every worker; on a secure cluster also the delegation tokens
   * with which the AM and the workers reach every FileSystem of the job (renewed by the RM): staging, the jar and
   * shipped files, and the paths the job names.
   */
  ByteBuffer tokens(JobSubmission s, Path staging, Credentials creds) throws IOException {
    JobSecretKey.addNew(creds);
    List<String> paths = new ArrayList<>(List.of(staging.toString(), s.jar().toString()));
    s.files().forEach(f -> paths.add(f.toString()));
    paths.addAll(s.accessedPaths());
    DelegationTokens.Obtained obtained = DelegationTokens.forPaths(conf, paths);
    if (obtained.credentials().numberOfTokens() > 0) {
      creds.addAll(obtained.credentials());
      out.println("yarn-gnn: " + obtained.describe());
    }
    DataOutputBuffer buf = new DataOutputBuffer();
    creds.writeTokenStorageToStream(buf);
    return ByteBuffer.wrap(buf.getData(), 0, buf.getLength());
  }

  private JobResult follow(YarnClient yarn, ApplicationId appId, FileSystem fs, Path staging, long start)
      throws IOException, YarnException, InterruptedException {
    long pollMs = conf.getLong(POLL_KEY, 1000);
    String lastLine = "";
    boolean urlPrinted = false;
    Optional<StatusFile.Status> status = Optional.empty();
    while (true) {
      ApplicationReport r = yarn.getApplicationReport(appId);
      YarnApplicationState state = r.getYarnApplicationState();
      String url = r.getTrackingUrl();
      if (!urlPrinted && url != null && !url.isEmpty() && state != YarnApplicationState.NEW
          && state != YarnApplicationState.NEW_SAVING && state != YarnApplicationState.SUBMITTED) {
        out.printf("yarn-gnn: tracking URL %s%n", url);
        urlPrinted = true;
      }
      if (state == YarnApplicationState.FINISHED || state == YarnApplicationState.FAILED
          || state == YarnApplicationState.KILLED) {
        FinalApplicationStatus fin = r.getFinalApplicationStatus();
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "yarn-gnn: %s %s (%s) after %.1f s%n", appId, state, fin, seconds);
        return new JobResult(appId.toString(), state, fin, r.getDiagnostics(), url, seconds);
      }
      if (state == YarnApplicationState.RUNNING) {
        // A read that lands on the AM's rewrite finds nothing: keep the last text rather than flicker.
        Optional<StatusFile.Status> read = StatusFile.read(fs, staging);
        if (read.isPresent()) {
          status = read;
          if (!read.get().epochs().isEmpty()) {
            epochs.accept(read.get().epochs());
          }
        }
      }
      String line = progressLine(state, r.getProgress(), status);
      if (!line.equals(lastLine)) {
        out.printf("yarn-gnn: %s %s%n", appId, line);
        lastLine = line;
      }
      Thread.sleep(pollMs);
    }
  }

  static String progressLine(YarnApplicationState state, float reportProgress, Optional<StatusFile.Status> status) {
    // The report's progress lags one AM heartbeat behind the status file; show the newer of the two.
    float p = Math.max(reportProgress, status.map(StatusFile.Status::progress).orElse(0f));
    String text = status.map(StatusFile.Status::text).filter(t -> !t.isEmpty()).map(t -> " " + t).orElse("");
    return String.format(Locale.ROOT, "%s %3d%%%s", state, Math.round(Math.min(1f, p) * 100), text);
  }

  private void killAndClean(YarnClient yarn, ApplicationId appId, FileSystem fs, Path staging) {
    try {
      ApplicationReport r = yarn.getApplicationReport(appId);
      YarnApplicationState state = r.getYarnApplicationState();
      if (state != YarnApplicationState.FINISHED && state != YarnApplicationState.FAILED
          && state != YarnApplicationState.KILLED) {
        System.err.println("yarn-gnn: interrupted: killing " + appId);
        yarn.killApplication(appId);
      }
    } catch (Exception e) {
      System.err.println("yarn-gnn: could not kill " + appId + ": " + e.getMessage());
    } finally {
      StagingDir.delete(fs, staging);
    }
  }

  private static void removeHook(Runnable hook) {
    try {
      ShutdownHookManager.get().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The JVM is exiting and the hook is already running: it does the cleanup.
    }
  }
}
