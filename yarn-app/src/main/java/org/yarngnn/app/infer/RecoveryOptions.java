package org.yarngnn.app.infer;

import java.util.Locale;
import org.yarngnn.app.graphworker.GraphJobOptions;

/**
 * How an inference survives a lost graph worker on YARN: {@code --max-worker-failures N} (losses the job replaces
 * in total, default 3; one more fails it; 0: none) and {@code --checkpoint none|layers}, what a replacement resumes
 * from.
 * <ul>
 *   <li>{@code none} (the default): nothing is written while the job runs. A loss is recomputed from the job's
 *       lineage, as Spark recomputes a lost partition: every worker builds the graph again from its inputs and runs
 *       the finished layers again, then the interrupted phase. A fault-free job pays nothing for it; a fault costs
 *       the job's time up to the fault. (Measured on the 1M-node / 20M-edge bench graph in one 2-vcore container:
 *       the per-layer HDFS checkpoints of {@code layers} made the job 19.8-20.5 s against 11.3-11.8 s without,
 *       far above the 10% a fault-free job should pay; see docs/recovery.md.)</li>
 *   <li>{@code layers}: each partition as built from the tables, and its output of every finished layer, are
 *       written under the job's staging directory, so a replacement resumes at the current layer and a second
 *       ApplicationMaster attempt continues at the last finished layer. For jobs whose construction and layers
 *       take far longer than writing their rows.</li>
 * </ul>
 * With {@code --local} workers are threads and a loss is not replaced. {@code dir} is internal: where the job's
 * checkpoints would go, set where the staging directory is known (the ApplicationMaster and each worker
 * container), null elsewhere; it marks a job that runs in containers. Immutable.
 */
record RecoveryOptions(boolean checkpointLayers, int maxWorkerFailures, String dir) {
  /**
   * The checkpoints' directory under an application's staging directory; its leading underscore keeps it out of
   * the containers' local resources (a second AM attempt lists staging with the first attempt's checkpoints in it).
   */
  public static final String STAGING_SUBDIR = "_checkpoints";

  public RecoveryOptions {
    GraphJobOptions.MAX_WORKER_FAILURES.check((long) maxWorkerFailures);
  }

  /** With the checkpoints under {@code stagingDir}. */
  public RecoveryOptions inStaging(org.apache.hadoop.fs.Path stagingDir) {
    return new RecoveryOptions(checkpointLayers, maxWorkerFailures,
        new org.apache.hadoop.fs.Path(stagingDir, STAGING_SUBDIR).toString());
  }

  /** Whether a job with these options replaces lost workers: one in containers that allows any loss. */
  public boolean replacesWorkers() {
    return maxWorkerFailures > 0 && dir != null;
  }

  /**
   * Whether its workers write checkpoints ({@code --checkpoint layers} in a job that replaces workers); else a
   * replacement is recomputed from the inputs.
   */
  public boolean writesCheckpoints() {
    return checkpointLayers && replacesWorkers();
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "checkpoint %s, max %d worker failures%s", checkpointLayers ? "layers" : "none",
        maxWorkerFailures, dir == null ? "" : ", in " + dir);
  }
}
