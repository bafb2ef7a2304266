package org.yarngnn.app.topk;

import java.net.InetAddress;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.yarn.ContainerEnv;
import org.yarngnn.app.yarn.LaunchContexts;

/**
 * A {@code topk} worker container's entry point: {@code TopkWorkerMain DRIVER_HOST DRIVER_PORT}; the options come
 * from the localized {@value LaunchContexts#JOB_XML}, the worker's index from {@link ContainerEnv}.
 */
public final class TopkWorkerMain {
  private TopkWorkerMain() {}

  public static void main(String[] args) throws Exception {
    String host = System.getenv("NM_HOST");
    if (host == null || host.isEmpty()) {
      host = InetAddress.getLocalHost().getHostName();
    }
    TopkOptions options = TopkOptions.fromConfiguration(LaunchContexts.jobConf());
    YarnConfiguration conf = new YarnConfiguration();
    System.exit(TopkWorker.serve(conf, options, ContainerEnv.index(), args[0], Integer.parseInt(args[1]),
        JobTransport.inContainer(conf, host)));
  }
}
