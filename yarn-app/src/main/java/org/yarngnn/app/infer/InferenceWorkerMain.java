package org.yarngnn.app.infer;

import java.net.InetAddress;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.graphworker.ContainerWorkers;
import org.yarngnn.app.runtime.DriverEndpoint;
import org.yarngnn.app.runtime.WorkerSession;
import org.yarngnn.app.yarn.YarnJobClient;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.yarn.ContainerEnv;
import org.yarngnn.app.yarn.LaunchContexts;

/**
 * An inference graph-worker container's entry point: {@code InferenceWorkerMain DRIVER_HOST DRIVER_PORT}. The
 * job's options come from the localized {@value LaunchContexts#JOB_XML}, the worker's index from
 * {@link ContainerEnv}.
 */
public final class InferenceWorkerMain {
  /**
   * Inference's workers run G1 without concurrent marking ({@link LaunchContexts#INFER_GC}); training's as they
   * are.
   */
  static final String JAVA_OPTS = LaunchContexts.INFER_GC;

  private InferenceWorkerMain() {}

  public static void main(String[] args) throws Exception {
    String host = System.getenv("NM_HOST");
    if (host == null || host.isEmpty()) {
      host = InetAddress.getLocalHost().getHostName();
    }
    org.apache.hadoop.conf.Configuration jobConf = LaunchContexts.jobConf();
    Path staging = new Path(ContainerEnv.require(ContainerEnv.STAGING_DIR));
    InferOptions spec = InferenceJobDriver.inStaging(InferOptions.fromConfiguration(jobConf), staging);
    YarnConfiguration conf = new YarnConfiguration();
    // The job's secret comes from the container's credentials; the worker listens on its NodeManager's host only.
    String attempt = System.getenv(ContainerWorkers.ATTEMPT_ENV);
    int status = InferenceWorker.serve(conf, spec, null, ContainerEnv.index(),
        attempt == null || attempt.isEmpty() ? 0 : Integer.parseInt(attempt), args[0], Integer.parseInt(args[1]),
        JobTransport.inContainer(conf, host), spec.recovery().writesCheckpoints() ? reconnect(conf, staging)
            : null);
    System.exit(status);
  }

  /** How long a worker whose ApplicationMaster died waits for the next attempt's driver (seconds, default 60). */
  public static final String RECONNECT_KEY = "yarngnn.worker.reconnect-seconds";

  /**
   * A graph worker of a job that replaces lost workers outlives its ApplicationMaster attempt while the
   * application has attempts left: it looks for the next attempt's driver in the staging directory. Both
   * settings come from the client's configuration (shipped on every container's classpath).
   */
  static WorkerSession.Reconnect reconnect(org.apache.hadoop.conf.Configuration conf, Path staging)
      throws java.io.IOException {
    String id = System.getenv("CONTAINER_ID");
    int served;
    try {
      served = org.apache.hadoop.yarn.api.records.ContainerId.fromString(id).getApplicationAttemptId()
          .getAttemptId();
    } catch (RuntimeException e) {
      return null;
    }
    org.apache.hadoop.fs.FileSystem fs = staging.getFileSystem(conf);
    long window = java.util.concurrent.TimeUnit.SECONDS.toMillis(Math.max(0, conf.getLong(RECONNECT_KEY, 60)));
    return new WorkerSession.Reconnect(served, conf.getInt(YarnJobClient.AM_ATTEMPTS_KEY, 2), window, id,
        () -> DriverEndpoint.read(fs, staging));
  }
}
