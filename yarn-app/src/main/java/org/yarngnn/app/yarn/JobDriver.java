package org.yarngnn.app.yarn;

/**
 * The job-specific logic inside the ApplicationMaster (inference, training...): launches containers through
 * {@link DriverContext#containers()}, coordinates them, reports progress. Implementations need a public no-argument
 * constructor ({@link AmMain} instantiates them by class name).
 *
 * <p>Returning 0 unregisters the application SUCCEEDED; another value or an exception unregisters it FAILED. When
 * a container fails while {@code run} is active, the pool stops every other container, the waits of
 * {@link ContainerPool} throw {@link ContainerFailedException}, and the application fails with that container's
 * diagnostics whatever {@code run} returns; a driver still busy after {@value ApplicationMaster#GRACE_KEY} ms is
 * interrupted.
 */
public interface JobDriver {
  /**
   * Prefix of the diagnostics of a job refused for bad input: a driver throws with it, the client finds it in the
   * application's diagnostics and exits 2 instead of 1.
   */
  String BAD_INPUT = "bad input: ";

  int run(DriverContext ctx) throws Exception;

  /**
   * Whether this driver may take over the containers an earlier attempt of the application left running: then
   * the ApplicationMaster leaves them to it ({@link DriverContext#previousContainers()},
   * {@link DriverContext#releasePrevious}); else it releases them all before {@link #run}. False by default.
   */
  default boolean adoptsContainers() {
    return false;
  }
}
