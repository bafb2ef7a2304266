package org.yarngnn.app.train;

import java.util.List;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.ContainerWorkers;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.app.tensor.ContainerTensorWorkers;
import org.yarngnn.app.yarn.DriverContext;
import org.yarngnn.app.yarn.JobDriver;
import org.yarngnn.app.yarn.LaunchContexts;
import org.yarngnn.compute.model.ModelFormat;
import org.yarngnn.compute.model.ModelFormatException;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.OutputCommit;

/**
 * The training job inside the ApplicationMaster: launches the graph-worker containers running
 * {@link TrainWorkerMain}, runs {@link TrainingDriver} with its parameter server in this JVM, writes the model
 * directory into the commit's work directory and promotes it ({@code _SUCCESS} last); on failure nothing reaches
 * the output. A lost graph-worker container (at most {@code --max-worker-failures} in all) stops the run; a new set
 * of workers then resumes from the last checkpoint, or starts at epoch 1 without one: every worker's state is
 * rebuilt from the tables, since an epoch's rows and gradients are spread over all of them. The options and the spec come from the localized {@value LaunchContexts#JOB_XML}.
 */
public final class TrainJobDriver implements JobDriver {
  /** How long a failed run waits for YARN to report a lost container (survivors may tell the driver first). */
  static final long LOSS_REPORT_WAIT_SECONDS = 20;

  /** The lost graph worker's container, if one was lost (waiting briefly for YARN's report), else null. */
  private static String lostWorker(ContainerWorkers workers) throws InterruptedException {
    try {
      return workers.failure().get(LOSS_REPORT_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
      return null;
    }
  }

  @Override
  public int run(DriverContext ctx) throws Exception {
    TrainOptions opts = TrainOptions.fromConfiguration(LaunchContexts.jobConf());
    OutputCommit commit = OutputCommit.resume(ctx.conf(), new Path(opts.get(GraphJobOptions.OUTPUT)),
        new Path(opts.get(GraphJobOptions.WORK_DIR)), opts.get(GraphJobOptions.OVERWRITE));
    // --link-pairs: the client began its commit too; the workers write their parts, this driver commits it.
    OutputCommit pairs = opts.link() == null || opts.link().pairsWorkDir() == null ? null
        : OutputCommit.resume(ctx.conf(), new Path(opts.link().pairs()), new Path(opts.link().pairsWorkDir()),
            opts.get(GraphJobOptions.OVERWRITE));
    if (ctx.committedBefore(commit)) {
      if (pairs != null && !pairs.committed()) {
        // The previous AM died between the two commits: the workers had written every pair before the model's.
        ctx.commit(pairs);
      }
      // The previous AM may have died before it deleted them.
      org.yarngnn.app.TrainCommand.discard(Checkpoint.of(ctx.conf(), new Path(opts.get(GraphJobOptions.OUTPUT))),
          System.out);
      return 0;
    }
    List<String> hosts = opts.get(GraphJobOptions.GRAPH) == null ? List.of()
        : ContainerWorkers.partitionHosts(ctx.conf(), new Path(opts.get(GraphJobOptions.GRAPH)));
    try {
      ModelSpec spec = ModelFormat.parse(opts.get(TrainOptions.SPEC_JSON), opts.get(TrainOptions.MODEL_SPEC));
      Checkpoint checkpoints = Checkpoint.of(ctx.conf(), new Path(opts.get(GraphJobOptions.OUTPUT)));
      if (ctx.attempt() > 1) {
        // The previous attempt's AM died mid-run: continue from its last checkpoint if it wrote one (the epochs
        // that follow are those of a run never stopped), else start over.
        commit.startOver();
        boolean resume = opts.get(TrainOptions.RESUME) == null && checkpoints.latest() != null;
        ctx.log().println("yarn-gnn train: attempt " + ctx.attempt() + " after the previous ApplicationMaster died: "
            + (resume ? "resuming from " + checkpoints.latest() : opts.get(TrainOptions.RESUME) != null
            ? "resuming again"
            : "no checkpoint, starting over"));
        if (resume) {
          opts = opts.toBuilder().set(TrainOptions.RESUME, opts.get(GraphJobOptions.OUTPUT)).build();
        }
      }
      TrainingDriver.Result r = null;
      for (int losses = 0; r == null; ) {
        // A lost graph worker (killed, preempted, lost node) ends the round; the job then starts a new set of
        // workers from the last checkpoint (the epochs that follow are an undisturbed run's) or from epoch 1.
        ContainerWorkers workers = ContainerWorkers.restartable(ctx.containers(),
            opts.getInt(GraphJobOptions.WORKER_MEMORY),
            opts.getInt(GraphJobOptions.WORKER_VCORES), hosts, TrainWorkerMain.class.getName(), losses);
        ContainerTensorWorkers tensors = opts.get(TrainOptions.TENSOR_BACKEND) == TrainOptions.TensorBackend.REMOTE
            ? new ContainerTensorWorkers(ctx.containers(), opts.getInt(TrainOptions.TENSOR_WORKER_MEMORY),
            opts.getInt(TrainOptions.TENSOR_WORKER_VCORES),
                TensorWorkerMain.class.getName())
            : null;
        try {
          r = new TrainingDriver(opts, spec, ctx.transport(), workers, ctx.reporter(), ctx.log(), checkpoints,
              tensors).faults(ctx.faults()).run();
        } catch (org.yarngnn.app.runtime.WorkerLostException e) {
          // Only a loss YARN confirms is one (not the driver's own failure, after which the workers exit too).
          String lost = lostWorker(workers);
          if (lost == null) {
            throw e;
          }
          if (++losses > opts.getInt(GraphJobOptions.MAX_WORKER_FAILURES)) {
            throw new IllegalStateException(losses + " graph-worker losses, more than --max-worker-failures "
                + opts.getInt(GraphJobOptions.MAX_WORKER_FAILURES) + ": " + lost);
          }
          boolean resume = checkpoints.latest() != null;
          ctx.log().println("yarn-gnn train: lost a graph worker (" + lost + "): starting the workers again ("
              + losses + " of --max-worker-failures " + opts.getInt(GraphJobOptions.MAX_WORKER_FAILURES) + "), "
              + (resume ? "from " + checkpoints.latest() : "from epoch 1"));
          if (resume && opts.get(TrainOptions.RESUME) == null) {
            opts = opts.toBuilder().set(TrainOptions.RESUME, opts.get(GraphJobOptions.OUTPUT)).build();
          }
        } finally {
          workers.stopAll();
          ctx.containers().stopRole(ContainerTensorWorkers.ROLE);
        }
      }
      ModelOutput.write(ctx.conf(), commit.workDir(), r, r.seconds() * opts.getInt(GraphJobOptions.WORKERS),
          opts.prices());
      ctx.commit(commit);
      if (pairs != null) {
        ctx.commit(pairs);
      }
      if (opts.get(GraphJobOptions.METRICS) != null) {
        RunMetrics.writeOrWarn(ctx.conf(), opts.get(GraphJobOptions.METRICS), ModelOutput.summary(r, opts), System.out,
            "train");
      }
      org.yarngnn.app.TrainCommand.discard(checkpoints, System.out);
      ctx.setProgress(1f, "best epoch " + r.bestEpoch());
      return 0;
    } catch (InputException | ModelFormatException e) {
      commit.abort();
      if (pairs != null) {
        pairs.abort();
      }
      throw new IllegalStateException(BAD_INPUT + e.getMessage());
    } catch (Exception | Error e) {
      commit.abort();
      if (pairs != null) {
        pairs.abort();
      }
      throw e;
    }
  }
}
