package org.yarngnn.app.yarn;

/**
 * How one container ended. {@code stoppedByAm} marks containers this ApplicationMaster stopped itself (their exit
 * status is then YARN's "killed by the AM" code, not a failure).
 */
public record ContainerExit(int exitStatus, String diagnostics, boolean stoppedByAm) {
  public boolean succeeded() {
    return exitStatus == 0;
  }
}
