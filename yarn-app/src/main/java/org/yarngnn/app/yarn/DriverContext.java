package org.yarngnn.app.yarn;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.runtime.FaultHooks;
import org.yarngnn.app.runtime.JobSecretKey;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.io.table.OutputCommit;

/** What a {@link JobDriver} gets from the ApplicationMaster. */
public final class DriverContext {
  private final Configuration conf;
  private final FaultHooks faults;
  private final List<String> args;
  private final ContainerPool containers;
  private final FileSystem fs;
  private final Path stagingDir;
  private final String appId;
  private final String amHost;
  private final StatusWriter status;
  private final JobPage page;
  private final java.io.PrintStream log;
  private volatile float progress;

  DriverContext(Configuration conf, List<String> args, ContainerPool containers, FileSystem fs, Path stagingDir,
      String appId, String amHost, JobPage page) {
    this.page = page;
    this.log = page.tee(System.out);
    this.conf = conf;
    this.faults = FaultHooks.of(conf);
    this.args = List.copyOf(args);
    this.containers = containers;
    this.fs = fs;
    this.stagingDir = stagingDir;
    this.appId = appId;
    this.amHost = amHost;
    this.status = new StatusWriter(fs, stagingDir, STATUS_GAP_MS);
  }

  /** The shortest time between two writes of the status file. */
  static final long STATUS_GAP_MS = 500;

  /**
   * This ApplicationMaster's attempt (1 for the first; a later one after the previous attempt's AM died, when
   * the job continues from the previous attempt's checkpoints or starts over), from the container id YARN gives
   * it.
   */
  public int attempt() {
    return currentAttempt();
  }

  /** {@link #attempt()}, for the ApplicationMaster before there is a context. */
  static int currentAttempt() {
    String id = System.getenv("CONTAINER_ID");
    if (id == null) {
      return 1;
    }
    try {
      return org.apache.hadoop.yarn.api.records.ContainerId.fromString(id).getApplicationAttemptId().getAttemptId();
    } catch (IllegalArgumentException e) {
      return 1;
    }
  }

  /** Releases the containers of an earlier attempt but those named; returns the log line or null. */
  @FunctionalInterface
  interface Release {
    String except(java.util.Set<String> adopted) throws InterruptedException;
  }

  private List<String> previous = List.of();
  private Release release = adopted -> null;

  void previous(List<org.apache.hadoop.yarn.api.records.Container> containers, Release release) {
    this.previous = containers.stream().map(c -> c.getId().toString()).toList();
    this.release = release;
  }

  /**
   * The ids of the containers earlier attempts left running, for a driver that may take them over
   * ({@link JobDriver#adoptsContainers}); empty otherwise.
   */
  public List<String> previousContainers() {
    return previous;
  }

  /**
   * Releases the earlier attempts' containers but {@code adopted} (ids) and waits, bounded, until they stopped;
   * logs what it did. For a driver that may take them over, once it knows which it did.
   */
  public void releasePrevious(java.util.Set<String> adopted) throws InterruptedException {
    String done = release.except(adopted);
    if (done != null) {
      log.println(done);
    }
  }

  /** The client's configuration (shipped with the job), on the AM's classpath. */
  public Configuration conf() {
    return conf;
  }

  /** The faults a test injects into this job (none in a real run). */
  public FaultHooks faults() {
    return faults;
  }

  /** The driver's arguments: what followed the driver class name on the AM command line. */
  public List<String> args() {
    return args;
  }

  public ContainerPool containers() {
    return containers;
  }

  /** The staging directory: the shipped jar and files, readable by the driver and every container. */
  public Path stagingDir() {
    return stagingDir;
  }

  public String appId() {
    return appId;
  }

  /** The host this AM runs on: where a driver's own server listens for its workers. */
  public String amHost() {
    return amHost;
  }

  /**
   * The job's transport for a driver in this AM: the secret from the AM's credentials (see {@link JobSecretKey}),
   * listening on {@link #amHost()}, encrypted when the client's configuration says
   * {@code yarngnn.transport.encrypt}.
   */
  public JobTransport transport() throws IOException {
    return JobTransport.inContainer(conf, amHost);
  }

  /** The driver's log: the AM's stdout (its container log), also shown on the tracking page. */
  public java.io.PrintStream log() {
    return log;
  }

  public float progress() {
    return progress;
  }

  /**
   * Publishes progress (0..1, sent to the ResourceManager on the next heartbeat) and a short status text (shown by
   * the client's progress line, through {@link StatusFile}, written in the background: returns at once). The
   * progress never goes back: a lower fraction (a round run again after a lost worker, a new set of workers
   * starting from a checkpoint) keeps the highest so far and only changes the text.
   */
  public synchronized void setProgress(float progress, String status) {
    faults.atAmStatus(status, attempt(), log);
    this.progress = Math.max(this.progress, Math.min(1f, progress));
    this.status.publish(this.progress, status);
    page.status(this.progress, status);
  }

  /**
   * What a driver reports to: {@link #setProgress}, and the figures of the job page (workers' answers, epochs,
   * the tensor-worker pool).
   */
  public org.yarngnn.app.runtime.DriverSession.Progress reporter() {
    JobFigures figures = page.figures();
    return new org.yarngnn.app.runtime.DriverSession.Progress() {
      @Override
      public void report(float fraction, String text) {
        setProgress(fraction, text);
      }

      @Override
      public void answered(org.yarngnn.app.runtime.PhaseCommand command, int worker,
          org.yarngnn.app.runtime.PhaseResult result, java.util.Map<String, Double> gauges, double seconds) {
        figures.answered(command, worker, result, gauges, seconds);
      }

      @Override
      public void epoch(java.util.Map<String, Object> epochFigures) {
        figures.epoch(epochFigures);
        status.epoch(epochFigures); // the client prints each epoch's line as it ends
      }

      @Override
      public void tensorPool(int size, List<java.util.Map<String, Object>> timeline) {
        figures.tensorPool(size, timeline);
      }
    };
  }

  /**
   * Commits a driver's output ({@link OutputCommit#commit()}), through the test hook that may halt this AM
   * between the commit's steps.
   */
  public void commit(OutputCommit output) {
    output.commit(step -> faults.inCommit(step, attempt(), log));
  }

  /**
   * In a later attempt: true when the previous attempt's ApplicationMaster died after its commit of {@code output}
   * completed ({@link OutputCommit#committed}); then logs it and publishes the job as done, and the driver returns
   * 0 at once: the output is the job's, complete, and is not touched (the client finishes the commit).
   */
  public boolean committedBefore(OutputCommit output) {
    if (attempt() <= 1 || !output.committed()) {
      return false;
    }
    log.println("yarn-gnn: attempt " + attempt() + " after the previous ApplicationMaster died: its commit of "
        + output.outputDir() + " had completed, so the job is done");
    setProgress(1f, "committed by the previous attempt");
    return true;
  }

  /** Writes the latest status if it is not written yet and stops the status writer. */
  void close() throws InterruptedException {
    status.close();
  }
}
