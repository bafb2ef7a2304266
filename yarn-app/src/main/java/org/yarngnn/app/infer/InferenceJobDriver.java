package org.yarngnn.app.infer;

import java.util.List;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.ContainerWorkers;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.app.yarn.DriverContext;
import org.yarngnn.app.yarn.JobDriver;
import org.yarngnn.app.yarn.LaunchContexts;
import org.yarngnn.compute.model.ModelFormatException;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.OutputCommit;

/**
 * The inference job inside the ApplicationMaster: launches the graph-worker containers, runs
 * {@link InferenceDriver}, reports its rounds as YARN progress, and promotes the output ({@code _SUCCESS} last)
 * once every worker wrote its part; on failure the work directory is removed and no part reaches the output.
 * No arguments: the job's {@link InferOptions} come from the localized {@value LaunchContexts#JOB_XML} (the
 * client already read the model; its layer count is in the options, so the AM does not read it). A second
 * attempt (the first attempt's AM died) reads the same options from the same staging directory and continues from
 * the first attempt's checkpoints where they are whole ({@link CheckpointResume}), else runs the job again.
 */
public final class InferenceJobDriver implements JobDriver {
  /** A model shipped through the staging directory: {@code staged:NAME}. */
  public static final String STAGED = "staged:";

  /** A later attempt that continues from the checkpoints takes over the surviving graph workers. */
  @Override
  public boolean adoptsContainers() {
    return true;
  }

  @Override
  public int run(DriverContext ctx) throws Exception {
    InferOptions spec = inStaging(InferOptions.fromConfiguration(LaunchContexts.jobConf()), ctx.stagingDir());
    OutputCommit commit = OutputCommit.resume(ctx.conf(), new Path(spec.get(GraphJobOptions.OUTPUT)),
        new Path(spec.get(GraphJobOptions.WORK_DIR)), spec.get(GraphJobOptions.OVERWRITE));
    if (ctx.committedBefore(commit)) {
      ctx.releasePrevious(java.util.Set.of());
      return 0;
    }
    List<String> hosts = spec.get(GraphJobOptions.GRAPH) == null ? List.of()
        : ContainerWorkers.partitionHosts(ctx.conf(), new Path(spec.get(GraphJobOptions.GRAPH)));
    LayerCheckpoints checkpoints = spec.recovery().writesCheckpoints()
        ? new LayerCheckpoints(ctx.conf(), new Path(spec.recovery().dir())) : null;
    CheckpointResume resume = CheckpointResume.none("this is the first attempt");
    if (ctx.attempt() > 1) {
      // The previous attempt's AM died mid-job: continue from what its checkpoints hold, taking over its surviving
      // workers (WorkerAdoption), else start over from the inputs with its containers released first. Its parts
      // are never kept (the last layer is not checkpointed, so a write is always run again; a survivor deletes
      // its own parts before it writes again).
      resume = checkpoints == null ? CheckpointResume.none("no checkpoints (--checkpoint none)")
          : CheckpointResume.find(checkpoints, spec.getInt(GraphJobOptions.WORKERS),
          spec.getInt(GraphJobOptions.LAYERS), spec.get(GraphJobOptions.GRAPH) == null);
      if (!resume.resumes()) {
        ctx.releasePrevious(java.util.Set.of());
      }
      if (commit.startOver()) {
        ctx.log().println("yarn-gnn infer: the previous ApplicationMaster died in the middle of the commit: put the "
            + "previous output back in " + commit.outputDir() + " until this attempt commits");
      }
      ctx.log().println(resume.describe(ctx.attempt(), spec.getInt(GraphJobOptions.LAYERS)));
      if (checkpoints != null && !resume.resumes()) {
        checkpoints.deleteQuietly(System.err); // the dead attempt's: this one writes its own
      }
    } else {
      ctx.releasePrevious(java.util.Set.of());
    }
    try (ContainerWorkers workers = new ContainerWorkers(ctx.containers(), spec.getInt(GraphJobOptions.WORKER_MEMORY),
        spec.getInt(GraphJobOptions.WORKER_VCORES), hosts, InferenceWorkerMain.class.getName(),
        InferenceWorkerMain.JAVA_OPTS,
        spec.recovery().replacesWorkers())) {
      InferenceDriver.Result r = new InferenceDriver(spec, ctx.transport(), workers, ctx.reporter(), ctx.log())
          .continueAt(resume.layer()).adopting(resume.resumes() ? new WorkerAdoption(ctx) : null)
          .run(spec.getInt(GraphJobOptions.LAYERS));
      ctx.commit(commit);
      if (spec.get(GraphJobOptions.METRICS) != null) {
        RunMetrics.writeOrWarn(ctx.conf(), spec.get(GraphJobOptions.METRICS), RunMetrics.summary("infer", r.seconds(),
            r.workers()),
            System.out, "infer");
      }
      ctx.setProgress(1f, String.format("wrote %,d embeddings", r.written()));
      System.out.println("yarn-gnn infer: " + r);
      return 0;
    } catch (InputException | ModelFormatException e) {
      commit.abort();
      throw new IllegalStateException(BAD_INPUT + e.getMessage());
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    } finally {
      if (checkpoints != null) {
        // In any state: they are the job's, not the output's.
        checkpoints.deleteQuietly(System.err);
      }
    }
  }

  /** The options with a model shipped through staging ({@code staged:NAME}) resolved to its staged copy. */
  public static InferOptions inStaging(InferOptions o, Path stagingDir) {
    // The checkpoints of a job that replaces lost workers live in its staging directory too.
    CommandOptions.Builder<InferOptions> b = InferOptions.withRecovery(o.toBuilder(), o.recovery()
        .inStaging(stagingDir));
    if (o.get(InferOptions.MODEL).startsWith(STAGED)) {
      b.set(InferOptions.MODEL, new Path(stagingDir, o.get(InferOptions.MODEL).substring(STAGED.length())).toString());
    }
    return b.build();
  }
}
