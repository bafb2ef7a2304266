package org.yarngnn.app.train;

import java.net.InetAddress;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.yarn.ContainerEnv;
import org.yarngnn.app.yarn.LaunchContexts;
import org.yarngnn.compute.model.ModelFormat;

/**
 * A training graph-worker container's entry point: {@code TrainWorkerMain DRIVER_HOST DRIVER_PORT}; the options
 * and the spec come from the localized {@value LaunchContexts#JOB_XML}, the index from {@link ContainerEnv}.
 */
public final class TrainWorkerMain {
  private TrainWorkerMain() {}

  public static void main(String[] args) throws Exception {
    String host = System.getenv("NM_HOST");
    if (host == null || host.isEmpty()) {
      host = InetAddress.getLocalHost().getHostName();
    }
    TrainOptions opts = TrainOptions.fromConfiguration(LaunchContexts.jobConf());
    YarnConfiguration conf = new YarnConfiguration();
    int status = TrainWorker.serve(conf, opts, ModelFormat.parse(opts.get(TrainOptions.SPEC_JSON),
        opts.get(TrainOptions.MODEL_SPEC)),
        ContainerEnv.index(), args[0], Integer.parseInt(args[1]), JobTransport.inContainer(conf, host));
    System.exit(status);
  }
}
