package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.app.InferCommand;
import org.yarngnn.app.graphworker.ContainerWorkers;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.yarn.JobSubmission;
import org.yarngnn.app.yarn.LaunchContexts;
import org.yarngnn.app.yarn.StagingDir;

/** What an {@code infer} job's AM and worker containers are started with: job.xml, not command-line options. */
class InferLaunchContextsTest {
  private static final Pattern BLOB = Pattern.compile("[A-Za-z0-9+/=_-]{40,}");

  @TempDir
  java.nio.file.Path tmp;

  @Test
  void commandLinesCarryNoJobOptionsAndJobXmlIsLocalizedEverywhere() throws Exception {
    java.nio.file.Path modelDir = Files.createDirectories(tmp.resolve("my-model"));
    Files.writeString(modelDir.resolve("model.json"), "{}");
    java.nio.file.Path jar = Files.writeString(tmp.resolve("app.jar"), "jar bytes");
    InferOptions job = InferOptions.builder().set(GraphJobOptions.EDGES,
        "hdfs://nn:8020/data/cora/edges.tsv").set(GraphJobOptions.NODES, "hdfs://nn:8020/data/cora/nodes.tsv.gz")
        .set(GraphJobOptions.WORK_DIR, "hdfs://nn:8020/out/.emb.yarn-gnn-tmp-1").set(GraphJobOptions.WORKERS, 3)
        .set(GraphJobOptions.WORKER_MEMORY, 768).set(GraphJobOptions.WORKER_VCORES, 2).set(GraphJobOptions.THREADS, 2)
        .set(GraphJobOptions.LAYERS, 2).set(GraphJobOptions.SEED, 42)
        .set(InferOptions.MODEL, InferenceJobDriver.STAGED + "my-model").set(GraphJobOptions.OUTPUT,
        "hdfs://nn:8020/out/emb").build();
    JobSubmission s = InferCommand.submission(job, new Path(jar.toString()), modelDir);

    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    // A hook travels in the shipped configuration, never on a command line.
    conf.set(org.yarngnn.app.runtime.FaultHooks.WORKER_KEY, "1@plan");
    conf.set(org.yarngnn.app.yarn.JarCache.DIR_KEY, tmp.resolve("lib").toUri().toString());
    FileSystem fs = FileSystem.getLocal(conf);
    Path staging = new Path(tmp.resolve("staging").toUri());
    StagingDir.populate(conf, fs, staging, s);
    Map<String, LocalResource> resources = LaunchContexts.localResources(fs, staging);
    // The AM and every worker container get the same resources (ContainerPool localizes this very listing).
    assertTrue(resources.containsKey(LaunchContexts.JOB_XML), resources.keySet().toString());
    assertTrue(resources.containsKey(LaunchContexts.JAR_NAME));
    assertTrue(resources.containsKey("my-model"));

    List<String> am = LaunchContexts.command(s);
    // Inference's graph workers as InferenceJobDriver launches them.
    List<String> worker = LaunchContexts.command(ContainerWorkers.spec("am-host.example", 40123,
        job.getInt(GraphJobOptions.WORKERS),
        job.getInt(GraphJobOptions.WORKER_MEMORY), job.getInt(GraphJobOptions.WORKER_VCORES), List.of(),
        InferenceWorkerMain.class.getName(),
        InferenceWorkerMain.JAVA_OPTS));
    for (List<String> cmd : List.of(am, worker)) {
      String line = String.join(" ", cmd);
      for (String input : new String[] {"hdfs:", "/data/", "cora", "my-model", "/out", "staged:", "1@plan"}) {
        assertFalse(line.contains(input), "no " + input + " in " + line);
      }
      assertFalse(BLOB.matcher(line.replaceAll("org\\.yarngnn\\.[A-Za-z.]+", "")).find(), "no blob in " + line);
    }
    assertEquals(List.of(InferenceJobDriver.class.getName()), s.amArgs());
    assertTrue(am.get(0)
        .endsWith("AmMain '" + InferenceJobDriver.class.getName() + "' 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr"),
        am.get(0));
    assertTrue(worker.get(0).contains(InferenceWorkerMain.class.getName() + " 'am-host.example' '40123' 1>"),
        worker.get(0));
    // Inference's graph workers run G1 without concurrent marking; training's (another main class) do not.
    assertTrue(worker.get(0).contains(LaunchContexts.INFER_GC), worker.get(0));
    assertFalse(String.join(" ", am).contains(LaunchContexts.INFER_GC), am.get(0));
    List<String> training = LaunchContexts.command(ContainerWorkers.spec("am-host.example", 40123, 2, 4096, 2,
        List.of(), org.yarngnn.app.train.TrainWorkerMain.class.getName(), ""));
    assertFalse(training.get(0).contains(LaunchContexts.INFER_GC), training.get(0));

    // What a container reads from its working directory is the job, unchanged; a staged model resolves there.
    java.io.File localized = new java.io.File(staging.toUri().getPath(), LaunchContexts.JOB_XML);
    InferOptions read = InferOptions.fromConfiguration(LaunchContexts.jobConf(localized));
    assertEquals(job, read);
    assertEquals(new Path(staging, "my-model").toString(), InferenceJobDriver.inStaging(read, staging)
        .get(InferOptions.MODEL));
    // A model path that is not staged stays; the checkpoints' directory moves into staging.
    assertEquals(InferOptions.withRecovery(job.toBuilder().set(InferOptions.MODEL, "/abs"),
        job.recovery().inStaging(staging)).build(),
        InferenceJobDriver.inStaging(job.toBuilder().set(InferOptions.MODEL, "/abs").build(), staging));
  }
}
