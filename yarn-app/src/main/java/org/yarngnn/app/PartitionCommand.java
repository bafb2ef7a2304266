package org.yarngnn.app;

import java.io.PrintStream;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.PathOverlap;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionedGraphStats;
import org.yarngnn.partition.mr.PartitionJob;
import org.yarngnn.partition.mr.PartitionJobOptions;

/**
 * {@code partition}: the MapReduce job that turns raw edges and nodes into a partitioned graph directory that
 * {@code infer --graph DIR} loads directly, one partition per worker. {@code --local} uses Hadoop's local job
 * runner.
 */
public final class PartitionCommand implements Command {
  @Override
  public OptionSpec options() {
    return KerberosLogin.options(new OptionSpec("partition",
        "--edges PATH --nodes PATH --output DIR --partitions P [--local]"))
        .value("edges", "PATH", "edges table")
        .value("nodes", "PATH", "nodes table")
        .value("edges-format", "FORMAT", "parquet|orc|tsv|csv when the file names do not say")
        .value("nodes-format", "FORMAT", "parquet|orc|tsv|csv when the file names do not say")
        .value("output", "DIR", "partitioned graph directory")
        .value("partitions", "P", "number of partitions (= graph workers of infer --graph; default 1)")
        .value("ownership", "auto|range|hash", "node ownership: ranges for ids 0..n-1 (auto), or a hash")
        .flag("undirected", "add the reverse of every edge")
        .value("missing-features", "error|zero", "an edge endpoint without a node row: refuse (default) or zero features")
        .flag("overwrite", "replace an existing output directory")
        .flag("local", "run with Hadoop's local job runner in this JVM")
        .value("queue", "Q", "YARN queue")
        .value("name", "NAME", "job name")
        .value("metrics", "FILE", "also write a JSON summary of the run (seconds, partition statistics) to FILE")
        .flag("dry-run", "check the tables, print the plan, run nothing, write nothing");
  }

  @Override
  public int run(CommandLine cl, PrintStream out) throws Exception {
    int partitions = cl.getInt("partitions", 1, 1);
    if (partitions > PartitionJobOptions.MAX_PARTITIONS) {
      throw new UsageException("option --partitions must be at most " + PartitionJobOptions.MAX_PARTITIONS
          + ", not " + partitions);
    }
    PartitionJobOptions.Builder b = PartitionJobOptions.builder()
        .edges(new Path(cl.require("edges")))
        .nodes(new Path(cl.require("nodes")))
        .output(new Path(cl.require("output")))
        .partitions(partitions)
        .undirected(cl.flag("undirected"))
        .overwrite(cl.flag("overwrite"))
        .local(JobOptions.runLocally(cl))
        .edgeOptions(TableReadOptions.builder().format(ImportCommand.format(cl, "edges-format")).build())
        .nodeOptions(TableReadOptions.builder().format(ImportCommand.format(cl, "nodes-format")).build())
        .verbose(cl.flag("verbose"));
    try {
      b.ownership(Ownership.Kind.byName(cl.get("ownership", "auto")));
      b.missingFeatures(MissingFeatures.byName(cl.get("missing-features", "error")));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (cl.has("queue")) {
      b.queue(cl.get("queue"));
    }
    if (cl.has("name")) {
      b.name(cl.get("name"));
    }
    PartitionJobOptions job = b.build();
    String metrics = cl.get("metrics");
    PathOverlap.check(cl.conf(), "--output", job.output(), "--edges", job.edges(), "--nodes", job.nodes());
    RunMetrics.check(cl.conf(), metrics, job.output().toString(), "--edges", job.edges(), "--nodes", job.nodes());
    if (cl.flag("dry-run")) {
      dryRun(cl, job, out);
      return Main.OK;
    }
    long t0 = System.nanoTime();
    PartitionedGraphStats stats = PartitionJob.run(cl.conf(), job);
    double seconds = (System.nanoTime() - t0) / 1e9;
    out.println("yarn-gnn partition: " + stats.summary());
    out.printf("yarn-gnn partition: wrote %d partitions to %s in %.1f s%n", stats.partitions().size(),
        cl.get("output"), seconds);
    if (metrics != null && !metrics.isEmpty()) {
      java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
      m.put("format", 1L);
      m.put("command", "partition");
      m.put("seconds", seconds);
      m.put("partitioning", stats.toJson());
      RunMetrics.writeOrWarn(cl.conf(), metrics, m, out, "partition");
    }
    return Main.OK;
  }

  /** The tables' schemas checked (as the job's readers check them), then the plan; nothing runs. */
  private static void dryRun(CommandLine cl, PartitionJobOptions job, PrintStream out) throws Exception {
    EdgeTable e = EdgeTable.open(cl.conf(), job.edges().toString(), job.edgeOptions());
    NodeTable n = NodeTable.open(cl.conf(), job.nodes().toString(), job.nodeOptions());
    String p = "yarn-gnn partition: ";
    out.println(p + "dry run: checked the tables; nothing runs, nothing is written");
    out.printf(java.util.Locale.ROOT, "%s  edges   %s: %,d rows (exact for Parquet and ORC, a guess from a text "
        + "table's bytes)%n", p, job.edges(), e.countHint());
    out.printf(java.util.Locale.ROOT, "%s  nodes   %s: %,d rows of %d features%n", p, job.nodes(), n.countHint(),
        n.featureWidth());
    out.println(p + "  plan    " + job.partitions() + " partitions, a MapReduce job "
        + (job.local() ? "on Hadoop's local job runner" : "on YARN") + "; output " + job.output());
  }
}
