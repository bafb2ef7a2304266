package org.yarngnn.app.topk;

import java.util.List;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.ContainerWorkers;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.app.yarn.DriverContext;
import org.yarngnn.app.yarn.JobDriver;
import org.yarngnn.app.yarn.LaunchContexts;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.OutputCommit;

/**
 * The {@code topk} job inside the ApplicationMaster: launches the worker containers ({@link TopkWorkerMain}),
 * runs {@link TopkDriver}, and promotes the output ({@code _SUCCESS} last) once every worker wrote its part; on
 * failure the work directory is removed and nothing reaches the output. The options come from the localized
 * {@value LaunchContexts#JOB_XML}. A later attempt (the first AM died) runs the retrieval again from the tables.
 */
public final class TopkJobDriver implements JobDriver {
  @Override
  public int run(DriverContext ctx) throws Exception {
    TopkOptions o = TopkOptions.fromConfiguration(LaunchContexts.jobConf());
    OutputCommit commit = OutputCommit.resume(ctx.conf(), new Path(o.get(TopkOptions.OUTPUT)),
        new Path(o.get(GraphJobOptions.WORK_DIR)),
        o.get(GraphJobOptions.OVERWRITE));
    ctx.releasePrevious(java.util.Set.of());
    if (ctx.committedBefore(commit)) {
      return 0;
    }
    if (ctx.attempt() > 1) {
      commit.startOver(); // the dead attempt's parts: this one writes every part again
    }
    try (ContainerWorkers workers = new ContainerWorkers(ctx.containers(), o.getInt(GraphJobOptions.WORKER_MEMORY),
        o.getInt(GraphJobOptions.WORKER_VCORES),
        List.of(), TopkWorkerMain.class.getName())) {
      TopkDriver.Result r = new TopkDriver(o, ctx.transport(), workers, ctx.reporter(), ctx.log()).run();
      ctx.commit(commit);
      if (o.get(TopkOptions.METRICS) != null) {
        RunMetrics.writeOrWarn(ctx.conf(), o.get(TopkOptions.METRICS), r.summary(), System.out, "topk");
      }
      ctx.setProgress(1f, String.format("wrote %,d rows for %,d queries", r.rows(), r.queries()));
      System.out.println("yarn-gnn topk: " + r.rows() + " rows" + (r.metrics() == null ? "" : " " + r.metrics()));
      return 0;
    } catch (InputException e) {
      commit.abort();
      // The client turns this prefix of the diagnostics back into exit status 2.
      throw new IllegalStateException(BAD_INPUT + e.getMessage());
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    }
  }
}
