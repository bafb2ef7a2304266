package org.yarngnn.app.runtime;

/**
 * A round ended because a worker was lost: its connection closed, its container failed, or a peer reported it
 * gone. A job that can go on without it (training restarts its workers from a checkpoint) catches this type only;
 * any other failure, the driver's own included, ends the job.
 */
public final class WorkerLostException extends IllegalStateException {
  public WorkerLostException(String message) {
    super(message);
  }
}
