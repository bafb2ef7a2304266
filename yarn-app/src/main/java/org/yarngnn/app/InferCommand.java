package org.yarngnn.app;

import java.io.PrintStream;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.local.LocalInference;
import org.yarngnn.app.local.LocalInferenceOptions;

/** {@code infer}: embeddings of every node, in one JVM ({@code --local}, the embedded default) or on YARN. */
public final class InferCommand implements Command {
  @Override
  public OptionSpec options() {
    return JobOptions.common(new OptionSpec("infer",
        "--edges PATH --nodes PATH --model DIR --output DIR [--local]"))
        .value("edges", "PATH", "edges table: a file or directory (Parquet, ORC, TSV, CSV, optionally .gz)")
        .value("nodes", "PATH", "nodes table: id, features[, label, split]")
        .value("edges-format", "FORMAT", "parquet|orc|tsv|csv when the file names do not say")
        .value("nodes-format", "FORMAT", "parquet|orc|tsv|csv when the file names do not say")
        .value("model", "DIR", "model directory: model.json + weights.safetensors")
        .value("output", "DIR", "output directory for part files and _SUCCESS")
        .flag("undirected", "add the reverse of every edge")
        .value("missing-features", "error|zero", "an edge endpoint without a node row: refuse (default) or zero features")
        .value("threads", "N", "compute threads in this JVM (default: all cores)");
  }

  @Override
  public int run(CommandLine cl, PrintStream out) throws Exception {
    LocalInferenceOptions options = LocalInferenceOptions.fromCommandLine(cl);
    if (!JobOptions.runLocally(cl)) {
      throw new UsageException("submitting infer to YARN is not available in this build; use --local");
    }
    LocalInference.Result result = new LocalInference(cl.conf(), options, out).run();
    out.printf("yarn-gnn infer: wrote %,d embeddings of width %d to %s (%d part files) in %.1f s%n",
        result.nodes(), result.width(), new Path(options.output()), result.parts(), result.seconds());
    return Main.OK;
  }
}
