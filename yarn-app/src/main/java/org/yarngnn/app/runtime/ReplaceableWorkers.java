package org.yarngnn.app.runtime;

/**
 * Graph workers that can be started again one at a time (YARN containers): a lost one is reported as a
 * {@link Loss}, and {@link #relaunch} starts another process for the same index, which registers with the driver
 * like any worker. Until {@link #replaceLosses} is called a loss fails the launcher as before ({@link #failure}),
 * so workers lost while they first register end the job.
 */
public interface ReplaceableWorkers extends WorkerLauncher {
  /** Attempt {@code attempt} (0 the first) of worker {@code worker} ended outside the protocol. */
  record Loss(int worker, int attempt, String reason) {}

  /** From now on a loss is reported by {@link #pollLoss}, not by {@link #failure}. */
  void replaceLosses();

  /** The next loss not yet taken, or null. */
  Loss pollLoss();

  /** Starts attempt {@code attempt} of worker {@code worker} (its index and identity stay the worker's). */
  void relaunch(int worker, int attempt) throws Exception;
}
