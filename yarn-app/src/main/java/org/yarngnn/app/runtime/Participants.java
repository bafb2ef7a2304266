package org.yarngnn.app.runtime;

/**
 * The identities participants claim, and prove, in every transport handshake: the driver is {@value #DRIVER},
 * graph worker {@code i} is {@code worker i}. The driver accepts a worker's registration only for the index its
 * connection proved; workers accept peer connections only from proven workers. A new role with its own index space
 * takes its own name here, so it can never pass for a graph worker.
 */
public final class Participants {
  public static final String DRIVER = "driver";

  private Participants() {}

  /** The driver's pool of tensor workers (training's remote tensor backend). */
  public static final String TENSOR_POOL = "tensor pool";

  public static String worker(int index) {
    return "worker " + index;
  }

  /** Whether {@code identity} (a proven one, or null) is a graph worker's. */
  public static boolean isWorker(String identity) {
    return identity != null && identity.matches("worker \\d{1,9}");
  }

  public static String tensorWorker(int id) {
    return "tensor worker " + id;
  }
}
