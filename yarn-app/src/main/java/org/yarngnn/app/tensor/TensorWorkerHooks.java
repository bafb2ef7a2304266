package org.yarngnn.app.tensor;

import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.runtime.TestHooks;

/**
 * Test hooks of tensor workers, from the job's configuration: {@value #HALT_AFTER_KEY} = N makes tensor worker 0
 * die abruptly on taking task N + 1 (a container halts with 137, a thread drops its connections), as a kill
 * would; {@value #SLOW_TASKS_KEY} = "N:MS" makes every tensor worker's first N tasks take MS ms longer (cold
 * containers, for the pool's growth). None is set in a real run.
 */
public record TensorWorkerHooks(long haltAfter, long slowTasks, long slowMillis) {
  public static final String HALT_AFTER_KEY = "yarngnn.test.halt-tensor-worker-after";
  public static final String SLOW_TASKS_KEY = "yarngnn.test.slow-tensor-tasks";
  public static final TensorWorkerHooks NONE = new TensorWorkerHooks(-1, 0, 0);

  /** The hooks of tensor worker {@code id} in the job {@code conf}. */
  public static TensorWorkerHooks of(Configuration conf, int id) {
    long halt = id == 0 ? TestHooks.getLong(conf, HALT_AFTER_KEY, -1) : -1;
    String slow = java.util.Objects.requireNonNullElse(TestHooks.get(conf, SLOW_TASKS_KEY), "");
    long n = 0;
    long ms = 0;
    if (!slow.isEmpty()) {
      String[] p = slow.split(":");
      if (p.length != 2) {
        throw new IllegalArgumentException(SLOW_TASKS_KEY + " must be N:MS, not " + slow);
      }
      n = Long.parseLong(p[0]);
      ms = Long.parseLong(p[1]);
    }
    return new TensorWorkerHooks(halt, n, ms);
  }
}
