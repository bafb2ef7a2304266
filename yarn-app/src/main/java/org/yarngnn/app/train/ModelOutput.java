package org.yarngnn.app.train;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.compute.json.Json;
import org.yarngnn.compute.model.ModelDirectory;
import org.yarngnn.io.model.ModelFiles;

/** Writes a training's model directory (model.json, weights.safetensors, metrics.json) into a commit's work dir. */
public final class ModelOutput {
  public static final String METRICS = "metrics.json";

  private ModelOutput() {}

  /**
   * The files of {@code r} in {@code dir}; {@code graphWorkerSeconds} is what metrics.json reports for them,
   * {@code prices} the USD per container hour of graph workers, tensor workers and parameter servers.
   */
  /** {@code --metrics}' summary of a training run: the run's figures and, under "training", its metrics.json. */
  public static java.util.Map<String, Object> summary(TrainingDriver.Result r, TrainOptions job) {
    java.util.Map<String, Object> m = org.yarngnn.app.runtime.RunMetrics.summary("train", r.seconds(), r.workers());
    m.put("training", TrainingDriver.metrics(r, r.seconds() * job.getInt(GraphJobOptions.WORKERS), job.prices()));
    return m;
  }

  public static void write(Configuration conf, Path dir, TrainingDriver.Result r, double graphWorkerSeconds,
      double[] prices) throws IOException {
    FileSystem fs = dir.getFileSystem(conf);
    try (OutputStream json = fs.create(new Path(dir, ModelFiles.SPEC), true);
        OutputStream weights = new java.io.BufferedOutputStream(fs.create(new Path(dir, ModelFiles.WEIGHTS), true),
            1 << 16)) {
      ModelDirectory.write(r.model(), json, weights);
    }
    try (OutputStream m = fs.create(new Path(dir, METRICS), true)) {
      m.write(Json.write(TrainingDriver.metrics(r, graphWorkerSeconds, prices)).getBytes(StandardCharsets.UTF_8));
    }
  }
}
