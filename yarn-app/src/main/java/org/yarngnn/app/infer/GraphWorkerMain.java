package org.yarngnn.app.infer;

import java.net.InetAddress;
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
    int status = new GraphWorker(new YarnConfiguration(), ContainerEnv.index(), Integer.parseInt(args[2]), args[0],
        Integer.parseInt(args[1]), host).run();
    System.exit(status);
  }
}
