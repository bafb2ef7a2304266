package org.yarngnn.app.infer;

import java.net.InetAddress;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.yarn.ContainerEnv;
import org.yarngnn.app.yarn.LaunchContexts;

/**
 * A graph worker container's entry point: {@code GraphWorkerMain DRIVER_HOST DRIVER_PORT}. The job's options come
 * from the localized {@value LaunchContexts#JOB_XML}, the worker's index from {@link ContainerEnv}.
 */
public final class GraphWorkerMain {
  private GraphWorkerMain() {}

  public static void main(String[] args) throws Exception {
    String host = System.getenv("NM_HOST");
    if (host == null || host.isEmpty()) {
      host = InetAddress.getLocalHost().getHostName();
    }
    InferOptions spec = InferenceJobDriver.inStaging(InferOptions.fromConfiguration(LaunchContexts.jobConf()),
        new Path(ContainerEnv.require(ContainerEnv.STAGING_DIR)));
    YarnConfiguration conf = new YarnConfiguration();
    // The job's secret comes from the container's credentials; the worker listens on its NodeManager's host only.
    String attempt = System.getenv(ContainerWorkers.ATTEMPT_ENV);
    int status = GraphWorker.serve(conf, spec, null, ContainerEnv.index(),
        attempt == null || attempt.isEmpty() ? 0 : Integer.parseInt(attempt), args[0], Integer.parseInt(args[1]),
        JobTransport.inContainer(conf, host));
    System.exit(status);
  }
}
