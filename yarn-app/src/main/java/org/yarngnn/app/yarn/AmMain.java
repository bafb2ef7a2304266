package org.yarngnn.app.yarn;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The ApplicationMaster's entry point: {@code AmMain <JobDriver class> [driver args...]}. Exit status 0 when the
 * application unregistered SUCCEEDED, 1 otherwise.
 */
public final class AmMain {
  private AmMain() {}

  public static void main(String[] args) {
    int rc;
    try {
      if (args.length == 0) {
        throw new IllegalArgumentException("usage: AmMain <JobDriver class> [args...]");
      }
      JobDriver driver = Class.forName(args[0]).asSubclass(JobDriver.class).getDeclaredConstructor().newInstance();
      List<String> driverArgs = Arrays.asList(args).subList(1, args.length);
      rc = new ApplicationMaster(new YarnConfiguration(), driver, driverArgs).run();
    } catch (Throwable t) {
      System.err.println("yarn-gnn AM failed before it could unregister:");
      t.printStackTrace(); // the AM container's stderr log only: AmMain runs nowhere but in the AM container
      rc = 1;
    }
    System.exit(rc);
  }
}
