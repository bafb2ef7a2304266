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
import org.yarngnn.app.infer.InferOptions;
import org.yarngnn.app.infer.InferenceDriver;
import org.yarngnn.app.infer.InferenceJobDriver;
import org.yarngnn.app.infer.InferenceWorker;
import org.yarngnn.app.infer.NodewiseBaseline;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.app.yarn.JobResult;
import org.yarngnn.app.yarn.JobSubmission;
import org.yarngnn.app.yarn.YarnJobClient;
import org.yarngnn.compute.model.Model;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.IdTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.PathOverlap;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.format.PartitionedGraph;

/** {@code infer}: embeddings of every node, in one JVM ({@code --local}, the embedded default) or on YARN. */
public final class InferCommand implements Command {
  @Override
  public OptionSpec options() {
    return InferOptions.optionSpec();
  }

  @Override
  public int run(CommandLine cl, PrintStream out) throws Exception {
    InferOptions options = InferOptions.fromCommandLine(cl);
    PathOverlap.check(cl.conf(), "--output", options.get(GraphJobOptions.OUTPUT), "--edges",
        options.get(GraphJobOptions.EDGES), "--nodes",
        options.get(GraphJobOptions.NODES), "--graph", options.get(GraphJobOptions.GRAPH), "--model",
        options.get(InferOptions.MODEL), "--targets",
            options.get(InferOptions.TARGETS));
    RunMetrics.check(cl.conf(), options.get(GraphJobOptions.METRICS), options.get(GraphJobOptions.OUTPUT), "--edges",
        options.get(GraphJobOptions.EDGES),
        "--nodes",
        options.get(GraphJobOptions.NODES), "--graph", options.get(GraphJobOptions.GRAPH), "--model",
        options.get(InferOptions.MODEL), "--targets",
            options.get(InferOptions.TARGETS));
    if (cl.flag("dry-run")) {
      DryRun.print(cl.conf(), "infer", options, validate(cl.conf(), options).spec(), out, null);
      return Main.OK;
    }
    if (options.get(InferOptions.STRATEGY) == InferOptions.Strategy.NODEWISE) {
      NodewiseBaseline.Result r = new NodewiseBaseline(cl.conf(), options, out).run();
      out.printf("yarn-gnn infer: wrote %,d embeddings of width %d to %s (%d part files) in %.1f s%n",
          r.nodes(), r.width(), new Path(options.get(GraphJobOptions.OUTPUT)), r.parts(), r.seconds());
      if (options.get(GraphJobOptions.METRICS) != null) {
        RunMetrics.writeOrWarn(cl.conf(), options.get(GraphJobOptions.METRICS), RunMetrics.summary("infer", r.seconds(),
            List.of()),
            out, "infer");
      }
      return Main.OK;
    }
    return options.get(GraphJobOptions.LOCAL) ? runLocal(cl.conf(), options, out) : runOnYarn(cl.conf(), options, out);
  }

  /**
   * Checks everything that can be refused before anything runs, reading the model (the only read of it in this
   * JVM); returns the model.
   */
  static Model validate(Configuration conf, InferOptions o) throws Exception {
    Model model = ModelFiles.read(conf, new Path(o.get(InferOptions.MODEL)));
    if (o.get(InferOptions.TARGETS) != null) {
      // Every worker reads it again; here only that it exists and has a row (an empty targets table is refused).
      IdTable.open(conf, o.get(InferOptions.TARGETS), TableReadOptions.builder()
          .format(o.get(InferOptions.TARGETS_FORMAT)).build(), "targets");
    }
    if (o.get(GraphJobOptions.GRAPH) != null) {
      PartitionedGraph g = PartitionedGraph.open(conf, new Path(o.get(GraphJobOptions.GRAPH)));
      ModelFiles.checkInputWidth(model, o.get(InferOptions.MODEL), g.featureWidth(), o.get(GraphJobOptions.GRAPH));
      int workers = o.getInt(GraphJobOptions.WORKERS) == 0 ? g.parts() : o.getInt(GraphJobOptions.WORKERS);
      if (workers != g.parts()) {
        throw new UsageException("--graph " + o.job()
            .get(GraphJobOptions.GRAPH) + " has " + g.parts() + " partitions: run it with --workers "
            + g.parts() + " (one worker loads each partition)");
      }
      return model;
    }
    EdgeTable.open(conf, o.get(GraphJobOptions.EDGES), TableReadOptions.builder()
        .format(o.get(GraphJobOptions.EDGES_FORMAT)).build());
    NodeTable nodes = NodeTable.open(conf, o.get(GraphJobOptions.NODES),
        TableReadOptions.builder().format(o.get(GraphJobOptions.NODES_FORMAT)).build());
    ModelFiles.checkInputWidth(model, o.get(InferOptions.MODEL), nodes.featureWidth(), o.get(GraphJobOptions.NODES));
    return model;
  }

  /** The job the driver and the workers run: workers resolved, the model's layer count, the commit's work dir. */
  static InferOptions job(Configuration conf, InferOptions o, Model model, Path workDir, int defaultWorkers) {
    int workers = o.getInt(GraphJobOptions.WORKERS) != 0 ? o.getInt(GraphJobOptions.WORKERS)
        : o.get(GraphJobOptions.GRAPH) != null ? graphParts(conf,
        o) : defaultWorkers;
    CommandOptions.Builder<InferOptions> b = o.toBuilder();
    b.set(GraphJobOptions.WORKERS, workers).set(GraphJobOptions.LAYERS, model.spec().layers().size())
        .set(GraphJobOptions.WORK_DIR, workDir.toString());
    return b.build();
  }

  private int runLocal(Configuration conf, InferOptions o, PrintStream out) throws Exception {
    Model model = validate(conf, o);
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.get(GraphJobOptions.OUTPUT)),
        o.get(GraphJobOptions.OVERWRITE)).abortOnExit();
    try {
      InferOptions job = job(conf, o, model, commit.workDir(), 1);
      InferenceDriver.Result r;
      // The thread workers share this JVM's model and options: neither is read again.
      JobTransport transport = JobTransport.local(conf);
      try (ThreadWorkers launcher = InferenceWorker.threads(conf, job, model, transport)) {
        r = new InferenceDriver(job, transport, launcher, new ProgressLine(out), out)
            .run(job.getInt(GraphJobOptions.LAYERS));
      }
      commit.commit();
      if (o.get(GraphJobOptions.METRICS) != null) {
        RunMetrics.writeOrWarn(conf, o.get(GraphJobOptions.METRICS), RunMetrics.summary("infer", r.seconds(),
            r.workers()), out,
            "infer");
      }
      JobCommands.printStats(out, "infer", r.workers());
      out.printf("yarn-gnn infer: wrote %,d embeddings of width %d to %s (%d part files) in %.1f s%n",
          r.written(), model.spec().outputWidth(), commit.outputDir(), partFiles(conf, commit.outputDir()),
          r.seconds());
      return Main.OK;
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    }
  }

  /**
   * Submits the job to YARN: the client checks the input and the output path, ships the jar (and a model that
   * is not on the cluster FileSystem) to staging, and waits; the ApplicationMaster runs the driver, the graph
   * workers run in containers, and the AM promotes the output.
   */
  private int runOnYarn(Configuration clientConf, InferOptions o, PrintStream out) throws Exception {
    Configuration conf = new YarnConfiguration(clientConf);
    Model model = validate(conf, o);
    CommandOptions.Builder<InferOptions> qualified = o.toBuilder();
    // Compute threads follow the containers' vcores, not this machine's cores.
    qualified.set(GraphJobOptions.THREADS, o.getInt(GraphJobOptions.WORKER_VCORES));
    if (o.get(GraphJobOptions.EDGES) != null) {
      qualified.set(GraphJobOptions.EDGES, JobCommands.onCluster(conf, o.get(GraphJobOptions.EDGES), "edges"))
          .set(GraphJobOptions.NODES, JobCommands.onCluster(conf, o.get(GraphJobOptions.NODES), "nodes"));
    }
    if (o.get(GraphJobOptions.GRAPH) != null) {
      qualified.set(GraphJobOptions.GRAPH, JobCommands.onCluster(conf, o.get(GraphJobOptions.GRAPH), "graph"));
    }
    if (o.get(InferOptions.TARGETS) != null) {
      qualified.set(InferOptions.TARGETS, JobCommands.onCluster(conf, o.get(InferOptions.TARGETS), "targets"));
    }
    Path modelPath = new Path(o.get(InferOptions.MODEL));
    java.nio.file.Path shippedModel = null;
    if (JobCommands.isLocal(conf, modelPath) && !JobCommands.isLocal(conf, new Path("/"))) {
      shippedModel = java.nio.file.Path.of(modelPath.toUri().getPath());
      qualified.set(InferOptions.MODEL, InferenceJobDriver.STAGED + shippedModel.getFileName());
    } else {
      qualified.set(InferOptions.MODEL, modelPath.getFileSystem(conf).makeQualified(modelPath).toString());
    }
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.get(GraphJobOptions.OUTPUT)),
        o.get(GraphJobOptions.OVERWRITE));
    try {
      InferOptions job = job(conf, qualified.set(GraphJobOptions.OUTPUT, commit.outputDir().toString()).build(), model,
          commit.workDir(), 2);
      JobResult r = new YarnJobClient(conf, out).run(submission(job, JobCommands.shippedJar(conf), shippedModel));
      if (r.succeeded()) {
        commit.finish(); // the ApplicationMaster's done mark, kept until the job's outcome is known
        out.printf("yarn-gnn infer: application %s SUCCEEDED: %,d embeddings in %s%n", r.applicationId(),
            committedRows(conf, commit.outputDir()), commit.outputDir());
        return Main.OK;
      }
      commit.abort();
      throw JobCommands.failed(r);
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    }
  }

  /**
   * The YARN application of a job: the jar, the model directory when it is shipped ({@code shippedModel}, else
   * null), the job's options as the staged {@code job.xml}, and an AM command line that names only the driver.
   */
  public static JobSubmission submission(InferOptions job, Path jar, java.nio.file.Path shippedModel) {
    JobSubmission.Builder submission = JobSubmission.builder();
    if (shippedModel != null) {
      submission.file(shippedModel);
    }
    return submission.appName(job.get(GraphJobOptions.NAME)).queue(job.get(GraphJobOptions.QUEUE)).jar(jar)
        .amMemoryMb(512)
        .accesses(job.job().accessedPaths()).accesses(job.get(InferOptions.TARGETS), shippedModel == null
        ? job.get(InferOptions.MODEL) : null)
        .jobConf(job.toConfiguration())
        .driver(InferenceJobDriver.class.getName(), List.of()).build();
  }

  private static int graphParts(Configuration conf, InferOptions o) {
    return PartitionedGraph.open(conf, new Path(o.get(GraphJobOptions.GRAPH))).parts();
  }

  /** The part files of a committed output (a worker writes one per writer thread that had rows). */
  private static int partFiles(Configuration conf, Path output) throws java.io.IOException {
    return output.getFileSystem(conf).listStatus(output, p -> p.getName().startsWith("part-")).length;
  }

  /** Rows of the committed output, from the part files' footers (no data is read). */
  private static long committedRows(Configuration conf, Path output) {
    return NodeTable.open(conf, output, TableReadOptions.builder().featuresColumn("embedding")
        .labelColumn("prediction").splitColumn("_no_split_column").build()).countHint();
  }

  /** Prints each new status once, with the percentage. */
  static final class ProgressLine implements InferenceDriver.Progress {
    private final PrintStream out;
    private String last = "";

    ProgressLine(PrintStream out) {
      this.out = out;
    }

    @Override
    public synchronized void report(float fraction, String status) {
      if (status.endsWith(" done") && !status.equals(last)) {
        out.printf("yarn-gnn infer: [%3.0f%%] %s%n", fraction * 100, status);
      }
      last = status;
    }
  }
}
