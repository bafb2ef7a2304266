package org.yarngnn.app.infer;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;

/**
 * How an inference survives a lost graph worker: {@code --checkpoint layers|none} (each partition's output of every
 * finished layer, and a partition built from tables, written under the job's staging directory so a replacement
 * resumes at the current layer; default {@code layers} on YARN, {@code none} with {@code --local}, where workers
 * are threads and a loss is not replaced) and {@code --max-worker-failures N} (losses the job replaces in total,
 * default 3; one more fails it). {@code dir} is internal: where the checkpoints go, set where the staging
 * directory is known (the ApplicationMaster and each worker container), null elsewhere. Immutable.
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

  /** The defaults of a job that runs locally ({@code local}) or on YARN. */
  public static RecoveryOptions defaults(boolean local) {
    return new RecoveryOptions(!local, DEFAULT_MAX_WORKER_FAILURES, null);
  }

  /** Adds {@code --checkpoint} and {@code --max-worker-failures} to {@code spec}. */
  public static OptionSpec addTo(OptionSpec spec) {
    return spec
        .value("checkpoint", "layers|none", "write each partition's output of every finished layer under the "
            + "job's staging directory, so a replaced worker resumes at the current layer (default: layers on "
            + "YARN, none with --local)")
        .value("max-worker-failures", "N", "lost graph-worker containers replaced in total before the job fails "
            + "(default " + DEFAULT_MAX_WORKER_FAILURES + ")");
  }

  /** The options from {@code cl}; {@code local} decides the default of {@code --checkpoint}. */
  public static RecoveryOptions parse(CommandLine cl, boolean local) {
    String mode = cl.get("checkpoint");
    boolean layers;
    if (mode == null || mode.isEmpty()) {
      layers = !local;
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

  /** Whether a job with these options replaces lost workers (a replacement needs the checkpoints). */
  public boolean replacesWorkers() {
    return checkpointLayers && maxWorkerFailures > 0 && dir != null;
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
