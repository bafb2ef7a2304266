package org.yarngnn.app;

import org.yarngnn.app.graphworker.GraphJobOptions;
import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.ThreadWorkers;
import org.yarngnn.app.infer.InferenceWorker;
import org.yarngnn.app.infer.InferOptions;
import org.yarngnn.app.infer.InferenceDriver;
import org.yarngnn.app.infer.InferenceJobDriver;
import org.yarngnn.app.infer.NodewiseBaseline;
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
import org.yarngnn.partition.Ownership;
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
    PathOverlap.check(cl.conf(), "--output", options.job().output(), "--edges", options.job().edges(), "--nodes",
        options.job().nodes(), "--graph", options.job().graph(), "--model", options.model(), "--targets",
            options.targets());
    RunMetrics.check(cl.conf(), options.job().metrics(), options.job().output(), "--edges", options.job().edges(),
        "--nodes",
        options.job().nodes(), "--graph", options.job().graph(), "--model", options.model(), "--targets",
            options.targets());
    if (cl.flag("dry-run")) {
      DryRun.print(cl.conf(), "infer", options, validate(cl.conf(), options).spec(), out, null);
      return Main.OK;
    }
    if (options.strategy() == InferOptions.Strategy.NODEWISE) {
      NodewiseBaseline.Result r = new NodewiseBaseline(cl.conf(), options, out).run();
      out.printf("yarn-gnn infer: wrote %,d embeddings of width %d to %s (%d part files) in %.1f s%n",
          r.nodes(), r.width(), new Path(options.job().output()), r.parts(), r.seconds());
      if (options.job().metrics() != null) {
        RunMetrics.writeOrWarn(cl.conf(), options.job().metrics(), RunMetrics.summary("infer", r.seconds(), List.of()),
            out, "infer");
      }
      return Main.OK;
    }
    return options.job().local() ? runLocal(cl.conf(), options, out) : runOnYarn(cl.conf(), options, out);
  }

  /**
   * Checks everything that can be refused before anything runs, reading the model (the only read of it in this
   * JVM); returns the model.
   */
  static Model validate(Configuration conf, InferOptions o) throws Exception {
    Model model = ModelFiles.read(conf, new Path(o.model()));
    if (o.targets() != null) {
      // Every worker reads it again; here only that it exists and has a row (an empty targets table is refused).
      IdTable.open(conf, o.targets(), TableReadOptions.builder().format(o.targetsFormat()).build(), "targets");
    }
    if (o.job().graph() != null) {
      PartitionedGraph g = PartitionedGraph.open(conf, new Path(o.job().graph()));
      ModelFiles.checkInputWidth(model, o.model(), g.featureWidth(), o.job().graph());
      int workers = o.job().workers() == 0 ? g.parts() : o.job().workers();
      if (workers != g.parts()) {
        throw new UsageException("--graph " + o.job()
            .graph() + " has " + g.parts() + " partitions: run it with --workers "
            + g.parts() + " (one worker loads each partition)");
      }
      return model;
    }
    EdgeTable.open(conf, o.job().edges(), TableReadOptions.builder().format(o.job().edgesFormat()).build());
    NodeTable nodes = NodeTable.open(conf, o.job().nodes(),
        TableReadOptions.builder().format(o.job().nodesFormat()).build());
    ModelFiles.checkInputWidth(model, o.model(), nodes.featureWidth(), o.job().nodes());
    return model;
  }

  /** The job the driver and the workers run: workers resolved, the model's layer count, the commit's work dir. */
  static InferOptions job(Configuration conf, InferOptions o, Model model, Path workDir, int defaultWorkers) {
    int workers = o.job().workers() != 0 ? o.job().workers() : o.job().graph() != null ? graphParts(conf,
        o) : defaultWorkers;
    InferOptions.Builder b = o.toBuilder();
    b.job().set(GraphJobOptions.WORKERS, workers).set(GraphJobOptions.LAYERS, model.spec().layers().size())
        .set(GraphJobOptions.WORK_DIR, workDir.toString());
    return b.build();
  }

  private int runLocal(Configuration conf, InferOptions o, PrintStream out) throws Exception {
    Model model = validate(conf, o);
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.job().output()), o.job().overwrite()).abortOnExit();
    try {
      InferOptions job = job(conf, o, model, commit.workDir(), 1);
      InferenceDriver.Result r;
      // The thread workers share this JVM's model and options: neither is read again.
      JobTransport transport = JobTransport.local(conf);
      try (ThreadWorkers launcher = InferenceWorker.threads(conf, job, model, transport)) {
        r = new InferenceDriver(job, transport, launcher, new ProgressLine(out), out).run(job.job().layers());
      }
      commit.commit();
      if (o.job().metrics() != null) {
        RunMetrics.writeOrWarn(conf, o.job().metrics(), RunMetrics.summary("infer", r.seconds(), r.workers()), out,
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
    InferOptions.Builder qualified = o.toBuilder();
    // Compute threads follow the containers' vcores, not this machine's cores.
    qualified.job().set(GraphJobOptions.THREADS, o.job().workerVcores());
    if (o.job().edges() != null) {
      qualified.job().set(GraphJobOptions.EDGES, JobCommands.onCluster(conf, o.job().edges(), "edges"))
          .set(GraphJobOptions.NODES, JobCommands.onCluster(conf, o.job().nodes(), "nodes"));
    }
    if (o.job().graph() != null) {
      qualified.job().set(GraphJobOptions.GRAPH, JobCommands.onCluster(conf, o.job().graph(), "graph"));
    }
    if (o.targets() != null) {
      qualified.targets(JobCommands.onCluster(conf, o.targets(), "targets"));
    }
    Path modelPath = new Path(o.model());
    java.nio.file.Path shippedModel = null;
    if (JobCommands.isLocal(conf, modelPath) && !JobCommands.isLocal(conf, new Path("/"))) {
      shippedModel = java.nio.file.Path.of(modelPath.toUri().getPath());
      qualified.model(InferenceJobDriver.STAGED + shippedModel.getFileName());
    } else {
      qualified.model(modelPath.getFileSystem(conf).makeQualified(modelPath).toString());
    }
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.job().output()), o.job().overwrite());
    try {
      InferOptions job = job(conf, qualified.output(commit.outputDir().toString()).build(), model,
          commit.workDir(), 2);
      JobResult r = new YarnJobClient(conf, out).run(submission(job, JobCommands.shippedJar(conf), shippedModel));
      if (r.succeeded()) {
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
    return submission.appName(job.job().name()).queue(job.job().queue()).jar(jar).amMemoryMb(512)
        .accesses(job.job().accessedPaths()).accesses(job.targets(), shippedModel == null ? job.model() : null)
        .jobConf(job.toConfiguration())
        .driver(InferenceJobDriver.class.getName(), List.of()).build();
  }

  private static int graphParts(Configuration conf, InferOptions o) {
    return PartitionedGraph.open(conf, new Path(o.job().graph())).parts();
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
