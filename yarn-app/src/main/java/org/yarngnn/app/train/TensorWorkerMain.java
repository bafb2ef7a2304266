package org.yarngnn.app.train;

import java.net.InetAddress;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.runtime.FaultHooks;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.tensor.TensorWorker;
import org.yarngnn.app.yarn.LaunchContexts;
import org.yarngnn.compute.model.ModelFormat;
import org.yarngnn.compute.model.ModelSpec;

/**
 * A tensor-worker container's entry point (of the remote tensor backend, {@link TensorWorker}): {@code TensorWorkerMain POOL_HOST POOL_PORT ID}; the model's shape
 * comes from the localized {@value LaunchContexts#JOB_XML} (the spec's JSON), never from a graph.
 */
public final class TensorWorkerMain {

  private TensorWorkerMain() {}

  public static void main(String[] args) throws Exception {
    String host = System.getenv("NM_HOST");
    if (host == null || host.isEmpty()) {
      host = InetAddress.getLocalHost().getHostName();
    }
    Configuration conf = LaunchContexts.jobConf();
    ModelSpec spec = ModelFormat.parse(conf.get(TrainOptions.SPEC_JSON.key()), "job.xml");
    int id = Integer.parseInt(args[2]);
    int threads = Integer.getInteger("java.util.concurrent.ForkJoinPool.common.parallelism", 1);
    int status = new TensorWorker(spec, id, args[0], Integer.parseInt(args[1]),
        JobTransport.inContainer(conf, host), threads, FaultHooks.of(conf)).run();
    System.exit(status);
  }
}
