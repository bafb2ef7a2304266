package org.yarngnn.app;

import java.io.PrintStream;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.infer.InferenceDriver;
import org.yarngnn.app.infer.InferenceJobSpec;
import org.yarngnn.app.infer.ThreadWorkers;
import org.yarngnn.app.local.LocalInference;
import org.yarngnn.app.local.LocalInferenceOptions;
import org.yarngnn.compute.model.Model;
import org.yarngnn.io.EdgeTable;
import org.yarngnn.io.InputException;
import org.yarngnn.io.NodeTable;
import org.yarngnn.io.OutputCommit;
import org.yarngnn.io.TableReadOptions;

/** {@code infer}: embeddings of every node, in one JVM ({@code --local}, the embedded default) or on YARN. */
public final class InferCommand implements Command {
  @Override
  public OptionSpec options() {
    return JobOptions.common(new OptionSpec("infer",
        "--edges PATH --nodes PATH --model DIR --output DIR [--local] [--workers N]"))
        .value("edges", "PATH", "edges table: a file or directory (Parquet, ORC, TSV, CSV, optionally .gz)")
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
        .value("chunk-rows", "N", "rows per exchanged chunk (default 16384)");
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
    if (!local) {
      throw new UsageException("submitting infer to YARN is not available in this build; use --local");
    }
    return runLocal(cl, options, out);
  }

  /** Checks everything that can be refused before anything runs; returns the model. */
  static Model validate(CommandLine cl, LocalInferenceOptions o) throws Exception {
    Model model = ModelFiles.read(cl.conf(), new Path(o.model()));
    EdgeTable.open(cl.conf(), new Path(o.edges()), TableReadOptions.builder().format(o.edgesFormat()).build());
    NodeTable nodes = NodeTable.open(cl.conf(), new Path(o.nodes()),
        TableReadOptions.builder().format(o.nodesFormat()).build());
    if (nodes.featureWidth() != model.spec().inputWidth()) {
      throw new InputException(o.model() + ": the model's input width " + model.spec().inputWidth()
          + " differs from the feature width " + nodes.featureWidth() + " of " + o.nodes());
    }
    return model;
  }

  static InferenceJobSpec spec(CommandLine cl, LocalInferenceOptions o, String model, Path workDir, int workers) {
    return new InferenceJobSpec(o.edges(), o.nodes(), o.edgesFormat(), o.nodesFormat(), null, model,
        workDir.toString(), o.outputFormat(), o.undirected(), o.missingFeatures(), o.seed(), workers, o.threads(),
        onOff(cl, "fusion"), onOff(cl, "pipelining"), cl.getInt("chunk-rows", 16384, 1));
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
    int workers = cl.getInt("workers", 1, 1);
    OutputCommit commit = OutputCommit.begin(cl.conf(), new Path(o.output()), o.overwrite());
    try (ThreadWorkers launcher = new ThreadWorkers(cl.conf())) {
      InferenceJobSpec spec = spec(cl, o, o.model(), commit.workDir(), workers);
      InferenceDriver.Result r = new InferenceDriver(spec, "127.0.0.1", launcher, new ProgressLine(out), out)
          .run(model.spec().layers().size());
      commit.commit();
      out.printf("yarn-gnn infer: wrote %,d embeddings of width %d to %s (%d part files) in %.1f s%n",
          r.nodes(), model.spec().outputWidth(), commit.outputDir(), workers, r.seconds());
      return Main.OK;
    } catch (Exception | Error e) {
      commit.abort();
      throw e;
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
