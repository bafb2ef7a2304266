package org.yarngnn.app.infer;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;

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
public record RecoveryOptions(boolean checkpointLayers, int maxWorkerFailures, String dir) {
  public static final int DEFAULT_MAX_WORKER_FAILURES = 3;
  /** More than any job should survive; past it a cluster is broken, not unlucky. */
  static final int MOST_WORKER_FAILURES = 1000;
  /**
   * The checkpoints' directory under an application's staging directory; its leading underscore keeps it out of
   * the containers' local resources (a second AM attempt lists staging with the first attempt's checkpoints in it).
   */
  public static final String STAGING_SUBDIR = "_checkpoints";

  public RecoveryOptions {
    if (maxWorkerFailures < 0 || maxWorkerFailures > MOST_WORKER_FAILURES) {
      throw new UsageException("option --max-worker-failures must be between 0 and " + MOST_WORKER_FAILURES
          + ", not " + maxWorkerFailures);
    }
  }

  /** The defaults of a job, the same locally and on YARN (locally nothing is replaced: {@code dir} stays null). */
  public static RecoveryOptions defaults() {
    return new RecoveryOptions(false, DEFAULT_MAX_WORKER_FAILURES, null);
  }

  /** Adds {@code --checkpoint} and {@code --max-worker-failures} to {@code spec}. */
  public static OptionSpec addTo(OptionSpec spec) {
    return spec
        .value("checkpoint", "none|layers", "what a replaced graph worker resumes from: none (default) builds the "
            + "graph again and reruns the finished layers on every worker, at no cost until a fault; layers writes "
            + "each partition and its output of every finished layer under the job's staging directory, so a "
            + "replacement resumes at the current layer")
        .value("max-worker-failures", "N", "lost graph-worker containers replaced in total before the job fails "
            + "(default " + DEFAULT_MAX_WORKER_FAILURES + ")");
  }

  /** The options from {@code cl}. */
  public static RecoveryOptions parse(CommandLine cl) {
    String mode = cl.get("checkpoint");
    boolean layers;
    if (mode == null || mode.isEmpty()) {
      layers = false;
    } else if (mode.equals("layers") || mode.equals("none")) {
      layers = mode.equals("layers");
    } else {
      throw new UsageException("--checkpoint must be layers or none, not '" + mode + "'");
    }
    long max = cl.getLong("max-worker-failures", DEFAULT_MAX_WORKER_FAILURES);
    if (max < 0 || max > MOST_WORKER_FAILURES) {
      throw new UsageException("option --max-worker-failures must be between 0 and " + MOST_WORKER_FAILURES
          + ", not " + max);
    }
    return new RecoveryOptions(layers, (int) max, null);
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

  /** Writes both options under their keys ({@code dir} stays out: each side derives it from its staging). */
  public void toConfiguration(Configuration c) {
    c.set(CommandLine.KEY_PREFIX + "checkpoint", checkpointLayers ? "layers" : "none");
    c.set(CommandLine.KEY_PREFIX + "max-worker-failures", Integer.toString(maxWorkerFailures));
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "checkpoint %s, max %d worker failures%s", checkpointLayers ? "layers" : "none",
        maxWorkerFailures, dir == null ? "" : ", in " + dir);
  }
}
