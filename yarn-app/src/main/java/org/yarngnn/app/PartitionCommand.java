package org.yarngnn.app;

import java.io.PrintStream;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitioningStats;
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
        .value("name", "NAME", "job name");
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
    long t0 = System.nanoTime();
    PartitioningStats stats = PartitionJob.run(cl.conf(), b.build());
    out.println("yarn-gnn partition: " + stats.summary());
    out.printf("yarn-gnn partition: wrote %d partitions to %s in %.1f s%n", stats.partitions().size(),
        cl.get("output"), (System.nanoTime() - t0) / 1e9);
    return Main.OK;
  }
}
