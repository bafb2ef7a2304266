package org.yarngnn.e2e.cluster;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * The background process of {@code scripts/minicluster}: {@code MiniClusterMain DIR [NODEMANAGERS]} starts
 * {@link MiniClusters} under DIR, writes DIR/conf (a HADOOP_CONF_DIR) and then DIR/ready, and shuts down cleanly
 * when DIR/stop appears.
 */
public final class MiniClusterMain {
  private MiniClusterMain() {}

  public static void main(String[] args) throws Exception {
    File dir = new File(args.length > 0 ? args[0] : "target/minicluster").getAbsoluteFile();
    int nodeManagers = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    File ready = new File(dir, "ready");
    File stop = new File(dir, "stop");
    try (MiniClusters clusters = MiniClusters.start(new File(dir, "cluster"), nodeManagers)) {
      String conf = clusters.confDir().getAbsolutePath();
      // The ResourceManager's web app (its proxy serves the tracking URLs), for scripts/minicluster to print.
      Files.writeString(new File(dir, "rm-web").toPath(), clusters.webAppAddress() + "\n", StandardCharsets.UTF_8);
      Files.writeString(ready.toPath(), conf + "\n", StandardCharsets.UTF_8);
      System.out.println("minicluster ready: HADOOP_CONF_DIR=" + conf + " fs.defaultFS="
          + clusters.conf().get("fs.defaultFS") + " RM=" + clusters.conf().get("yarn.resourcemanager.address")
          + " RM web (and its proxy)=" + clusters.webAppAddress());
      while (!stop.exists()) {
        Thread.sleep(200);
      }
      System.out.println("minicluster stopping");
      Files.deleteIfExists(ready.toPath());
    }
    Files.deleteIfExists(stop.toPath());
    System.out.println("minicluster stopped");
    System.exit(0);
  }
}
