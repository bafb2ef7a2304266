package org.yarngnn.app.yarn;

/** A worker container exited non-zero, was killed or lost, or could not be started, while the driver ran. */
public final class ContainerFailedException extends Exception {
  private static final long serialVersionUID = 1L;
  private final transient ContainerHandle container;
  private final transient ContainerExit exit;

  ContainerFailedException(ContainerHandle container, ContainerExit exit) {
    super(container + " failed with exit status " + exit.exitStatus() + ": " + exit.diagnostics());
    this.container = container;
    this.exit = exit;
  }

  public ContainerHandle container() {
    return container;
  }

  public ContainerExit exit() {
    return exit;
  }
}
