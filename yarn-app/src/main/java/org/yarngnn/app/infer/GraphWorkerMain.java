package org.yarngnn.app.infer;

import java.net.InetAddress;
import java.util.Base64;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.yarn.ContainerEnv;

/** A graph worker container's entry point: {@code GraphWorkerMain DRIVER_HOST DRIVER_PORT WORKERS}. */
public final class GraphWorkerMain {
  private GraphWorkerMain() {}

  public static void main(String[] args) throws Exception {
    String host = System.getenv("NM_HOST");
    if (host == null || host.isEmpty()) {
      host = InetAddress.getLocalHost().getHostName();
    }
    InferenceJobSpec spec = InferenceJobSpec.fromBytes(Base64.getDecoder().decode(args[3]));
    int status = GraphWorker.serve(new YarnConfiguration(), spec, ContainerEnv.index(), Integer.parseInt(args[2]),
        args[0], Integer.parseInt(args[1]), host);
    System.exit(status);
  }
}
