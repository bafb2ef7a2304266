package org.yarngnn.app;

import org.yarngnn.app.graphworker.GraphJobOptions;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.infer.InferOptions;
import org.yarngnn.app.infer.InferenceDriver;
import org.yarngnn.app.infer.InferenceJobDriver;
import org.yarngnn.app.infer.ThreadWorkers;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.app.local.LocalInference;
import org.yarngnn.app.yarn.JobResult;
import org.yarngnn.app.yarn.JobSubmission;
import org.yarngnn.app.yarn.YarnJobClient;
import org.yarngnn.compute.model.Model;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.IdTable;
import org.yarngnn.io.table.InputException;
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
      LocalInference.Result r = new LocalInference(cl.conf(), options, out).run();
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
      try (ThreadWorkers launcher = new ThreadWorkers(conf, job, model, transport)) {
        r = new InferenceDriver(job, transport, launcher, new ProgressLine(out), out).run(job.job().layers());
      }
      commit.commit();
      if (o.job().metrics() != null) {
        RunMetrics.writeOrWarn(conf, o.job().metrics(), RunMetrics.summary("infer", r.seconds(), r.workers()), out,
            "infer");
      }
      printStats(out, "infer", r.workers());
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
      qualified.job().set(GraphJobOptions.EDGES, onCluster(conf, o.job().edges(), "edges")).set(GraphJobOptions.NODES,
          onCluster(conf, o.job().nodes(), "nodes"));
    }
    if (o.job().graph() != null) {
      qualified.job().set(GraphJobOptions.GRAPH, onCluster(conf, o.job().graph(), "graph"));
    }
    if (o.targets() != null) {
      qualified.targets(onCluster(conf, o.targets(), "targets"));
    }
    Path modelPath = new Path(o.model());
    java.nio.file.Path shippedModel = null;
    if (isLocal(conf, modelPath) && !isLocal(conf, new Path("/"))) {
      shippedModel = java.nio.file.Path.of(modelPath.toUri().getPath());
      qualified.model(InferenceJobDriver.STAGED + shippedModel.getFileName());
    } else {
      qualified.model(modelPath.getFileSystem(conf).makeQualified(modelPath).toString());
    }
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.job().output()), o.job().overwrite());
    try {
      InferOptions job = job(conf, qualified.output(commit.outputDir().toString()).build(), model,
          commit.workDir(), 2);
      JobResult r = new YarnJobClient(conf, out).run(submission(job, shippedJar(conf), shippedModel));
      if (r.succeeded()) {
        out.printf("yarn-gnn infer: application %s SUCCEEDED: %,d embeddings in %s%n", r.applicationId(),
            committedRows(conf, commit.outputDir()), commit.outputDir());
        return Main.OK;
      }
      commit.abort();
      throw failed(r);
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    }
  }

  /** Why an application did not succeed: bad input (its diagnostics say so; exit 2) or a failure while running. */
  static RuntimeException failed(JobResult r) {
    String diag = r.diagnostics() == null ? "" : r.diagnostics();
    int bad = diag.indexOf(InferenceJobDriver.BAD_INPUT);
    if (bad >= 0) {
      return new InputException(diag.substring(bad + InferenceJobDriver.BAD_INPUT.length()).trim());
    }
    return new IllegalStateException("application " + r.applicationId() + " " + r.finalStatus()
        + (diag.isEmpty() ? "" : ": " + withoutTraces(diag, r.applicationId())));
  }

  /**
   * {@code diag} up to its first stack-trace line. YARN's diagnostics of a container that exited non-zero carry
   * the tail of its stderr, where an ApplicationMaster that failed before it could unregister printed its trace:
   * that belongs in the container logs, not on the user's terminal (the message says where the rest is).
   */
  static String withoutTraces(String diag, String applicationId) {
    String[] lines = diag.split("\\R");
    StringBuilder kept = new StringBuilder();
    for (String line : lines) {
      if (STACK_LINE.matcher(line).find()) {
        return kept.toString().trim() + " (the rest is in the application's logs: yarn logs -applicationId "
            + applicationId + ")";
      }
      kept.append(kept.length() > 0 ? "\n" : "").append(line);
    }
    return diag;
  }

  /** A Java stack trace's frame, cause or elision line. */
  private static final java.util.regex.Pattern STACK_LINE =
      java.util.regex.Pattern.compile("^(\\s+at \\S+\\(|Caused by: |\\s*\\.\\.\\. \\d+ more)");

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

  /** The key naming the jar to ship (default: the jar this class was loaded from). */
  public static final String JAR_KEY = "yarngnn.app.jar";

  static Path shippedJar(Configuration conf) throws Exception {
    String configured = conf.get(JAR_KEY);
    if (configured != null) {
      return new Path(configured);
    }
    java.io.File f = new java.io.File(InferCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (!f.isFile()) {
      // `yarn jar` (Hadoop's RunJar) runs from an unpacked copy; the jar itself is RunJar's first argument.
      String[] command = System.getProperty("sun.java.command", "").split(" ");
      if (command.length > 1 && command[0].equals("org.apache.hadoop.util.RunJar")
          && new java.io.File(command[1]).isFile()) {
        f = new java.io.File(command[1]);
      }
    }
    if (!f.isFile()) {
      throw new UsageException("cannot tell which jar to ship (running from " + f + "); set -D " + JAR_KEY + "=JAR");
    }
    return new Path(f.getAbsolutePath());
  }

  static boolean isLocal(Configuration conf, Path p) throws java.io.IOException {
    return "file".equals(p.getFileSystem(conf).getUri().getScheme());
  }

  /**
   * The table's paths (a comma-separated list), each qualified on the cluster FileSystem; a table only on this
   * machine is refused.
   */
  static String onCluster(Configuration conf, String path, String option) throws java.io.IOException {
    java.util.List<String> qualified = new java.util.ArrayList<>();
    for (String part : org.yarngnn.io.table.TablePaths.split(path)) {
      Path p = new Path(part);
      if (isLocal(conf, p) && !isLocal(conf, new Path("/"))) {
        throw new UsageException("--" + option + " " + path + " is on the local disk; containers read tables from the"
            + " cluster FileSystem (" + FileSystem.getDefaultUri(conf) + "): copy it there or use --local");
      }
      qualified.add(p.getFileSystem(conf).makeQualified(p).toString());
    }
    return qualified.isEmpty() ? path : String.join(",", qualified);
  }

  /**
   * One line of figures per worker (phase seconds, bytes exchanged, peak heap) after a {@code command} run in this
   * JVM: what benchmarks parse.
   */
  static void printStats(PrintStream out, String command, List<Map<String, Double>> workers) {
    for (int w = 0; w < workers.size(); w++) {
      StringBuilder sb = new StringBuilder("yarn-gnn " + command + ": worker " + w + " stats:");
      workers.get(w).forEach((k, v) -> sb.append(' ').append(k).append('=')
          .append(v == Math.rint(v) ? Long.toString(v.longValue()) : String.format("%.3f", v)));
      out.println(sb);
    }
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
