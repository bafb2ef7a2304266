package org.yarngnn.app;

import static org.yarngnn.app.graphworker.GraphJobOptions.DRY_RUN;
import static org.yarngnn.app.graphworker.GraphJobOptions.EDGES;
import static org.yarngnn.app.graphworker.GraphJobOptions.EDGES_FORMAT;
import static org.yarngnn.app.graphworker.GraphJobOptions.LOCAL;
import static org.yarngnn.app.graphworker.GraphJobOptions.METRICS;
import static org.yarngnn.app.graphworker.GraphJobOptions.MISSING_FEATURES;
import static org.yarngnn.app.graphworker.GraphJobOptions.NAME;
import static org.yarngnn.app.graphworker.GraphJobOptions.NODES;
import static org.yarngnn.app.graphworker.GraphJobOptions.NODES_FORMAT;
import static org.yarngnn.app.graphworker.GraphJobOptions.OUTPUT;
import static org.yarngnn.app.graphworker.GraphJobOptions.OVERWRITE;
import static org.yarngnn.app.graphworker.GraphJobOptions.OWNERSHIP;
import static org.yarngnn.app.graphworker.GraphJobOptions.QUEUE;
import static org.yarngnn.app.graphworker.GraphJobOptions.UNDIRECTED;
import static org.yarngnn.app.graphworker.GraphJobOptions.VERBOSE;

import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.JobOptions;
import org.yarngnn.app.cli.KerberosLogin;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.app.runtime.RunMetrics;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.PathOverlap;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.PartitionedGraphStats;
import org.yarngnn.partition.mr.PartitionJob;
import org.yarngnn.partition.mr.PartitionJobOptions;

/**
 * {@code partition}: the MapReduce job that turns raw edges and nodes into a partitioned graph directory that
 * {@code infer --graph DIR} loads directly, one partition per worker. {@code --local} uses Hadoop's local job
 * runner.
 */
public final class PartitionCommand implements Command {
  private static final Option<Long> PARTITIONS = Option.whole("partitions", "P", 1L, 1,
      PartitionJobOptions.MAX_PARTITIONS, "number of partitions (= graph workers of infer --graph; default {default})");
  /** Not given: the cluster's queue of MapReduce jobs (mapreduce.job.queuename), not yarn-gnn's "default". */
  private static final Option<String> PARTITION_QUEUE = QUEUE.withDefault(null).withHelp("YARN queue");
  /** The graph job's declarations, in partition's words where they mean something else here. */
  private static final List<Option<?>> DECLARED = List.of(EDGES.withHelp("edges table"),
      NODES.withHelp("nodes table"), EDGES_FORMAT, NODES_FORMAT, OUTPUT.withHelp("partitioned graph directory"),
      PARTITIONS, OWNERSHIP.withHelp("node ownership: ranges for ids 0..n-1 (auto), or a hash"), UNDIRECTED,
      MISSING_FEATURES, OVERWRITE, LOCAL.withHelp("run with Hadoop's local job runner in this JVM"), PARTITION_QUEUE,
      NAME.withHelp("job name"), METRICS.withHelp("also write a JSON summary of the run (seconds, partition "
          + "statistics) to FILE"), DRY_RUN.withHelp("check the tables, print the plan, run nothing, write nothing"));

  @Override
  public OptionSpec options() {
    return CommandOptions.declare(KerberosLogin.options(new OptionSpec("partition",
        "--edges PATH --nodes PATH --output DIR --partitions P [--local]")), DECLARED);
  }

  @Override
  public int run(CommandLine cl, PrintStream out) throws Exception {
    PartitionJobOptions.Builder b = PartitionJobOptions.builder()
        .edges(new Path(cl.require("edges")))
        .nodes(new Path(cl.require("nodes")))
        .output(new Path(cl.require("output")))
        .partitions(PARTITIONS.read(cl).intValue())
        .undirected(UNDIRECTED.read(cl))
        .overwrite(OVERWRITE.read(cl))
        .local(JobOptions.runLocally(cl))
        .edgeOptions(TableReadOptions.builder().format(EDGES_FORMAT.read(cl)).build())
        .nodeOptions(TableReadOptions.builder().format(NODES_FORMAT.read(cl)).build())
        .verbose(VERBOSE.read(cl))
        .ownership(OWNERSHIP.read(cl))
        .missingFeatures(MISSING_FEATURES.read(cl));
    b.queue(PARTITION_QUEUE.read(cl));
    if (cl.has("name")) {
      b.name(NAME.read(cl));
    }
    PartitionJobOptions job = b.build();
    String metrics = METRICS.read(cl);
    PathOverlap.check(cl.conf(), "--output", job.output(), "--edges", job.edges(), "--nodes", job.nodes());
    RunMetrics.check(cl.conf(), metrics, job.output().toString(), "--edges", job.edges(), "--nodes", job.nodes());
    if (DRY_RUN.read(cl)) {
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
