package org.yarngnn.app;

import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.graphworker.ThreadWorkers;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.app.tensor.ThreadTensorWorkers;
import org.yarngnn.app.train.Checkpoint;
import org.yarngnn.app.train.LinkOptions;
import org.yarngnn.app.train.ModelOutput;
import org.yarngnn.app.train.TrainJobDriver;
import org.yarngnn.app.train.TrainOptions;
import org.yarngnn.app.train.TrainWorker;
import org.yarngnn.app.train.TrainingDriver;
import org.yarngnn.app.yarn.JobResult;
import org.yarngnn.app.yarn.JobSubmission;
import org.yarngnn.app.yarn.YarnJobClient;
import org.yarngnn.compute.model.ModelFormat;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.train.Parameters;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.PathOverlap;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.format.PartitionedGraph;

/**
 * {@code train}: a model directory trained on the graph's {@code train} rows, with the workers as threads of this
 * JVM ({@code --local}) or as YARN containers; the parameter server runs in the driver.
 */
public final class TrainCommand implements Command {
  /** Graph workers without --workers (nor a partitioned graph, which has one per partition). */
  private static final int LOCAL_DEFAULT_WORKERS = 1;
  private static final int YARN_DEFAULT_WORKERS = 2;

  @Override
  public OptionSpec options() {
    return TrainOptions.optionSpec();
  }

  @Override
  public int run(CommandLine cl, PrintStream out) throws Exception {
    TrainOptions o = TrainOptions.fromCommandLine(cl);
    GraphJobOptions g = o.job();
    PathOverlap.check(cl.conf(), "--output", g.get(GraphJobOptions.OUTPUT), "--edges", g.get(GraphJobOptions.EDGES),
        "--nodes", g.get(GraphJobOptions.NODES), "--graph",
        g.get(GraphJobOptions.GRAPH), "--model-spec", o.get(TrainOptions.MODEL_SPEC));
    if (o.link() != null) {
      PathOverlap.check(cl.conf(), "--link-pairs", o.link().pairs(), "--output", g.get(GraphJobOptions.OUTPUT),
          "--edges", g.get(GraphJobOptions.EDGES),
          "--nodes", g.get(GraphJobOptions.NODES), "--graph", g.get(GraphJobOptions.GRAPH), "--model-spec",
          o.get(TrainOptions.MODEL_SPEC));
      checkOneSplitSource(cl, g);
    }
    RunMetrics.check(cl.conf(), g.get(GraphJobOptions.METRICS), g.get(GraphJobOptions.OUTPUT), "--edges",
        g.get(GraphJobOptions.EDGES), "--nodes", g.get(GraphJobOptions.NODES), "--graph",
        g.get(GraphJobOptions.GRAPH), "--model-spec", o.get(TrainOptions.MODEL_SPEC));
    if (cl.flag("dry-run")) {
      TrainOptions checked = validate(cl.conf(), o);
      DryRun.print(cl.conf(), "train", g, ModelFormat.parse(checked.get(TrainOptions.SPEC_JSON),
          o.get(TrainOptions.MODEL_SPEC)), out,
          DryRun.trainPlan(o), o.getInt(TrainOptions.EPOCHS), false, true);
      return Main.OK;
    }
    return o.get(GraphJobOptions.LOCAL) ? runLocal(cl.conf(), o, out) : runOnYarn(cl.conf(), o, out);
  }

  /**
   * Refuses {@code --link-split} beside an edges table with a split column (exit 2): the column decides every
   * edge's split, so fractions given too would be silently ignored.
   */
  private static void checkOneSplitSource(CommandLine cl, GraphJobOptions g) {
    String edges = g.get(GraphJobOptions.EDGES);
    if (edges != null && cl.has("link-split") && EdgeTable.open(cl.conf(), edges,
        TableReadOptions.builder().format(g.get(GraphJobOptions.EDGES_FORMAT)).build()).hasSplit()) {
      throw new UsageException("option --link-split: the edges table " + edges + " has a split column, which "
          + "decides each edge's split: give one or the other");
    }
  }

  /**
   * Reads and checks the spec (a model.json without weights, predicting) and the tables' feature width: what can
   * be refused before anything runs. Returns the options with the spec's text.
   */
  static TrainOptions validate(Configuration conf, TrainOptions o) throws Exception {
    Path given = new Path(o.get(TrainOptions.MODEL_SPEC));
    Path file = ModelFiles.specFile(conf, given);
    FileSystem fs = file.getFileSystem(conf);
    Path weights = new Path(file.getParent(), ModelFiles.WEIGHTS);
    if (fs.exists(weights)) {
      throw new InputException("--model-spec " + o.get(TrainOptions.MODEL_SPEC) + ": " + weights
          + " is beside it: the spec of a "
          + "training is a model.json without weights (training starts from fresh weights; copy the model.json "
          + "alone)");
    }
    String json = ModelFiles.readSpecText(conf, file);
    ModelSpec spec = ModelFormat.parse(json, file.toString());
    int beyond = Parameters.firstLayerBeyondLimit(spec);
    if (beyond >= 0) {
      throw new InputException(String.format(java.util.Locale.ROOT, "%s: layer %d (%s): the model's parameters "
          + "pass %,d, the most training's one parameter array holds", file, beyond,
          spec.layers().get(beyond).type().jsonName(), Parameters.MAX_VALUES));
    }
    if (!spec.predict() && o.link() == null) {
      throw new InputException(file + ": output.predict is false: train needs a classifier, \"output\": "
          + "{\"predict\": true}, whose last layer's width is the number of classes");
    }
    GraphJobOptions g = o.job();
    int width;
    String features;
    if (g.get(GraphJobOptions.GRAPH) != null) {
      PartitionedGraph pg = PartitionedGraph.open(conf, new Path(g.get(GraphJobOptions.GRAPH)));
      if (g.getInt(GraphJobOptions.WORKERS) != 0 && g.getInt(GraphJobOptions.WORKERS) != pg.parts()) {
        throw new UsageException("--graph " + g.get(GraphJobOptions.GRAPH) + " has " + pg.parts()
            + " partitions: run it with "
            + "--workers " + pg.parts() + " (one worker loads each partition)");
      }
      width = pg.featureWidth();
      features = g.get(GraphJobOptions.GRAPH);
    } else {
      EdgeTable.open(conf, g.get(GraphJobOptions.EDGES), TableReadOptions.builder()
          .format(g.get(GraphJobOptions.EDGES_FORMAT)).build());
      NodeTable nodes = NodeTable.open(conf, g.get(GraphJobOptions.NODES), TableReadOptions.builder()
          .format(g.get(GraphJobOptions.NODES_FORMAT)).build());
      width = nodes.featureWidth();
      features = g.get(GraphJobOptions.NODES);
    }
    if (width != spec.inputWidth()) {
      throw new InputException(file + ": the model's input width " + spec.inputWidth() + " differs from the "
          + "feature width " + width + " of " + features);
    }
    return o.toBuilder().set(TrainOptions.SPEC_JSON, json).build();
  }

  /**
   * The run's checkpoints ({@code .OUT.yarn-gnn-checkpoint} beside the output). With {@code --resume} the
   * directory must be the output (when {@code --output} is given too) and hold a checkpoint; without it, a
   * stopped run's leftover checkpoint is refused, or deleted with {@code --overwrite}. Before anything is written.
   */
  static Checkpoint checkpoints(Configuration conf, TrainOptions o) throws java.io.IOException {
    Checkpoint c = Checkpoint.of(conf, new Path(o.get(GraphJobOptions.OUTPUT)));
    if (o.get(TrainOptions.RESUME) != null) {
      FileSystem fs = new Path(o.get(GraphJobOptions.OUTPUT)).getFileSystem(conf);
      Path resume = new Path(o.get(TrainOptions.RESUME));
      if (!fs.makeQualified(resume).equals(fs.makeQualified(new Path(o.get(GraphJobOptions.OUTPUT))))) {
        throw new UsageException("--resume " + o.get(TrainOptions.RESUME) + " continues the run whose output is "
            + o.get(TrainOptions.RESUME) + ": leave --output out or give the same directory, not "
            + o.get(GraphJobOptions.OUTPUT));
      }
      if (c.latest() == null) {
        throw new InputException("--resume " + o.get(TrainOptions.RESUME) + ": no checkpoint in " + c.dir()
            + " (a run leaves "
            + "one after its first --checkpoint-every epoch until it succeeds; a finished run leaves none)");
      }
    } else if (c.exists()) {
      if (!o.get(GraphJobOptions.OVERWRITE)) {
        String output = o.get(GraphJobOptions.OUTPUT);
        throw new InputException(output + ": the checkpoint of a stopped run is beside it, in " + c.dir()
            + ": continue that run with --resume " + output + ", or start afresh with --overwrite (which "
            + "deletes it)");
      }
      c.discard();
    }
    return c;
  }

  /** After the commit: the checkpoints are of no more use (a failure to delete them only warns). */
  public static void discard(Checkpoint c, PrintStream out) {
    try {
      c.discard();
    } catch (java.io.IOException | RuntimeException e) {
      out.println("yarn-gnn train: warning: could not delete the checkpoints in " + c.dir() + ": " + e.getMessage());
    }
  }

  /** The job: workers resolved, the layer count, the commit's work directory. */
  static TrainOptions job(Configuration conf, TrainOptions o, Path workDir, int defaultWorkers) {
    GraphJobOptions g = o.job();
    int workers = g.getInt(GraphJobOptions.WORKERS) != 0 ? g.getInt(GraphJobOptions.WORKERS)
        : g.get(GraphJobOptions.GRAPH) != null ? PartitionedGraph.open(conf, new Path(g.get(GraphJobOptions.GRAPH)))
        .parts() : defaultWorkers;
    ModelSpec spec = ModelFormat.parse(o.get(TrainOptions.SPEC_JSON), o.get(TrainOptions.MODEL_SPEC));
    return o.toBuilder().set(GraphJobOptions.WORKERS, workers).set(GraphJobOptions.LAYERS, spec.layers().size())
        .set(GraphJobOptions.WORK_DIR, workDir.toString()).build();
  }

  private int runLocal(Configuration conf, TrainOptions given, PrintStream out) throws Exception {
    TrainOptions o = validate(conf, given);
    ModelSpec spec = ModelFormat.parse(o.get(TrainOptions.SPEC_JSON), o.get(TrainOptions.MODEL_SPEC));
    DryRun.requireHeap(conf, o.job(), spec, o.getInt(TrainOptions.EPOCHS), LOCAL_DEFAULT_WORKERS);
    Checkpoint checkpoints = checkpoints(conf, o);
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.get(GraphJobOptions.OUTPUT)),
        o.get(GraphJobOptions.OVERWRITE)).abortOnExit();
    OutputCommit pairs = null;
    try {
      pairs = beginPairs(conf, o);
      if (pairs != null) {
        pairs.abortOnExit();
      }
      TrainOptions job = job(conf, withPairs(o, pairs), commit.workDir(), LOCAL_DEFAULT_WORKERS);
      TrainingDriver.Result r;
      JobTransport transport = JobTransport.local(conf);
      try (ThreadWorkers launcher = new ThreadWorkers((i, host, port) -> TrainWorker.serve(conf, job, spec, i, host,
          port, transport))) {
        ThreadTensorWorkers tensors = job.get(TrainOptions.TENSOR_BACKEND) == TrainOptions.TensorBackend.REMOTE
            ? new ThreadTensorWorkers(spec, job.getInt(TrainOptions.TENSOR_WORKER_VCORES), transport, conf)
            : null;
        r = new TrainingDriver(job, spec, transport, launcher, null, out, checkpoints, tensors)
            .faults(org.yarngnn.app.runtime.FaultHooks.of(conf)).run();
      }
      ModelOutput.write(conf, commit.workDir(), r, r.seconds() * job.getInt(GraphJobOptions.WORKERS), job.prices());
      commit.commit();
      if (pairs != null) {
        pairs.commit();
      }
      if (job.get(GraphJobOptions.METRICS) != null) {
        RunMetrics.writeOrWarn(conf, job.get(GraphJobOptions.METRICS), ModelOutput.summary(r, job), out, "train");
      }
      JobCommands.printStats(out, "train", r.workers());
      discard(checkpoints, out);
      if (r.link()) {
        out.printf(java.util.Locale.ROOT, "yarn-gnn train: best epoch %d of %d: val auc %.4f, test auc %.4f ap %.4f "
            + "mrr %.4f hits@10 %.4f; wrote %s%n", r.bestEpoch(), r.epochs().size(), r.bestLinkVal().auc(),
            r.bestLinkTest().auc(), r.bestLinkTest().ap(), r.bestLinkTest().mrr(), r.bestLinkTest().hits10(),
            commit.outputDir());
        if (pairs != null) {
          out.println("yarn-gnn train: wrote the evaluation pairs to " + pairs.outputDir());
        }
      } else {
        summary(out, r.bestEpoch(), r.bestValAccuracy(), r.bestTestAccuracy(), r.epochs().size(),
            commit.outputDir());
      }
      return Main.OK;
    } catch (Exception | Error e) {
      commit.abort();
      if (pairs != null) {
        pairs.abort();
      }
      throw e;
    }
  }

  /** {@code --link-pairs DIR}: its commit, begun before anything runs (an existing DIR needs --overwrite); or null. */
  static OutputCommit beginPairs(Configuration conf, TrainOptions o) {
    return o.link() == null || o.link().pairs() == null ? null
        : OutputCommit.begin(conf, new Path(o.link().pairs()), o.get(GraphJobOptions.OVERWRITE));
  }

  /** The options with {@code pairs}' work directory, where the workers write their parts (unchanged when null). */
  static TrainOptions withPairs(TrainOptions o, OutputCommit pairs) {
    if (pairs == null) {
      return o;
    }
    return o.toBuilder().set(LinkOptions.PAIRS, pairs.outputDir().toString())
        .set(LinkOptions.PAIRS_WORK_DIR, pairs.workDir().toString()).build();
  }

  private static void summary(PrintStream out, int bestEpoch, double val, double test, int epochs, Path dir) {
    out.printf(java.util.Locale.ROOT, "yarn-gnn train: best epoch %d of %d: val %.4f test %.4f; wrote %s%n",
        bestEpoch, epochs, val, test, dir);
  }

  /** Submits the job to YARN: the AM runs the driver and the parameter server, the graph workers run in containers. */
  private int runOnYarn(Configuration clientConf, TrainOptions given, PrintStream out) throws Exception {
    Configuration conf = new YarnConfiguration(clientConf);
    TrainOptions o = validate(conf, given);
    DryRun.requireHeap(conf, o.job(), ModelFormat.parse(o.get(TrainOptions.SPEC_JSON), o.get(TrainOptions.MODEL_SPEC)),
        o.getInt(TrainOptions.EPOCHS),
        YARN_DEFAULT_WORKERS);
    Checkpoint checkpoints = checkpoints(conf, o);
    GraphJobOptions g = o.job();
    CommandOptions.Builder<TrainOptions> qualified = o.toBuilder().set(GraphJobOptions.THREADS,
        g.getInt(GraphJobOptions.WORKER_VCORES));
    if (g.get(GraphJobOptions.EDGES) != null) {
      qualified.set(GraphJobOptions.EDGES, JobCommands.onCluster(conf, g.get(GraphJobOptions.EDGES), "edges"))
          .set(GraphJobOptions.NODES, JobCommands.onCluster(conf, g.get(GraphJobOptions.NODES), "nodes"));
    }
    if (g.get(GraphJobOptions.GRAPH) != null) {
      qualified.set(GraphJobOptions.GRAPH, JobCommands.onCluster(conf, g.get(GraphJobOptions.GRAPH), "graph"));
    }
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.get(GraphJobOptions.OUTPUT)),
        g.get(GraphJobOptions.OVERWRITE));
    OutputCommit pairs = null;
    try {
      pairs = beginPairs(conf, o);
      TrainOptions job = job(conf, withPairs(qualified.set(GraphJobOptions.OUTPUT, commit.outputDir().toString())
          .build(), pairs), commit.workDir(), YARN_DEFAULT_WORKERS);
      // A resumed run prints the epochs after its checkpoint's, as --local does.
      int resumedEpoch = 0;
      if (job.get(TrainOptions.RESUME) != null) {
        // Refused here, before a container starts (the ApplicationMaster checks again, and the graph's size).
        ModelSpec spec = ModelFormat.parse(job.get(TrainOptions.SPEC_JSON), job.get(TrainOptions.MODEL_SPEC));
        Checkpoint.State resumed = checkpoints.read(spec);
        checkpoints.checkOptions(resumed, job, spec);
        resumedEpoch = resumed.epoch();
      }
      JobSubmission submission = JobSubmission.builder().appName(job.get(GraphJobOptions.NAME))
          .queue(job.get(GraphJobOptions.QUEUE))
          .jar(JobCommands.shippedJar(conf)).amMemoryMb(512).jobConf(job.toConfiguration())
          .accesses(job.job().accessedPaths()).accesses(checkpoints.dir().toString(), job.get(TrainOptions.RESUME))
          .accesses(pairs == null ? null : pairs.outputDir().toString())
          .driver(TrainJobDriver.class.getName(), List.of()).build();
      EpochLines epochLines = new EpochLines(out, resumedEpoch);
      JobResult r = new YarnJobClient(conf, out).onEpochs(epochLines::print).run(submission);
      if (r.succeeded()) {
        commit.finish(); // the ApplicationMaster's done mark, kept until the job's outcome is known
        if (pairs != null) {
          pairs.finish();
        }
        Path metrics = new Path(commit.outputDir(), ModelOutput.METRICS);
        java.util.Map<?, ?> m;
        try (java.io.InputStream in = metrics.getFileSystem(conf).open(metrics)) {
          m = (java.util.Map<?, ?>) org.yarngnn.compute.json.Json.parse(new String(in.readAllBytes(),
              java.nio.charset.StandardCharsets.UTF_8));
        }
        // The last epochs may end after the client's last read of the ApplicationMaster's status.
        epochLines.print((List<?>) m.get("epochs"));
        out.printf("yarn-gnn train: application %s SUCCEEDED: wrote %s%n", r.applicationId(), commit.outputDir());
        printBest(out, m);
        if (pairs != null) {
          out.println("yarn-gnn train: wrote the evaluation pairs to " + pairs.outputDir());
        }
        return Main.OK;
      }
      commit.abort();
      if (pairs != null) {
        pairs.abort();
      }
      throw JobCommands.failed(r);
    } catch (Exception | Error e) {
      commit.abort();
      if (pairs != null) {
        pairs.abort();
      }
      throw e;
    }
  }

  /**
   * The epoch lines of a YARN run, each printed once and in order: those the ApplicationMaster's status file
   * carries while the job runs ({@link YarnJobClient#onEpochs}), then what metrics.json adds at the end. An epoch
   * run again (the workers started anew from a checkpoint, or from epoch 1) is not printed again: the run's
   * epochs after a restart are those of a run never stopped.
   */
  static final class EpochLines {
    private final PrintStream out;
    private int printed;

    /** Prints the epochs after {@code printed} (0, or the epoch of the checkpoint a run resumes from). */
    EpochLines(PrintStream out, int printed) {
      this.out = out;
      this.printed = printed;
    }

    /** Prints those of {@code epochs} (figures as metrics.json has them) after the last one printed. */
    synchronized void print(List<?> epochs) {
      for (Object o : epochs) {
        TrainingDriver.Epoch e = TrainingDriver.Epoch.fromFigures((java.util.Map<?, ?>) o);
        if (e.epoch() > printed) {
          out.println("yarn-gnn train: " + e.line());
          printed = e.epoch();
        }
      }
    }
  }

  /** The best epoch's line of a YARN run, from its metrics.json. */
  private static void printBest(PrintStream out, java.util.Map<?, ?> m) {
    java.util.Map<?, ?> best = (java.util.Map<?, ?>) m.get("best");
    if (best.containsKey("test_auc")) {
      // As --local prints it; a figure of an empty set is null in metrics.json and prints as such.
      out.printf(java.util.Locale.ROOT, "yarn-gnn train: best epoch %d: val auc %s, test auc %s ap %s%n",
          ((Number) m.get("best_epoch")).intValue(), four(best.get("val_auc")), four(best.get("test_auc")),
          four(best.get("test_ap")));
      return;
    }
    out.printf(java.util.Locale.ROOT, "yarn-gnn train: best epoch %d: val %.4f test %.4f%n",
        ((Number) m.get("best_epoch")).intValue(), num(best, "val_accuracy"), num(best, "test_accuracy"));
  }

  private static String four(Object figure) {
    return figure instanceof Number n ? String.format(java.util.Locale.ROOT, "%.4f", n.doubleValue())
        : String.valueOf(figure);
  }

  private static double num(java.util.Map<?, ?> m, String key) {
    return ((Number) m.get(key)).doubleValue();
  }
}
