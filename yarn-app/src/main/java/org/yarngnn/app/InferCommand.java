package org.yarngnn.app;

import java.io.PrintStream;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.infer.InferenceDriver;
import org.yarngnn.app.infer.InferenceJobDriver;
import org.yarngnn.app.infer.InferenceJobSpec;
import org.yarngnn.app.infer.ThreadWorkers;
import org.yarngnn.app.local.LocalInference;
import org.yarngnn.app.local.LocalInferenceOptions;
import org.yarngnn.app.yarn.JobResult;
import org.yarngnn.app.yarn.JobSubmission;
import org.yarngnn.app.yarn.YarnJobClient;
import org.yarngnn.compute.model.Model;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.format.PartitionedGraph;

/** {@code infer}: embeddings of every node, in one JVM ({@code --local}, the embedded default) or on YARN. */
public final class InferCommand implements Command {
  @Override
  public OptionSpec options() {
    return JobOptions.common(new OptionSpec("infer",
        "--edges PATH --nodes PATH --model DIR --output DIR [--local] [--workers N]"))
        .value("edges", "PATH", "edges table: a file or directory (Parquet, ORC, TSV, CSV, optionally .gz)")
        .value("graph", "DIR", "a partitioned graph written by partition, instead of --edges and --nodes")
        .value("nodes", "PATH", "nodes table: id, features[, label, split]")
        .value("edges-format", "FORMAT", "parquet|orc|tsv|csv when the file names do not say")
        .value("nodes-format", "FORMAT", "parquet|orc|tsv|csv when the file names do not say")
        .value("model", "DIR", "model directory: model.json + weights.safetensors")
        .value("output", "DIR", "output directory for part files and _SUCCESS")
        .flag("undirected", "add the reverse of every edge")
        .value("missing-features", "error|zero", "an edge endpoint without a node row: refuse (default) or zero features")
        .value("threads", "N", "compute threads per JVM (default: all cores)")
        .value("strategy", "layerwise|nodewise", "layerwise (Deal, default) or the nodewise mini-batch baseline (--local only)")
        .value("batch-size", "N", "nodewise: targets per mini-batch (default 1024)")
        .value("pipelining", "on|off", "chunked exchange overlapped with aggregation (default on)")
        .value("fusion", "on|off", "first layer's transform fused with feature loading (default on)")
        .value("chunk-rows", "N", "rows per exchanged chunk (default 16384)")
        .value("ownership", "auto|range|hash", "node owners: ranges when ids are 0..n-1 (auto), or a hash that "
            + "balances power-law graphs whose hubs have low ids");
  }

  @Override
  public int run(CommandLine cl, PrintStream out) throws Exception {
    LocalInferenceOptions options = LocalInferenceOptions.fromCommandLine(cl);
    String strategy = cl.get("strategy", "layerwise");
    if (!strategy.equals("layerwise") && !strategy.equals("nodewise")) {
      throw new UsageException("--strategy must be layerwise or nodewise, not '" + strategy + "'");
    }
    boolean local = JobOptions.runLocally(cl);
    if (strategy.equals("nodewise")) {
      if (!local) {
        throw new UsageException("--strategy nodewise is a single-JVM baseline: add --local");
      }
      LocalInference.Result r = new LocalInference(cl.conf(), options, out).run();
      out.printf("yarn-gnn infer: wrote %,d embeddings of width %d to %s (%d part files) in %.1f s%n",
          r.nodes(), r.width(), new Path(options.output()), r.parts(), r.seconds());
      return Main.OK;
    }
    return local ? runLocal(cl, options, out) : runOnYarn(cl, options, out);
  }

  /** Checks everything that can be refused before anything runs; returns the model. */
  static Model validate(CommandLine cl, LocalInferenceOptions o) throws Exception {
    Model model = ModelFiles.read(cl.conf(), new Path(o.model()));
    if (o.graph() != null) {
      PartitionedGraph g = PartitionedGraph.open(cl.conf(), new Path(o.graph()));
      ModelFiles.checkInputWidth(model, o.model(), g.featureWidth(), o.graph());
      int workers = cl.getInt("workers", g.parts(), 1);
      if (workers != g.parts()) {
        throw new UsageException("--graph " + o.graph() + " has " + g.parts() + " partitions: run it with --workers "
            + g.parts() + " (one worker loads each partition)");
      }
      return model;
    }
    EdgeTable.open(cl.conf(), new Path(o.edges()), TableReadOptions.builder().format(o.edgesFormat()).build());
    NodeTable nodes = NodeTable.open(cl.conf(), new Path(o.nodes()),
        TableReadOptions.builder().format(o.nodesFormat()).build());
    ModelFiles.checkInputWidth(model, o.model(), nodes.featureWidth(), o.nodes());
    return model;
  }

  static InferenceJobSpec spec(CommandLine cl, LocalInferenceOptions o, String model, Path workDir, int workers) {
    return new InferenceJobSpec(o.edges(), o.nodes(), o.edgesFormat(), o.nodesFormat(), o.graph(), model,
        workDir.toString(), o.outputFormat(), o.undirected(), o.missingFeatures(), o.seed(), workers, o.threads(),
        onOff(cl, "fusion"), onOff(cl, "pipelining"), cl.getInt("chunk-rows", 16384, 1), ownership(cl),
        cl.conf().get(HALT_KEY));
  }

  private static String ownership(CommandLine cl) {
    String v = cl.get("ownership", "auto");
    try {
      return Ownership.Kind.byName(v).name().toLowerCase(java.util.Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  private static boolean onOff(CommandLine cl, String option) {
    String v = cl.get(option, "on");
    if (!v.equals("on") && !v.equals("off")) {
      throw new UsageException("--" + option + " must be on or off, not '" + v + "'");
    }
    return v.equals("on");
  }

  private int runLocal(CommandLine cl, LocalInferenceOptions o, PrintStream out) throws Exception {
    Model model = validate(cl, o);
    int workers = cl.getInt("workers", o.graph() != null ? graphParts(cl, o) : 1, 1);
    OutputCommit commit = OutputCommit.begin(cl.conf(), new Path(o.output()), o.overwrite());
    InferenceJobSpec spec = spec(cl, o, o.model(), commit.workDir(), workers);
    try (ThreadWorkers launcher = new ThreadWorkers(cl.conf(), spec)) {
      InferenceDriver.Result r = new InferenceDriver(spec, "127.0.0.1", launcher, new ProgressLine(out), out)
          .run(model.spec().layers().size());
      commit.commit();
      printStats(out, r);
      out.printf("yarn-gnn infer: wrote %,d embeddings of width %d to %s (%d part files) in %.1f s%n",
          r.nodes(), model.spec().outputWidth(), commit.outputDir(), workers, r.seconds());
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
  private int runOnYarn(CommandLine cl, LocalInferenceOptions o, PrintStream out) throws Exception {
    Configuration conf = new YarnConfiguration(cl.conf());
    validate(cl, o);
    String edges = o.edges() == null ? null : onCluster(conf, o.edges(), "edges");
    String nodes = o.nodes() == null ? null : onCluster(conf, o.nodes(), "nodes");
    String graph = o.graph() == null ? null : onCluster(conf, o.graph(), "graph");
    Path modelPath = new Path(o.model());
    JobSubmission.Builder submission = JobSubmission.builder();
    String model;
    if (isLocal(conf, modelPath) && !isLocal(conf, new Path("/"))) {
      java.nio.file.Path dir = java.nio.file.Path.of(modelPath.toUri().getPath());
      submission.file(dir);
      model = InferenceJobDriver.STAGED + dir.getFileName();
    } else {
      model = modelPath.getFileSystem(conf).makeQualified(modelPath).toString();
    }
    int workers = cl.getInt("workers", o.graph() != null ? graphParts(cl, o) : 2, 1);
    int memoryMb = cl.getInt("worker-memory", 1024, 128);
    int vcores = cl.getInt("worker-vcores", 1, 1);
    OutputCommit commit = OutputCommit.begin(conf, new Path(o.output()), o.overwrite());
    try {
      LocalInferenceOptions qualified = new LocalInferenceOptions(edges, nodes, o.edgesFormat(), o.nodesFormat(),
          model, commit.outputDir().toString(), o.outputFormat(), o.overwrite(), o.undirected(),
          o.missingFeatures(), o.seed(), vcores, o.batchSize(), graph);
      InferenceJobSpec spec = spec(cl, qualified, model, commit.workDir(), workers);
      submission.appName(cl.get("name", "yarn-gnn infer")).queue(cl.get("queue", "default"))
          .jar(shippedJar(conf)).amMemoryMb(512)
          .driver(InferenceJobDriver.class.getName(), List.of(
              Base64.getEncoder().encodeToString(spec.toBytes()), commit.outputDir().toString(),
              Boolean.toString(o.overwrite()), Integer.toString(memoryMb), Integer.toString(vcores)));
      JobResult r = new YarnJobClient(conf, out).run(submission.build());
      if (r.succeeded()) {
        out.printf("yarn-gnn infer: application %s SUCCEEDED: %,d embeddings in %s%n", r.applicationId(),
            committedRows(conf, commit.outputDir()), commit.outputDir());
        return Main.OK;
      }
      commit.abort();
      String diag = r.diagnostics() == null ? "" : r.diagnostics();
      int bad = diag.indexOf(InferenceJobDriver.BAD_INPUT);
      if (bad >= 0) {
        throw new InputException(diag.substring(bad + InferenceJobDriver.BAD_INPUT.length()).trim());
      }
      throw new IllegalStateException("application " + r.applicationId() + " " + r.finalStatus()
          + (diag.isEmpty() ? "" : ": " + diag));
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
    }
  }

  /** Fault injection for tests: {@code WORKER@COMMAND} halts that worker's JVM when the command arrives. */
  public static final String HALT_KEY = "yarngnn.test.halt-worker";

  private static int graphParts(CommandLine cl, LocalInferenceOptions o) {
    return PartitionedGraph.open(cl.conf(), new Path(o.graph())).parts();
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

  private static boolean isLocal(Configuration conf, Path p) throws java.io.IOException {
    return "file".equals(p.getFileSystem(conf).getUri().getScheme());
  }

  /** The table's path, qualified on the cluster FileSystem; a table only on this machine is refused. */
  private static String onCluster(Configuration conf, String path, String option) throws java.io.IOException {
    Path p = new Path(path);
    if (isLocal(conf, p) && !isLocal(conf, new Path("/"))) {
      throw new UsageException("--" + option + " " + path + " is on the local disk; containers read tables from the"
          + " cluster FileSystem (" + FileSystem.getDefaultUri(conf) + "): copy it there or use --local");
    }
    return p.getFileSystem(conf).makeQualified(p).toString();
  }

  /** One line of figures per worker (phase seconds, bytes exchanged, peak heap): what benchmarks parse. */
  static void printStats(PrintStream out, InferenceDriver.Result r) {
    for (int w = 0; w < r.workers().size(); w++) {
      StringBuilder sb = new StringBuilder("yarn-gnn infer: worker " + w + " stats:");
      r.workers().get(w).forEach((k, v) -> sb.append(' ').append(k).append('=')
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
