package org.yarngnn.partition.mr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.yarngnn.compute.json.Json;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeSink;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.io.table.OutputCommit;
import org.yarngnn.io.table.PathOverlap;
import org.yarngnn.partition.GraphRecord;
import org.yarngnn.partition.InputFinding;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionKey;
import org.yarngnn.partition.PartitionStats;
import org.yarngnn.partition.PartitionedGraphStats;
import org.yarngnn.partition.format.PartitionFiles;
import org.yarngnn.partition.format.PartitionManifest;
import org.yarngnn.partition.format.PartitionedGraph;

/**
 * The {@code partition} command: a MapReduce job turning raw edges and nodes tables into a partitioned graph
 * ({@link PartitionedGraph}). Maps read one table file each and route rows to owners; the shuffle sorts each
 * partition's records (nodes by id, references, edges); reducer p assembles partition p and writes its files.
 * Everything is written under a hidden work directory that is promoted (renamed) only when the job succeeded
 * with no bad input; then {@code manifest.json} and {@code _SUCCESS}. Bad input (dangling endpoint, duplicate
 * id, width mismatch, malformed row) throws {@link InputException} naming the first offending row in table
 * order, leaving nothing at the output path; a failed job throws {@link IllegalStateException}.
 */
public final class PartitionJob {
  private PartitionJob() {}

  public static PartitionedGraphStats run(Configuration baseConf, PartitionJobOptions o) {
    long t0 = System.nanoTime();
    Configuration conf = new Configuration(baseConf);
    JobConfKeys.checkTuning(conf);
    PathOverlap.check(conf, "--output", o.output(), "--edges", o.edges(), "--nodes", o.nodes());
    if (o.local()) {
      requireSecureShuffle();
    }
    EdgeTable edges = EdgeTable.open(conf, o.edges(), o.edgeOptions());
    NodeTable nodes = NodeTable.open(conf, o.nodes(), o.nodeOptions());
    Ownership ownership = chooseOwnership(o, nodes);
    OutputCommit commit = OutputCommit.begin(conf, o.output(), o.overwrite());
    if (o.local()) {
      commit.abortOnExit();
    }
    try {
      Path work = commit.workDir();
      Job job = configure(conf, o, edges, nodes, ownership, work);
      boolean ok = job.waitForCompletion(o.verbose());
      FileSystem fs = work.getFileSystem(conf);
      InputFinding error = firstError(fs, work);
      if (error != null) {
        throw error.toException(nodes.files(), edges.files());
      }
      if (!ok) {
        throw new IllegalStateException("partition job " + job.getJobID() + " failed: " + failureReason(job));
      }
      PartitionedGraphStats stats = writeManifest(fs, work, o, ownership, edges, nodes, (System.nanoTime() - t0) / 1e9);
      // Hash ownership over a text table counts the nodes only here.
      checkNodesForPartitions(o, stats.nodes());
      commit.commit();
      return stats;
    } catch (IOException e) {
      commit.abort();
      throw new UncheckedIOException("partition job: " + e.getMessage(), e);
    } catch (ClassNotFoundException e) {
      commit.abort();
      throw new IllegalStateException("partition job: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      commit.abort();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the partition job", e);
    } catch (RuntimeException | Error e) {
      commit.abort();
      throw e;
    }
  }

  /**
   * On a Kerberized cluster MapReduce's shuffle opens map outputs through SecureIOUtils, which needs Hadoop's native
   * library; the local job runner shuffles in this JVM, so without it every reducer fails ("Secure IO is not possible
   * without native code extensions") after the maps have run. Said before anything runs instead.
   */
  private static void requireSecureShuffle() {
    if (org.apache.hadoop.security.UserGroupInformation.isSecurityEnabled()
        && !org.apache.hadoop.util.NativeCodeLoader.isNativeCodeLoaded()) {
      throw new IllegalStateException("--local on a Kerberized cluster needs Hadoop's native library (libhadoop) in "
          + "this JVM for MapReduce's secure shuffle; give its directory in java.library.path, or run partition on "
          + "YARN");
    }
  }

  /**
   * Why the job failed: the job's own failure info, else the root cause in the first failed task attempt's
   * diagnostics (YARN's job status often says only "NA" when tasks failed).
   */
  static String failureReason(Job job) throws IOException, InterruptedException {
    String info = job.getStatus().getFailureInfo();
    if (info != null && !info.isBlank() && !info.equals("NA")) {
      return info.strip();
    }
    for (org.apache.hadoop.mapreduce.TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1000)) {
      if (e.getStatus() == org.apache.hadoop.mapreduce.TaskCompletionEvent.Status.FAILED) {
        for (String d : job.getTaskDiagnostics(e.getTaskAttemptId())) {
          String cause = rootCause(d);
          if (cause != null) {
            return e.getTaskAttemptId() + ": " + cause;
          }
        }
      }
    }
    return "no reason given by the job (its task logs have it)";
  }

  /** The last "Caused by:" line of a stack trace (or its first line), without the prefix; null when blank. */
  static String rootCause(String trace) {
    String cause = null;
    for (String line : trace.strip().split("\\R")) {
      if (cause == null && !line.isBlank()) {
        cause = line.strip();
      } else if (line.startsWith("Caused by: ")) {
        cause = line.substring("Caused by: ".length()).strip();
      }
    }
    return cause;
  }

  /**
   * Hash ownership needs nothing; ranges need the node count (exact from Parquet/ORC footers, counted from text);
   * auto scans the node ids once here to see whether they are exactly 0..n-1. Where the count is known here,
   * more partitions than nodes are refused before the job runs.
   */
  static Ownership chooseOwnership(PartitionJobOptions o, NodeTable nodes) {
    boolean exactCount = nodes.files().stream().allMatch(f -> {
      String n = f.getName().toLowerCase(java.util.Locale.ROOT);
      return n.endsWith(".parquet") || n.endsWith(".orc");
    }) && o.nodeOptions().format() == null;
    if (exactCount) {
      checkNodesForPartitions(o, nodes.countHint());
    }
    if (o.ownership() == Ownership.Kind.HASH) {
      return Ownership.hash(o.partitions());
    }
    if (o.ownership() == Ownership.Kind.RANGE && exactCount) {
      // Ids outside 0..n-1 would still get an owner (by hash): ranges only shape the balance, never correctness.
      return Ownership.ranges(o.partitions(), nodes.countHint());
    }
    long[] s = {0, Long.MAX_VALUE, Long.MIN_VALUE};
    nodes.read((NodeSink) (id, label, split, features, row) -> {
      s[0]++;
      s[1] = Math.min(s[1], id);
      s[2] = Math.max(s[2], id);
    });
    checkNodesForPartitions(o, s[0]);
    boolean dense = s[0] == 0 || (s[1] == 0 && s[2] == s[0] - 1);
    if (o.ownership() == Ownership.Kind.RANGE || dense) {
      return Ownership.ranges(o.partitions(), s[0]);
    }
    return Ownership.hash(o.partitions());
  }

  /**
   * More partitions than nodes is a user error (a worker of {@code infer --graph} would have nothing to do).
   * Fewer nodes in one partition than hashing promises is not: such a partition is written empty.
   */
  private static void checkNodesForPartitions(PartitionJobOptions o, long nodeCount) {
    if (nodeCount == 0) {
      throw new InputException(o.nodes() + ": no node to partition");
    }
    if (o.partitions() > nodeCount) {
      throw new InputException("--partitions " + o.partitions() + " is more than the " + nodeCount + " nodes of "
          + o.nodes() + " (use at most " + nodeCount + ")");
    }
  }

  private static Job configure(Configuration conf, PartitionJobOptions o, EdgeTable edges, NodeTable nodes,
      Ownership ownership, Path work) throws IOException {
    if (o.local()) {
      conf.set("mapreduce.framework.name", "local");
      conf.setInt("mapreduce.local.map.tasks.maximum", Math.max(1, Runtime.getRuntime().availableProcessors()));
      conf.setInt("mapreduce.local.reduce.tasks.maximum", Math.max(1, Runtime.getRuntime().availableProcessors()));
      // In process, polling is free: the default 5 s would add up to 5 s to every job.
      conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 50);
      // Keep the shuffled blocks in memory through the reduce instead of merging them to disk first.
      conf.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0.5f);
    }
    if (o.queue() != null) {
      conf.set(MRJobConfig.QUEUE_NAME, o.queue());
    }
    conf.set(JobConfKeys.EDGES, o.edges().toString());
    conf.set(JobConfKeys.NODES, o.nodes().toString());
    JobConfKeys.setReadOptions(conf, "edges", o.edgeOptions());
    JobConfKeys.setReadOptions(conf, "nodes", o.nodeOptions());
    conf.set(JobConfKeys.WORK, work.toString());
    conf.set(JobConfKeys.OWNERSHIP, ownership.toString());
    conf.setBoolean(JobConfKeys.UNDIRECTED, o.undirected());
    conf.set(JobConfKeys.MISSING, o.missingFeatures().name().toLowerCase(java.util.Locale.ROOT));
    conf.setInt(JobConfKeys.WIDTH, nodes.featureWidth());
    conf.setBoolean(JobConfKeys.WEIGHTED, edges.weighted());
    conf.setBoolean(JobConfKeys.LABELS, nodes.hasLabels());
    conf.setBoolean(JobConfKeys.SPLITS, nodes.hasSplits());
    // Reducers write their files directly; a speculative twin would race on the same paths.
    conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
    conf.setBoolean(MRJobConfig.REDUCE_SPECULATIVE, false);
    Job job = Job.getInstance(conf, o.name() != null ? o.name() : "yarn-gnn partition");
    if (conf.get(MRJobConfig.JAR) == null) {
      // A caller (the CLI, a test) may name the shipped jar; otherwise the jar this class came from.
      job.setJarByClass(PartitionJob.class);
    }
    job.setInputFormatClass(TableInputFormat.class);
    job.setMapperClass(PartitionMapper.class);
    job.setMapOutputKeyClass(PartitionKey.class);
    job.setMapOutputValueClass(GraphRecord.class);
    job.setPartitionerClass(PartitionKey.OwnerPartitioner.class);
    job.setSortComparatorClass(PartitionKey.SortComparator.class);
    job.setGroupingComparatorClass(PartitionKey.GroupComparator.class);
    job.setReducerClass(PartitionReducer.class);
    job.setNumReduceTasks(o.partitions());
    job.setOutputFormatClass(NullOutputFormat.class);
    if (!o.local()) {
      obtainTokens(job, edges, nodes, work);
    }
    return job;
  }

  /**
   * On a secure cluster, delegation tokens for every FileSystem the tasks touch: the tables' (another namespace,
   * too) and the work directory's. MapReduce itself only fetches tokens for its staging directory and for
   * FileInputFormat's inputs, and this job's input format reads the tables itself.
   */
  private static void obtainTokens(Job job, EdgeTable edges, NodeTable nodes, Path work) throws IOException {
    List<Path> paths = new ArrayList<>(nodes.files());
    paths.addAll(edges.files());
    paths.add(work);
    TokenCache.obtainTokensForNamenodes(job.getCredentials(), paths.toArray(new Path[0]), job.getConfiguration());
  }

  private static InputFinding firstError(FileSystem fs, Path work) throws IOException {
    Path dir = new Path(work, InputFinding.DIR);
    if (!fs.exists(dir)) {
      return null;
    }
    InputFinding first = null;
    for (FileStatus st : fs.listStatus(dir)) {
      first = InputFinding.min(first, InputFinding.read(fs, st.getPath()));
    }
    return first;
  }

  private static PartitionedGraphStats writeManifest(FileSystem fs, Path work, PartitionJobOptions o,
      Ownership ownership, EdgeTable edges, NodeTable nodes, double seconds) throws IOException {
    List<PartitionStats> stats = new ArrayList<>();
    List<Map<String, PartitionFiles.Checksum>> sums = new ArrayList<>();
    for (int p = 0; p < o.partitions(); p++) {
      Path dir = new Path(work, PartitionFiles.dirName(p));
      Path meta = new Path(dir, PartitionReducer.META);
      if (!fs.exists(meta)) {
        throw new IllegalStateException("partition " + p + " was not written (no " + meta + ")");
      }
      Map<?, ?> m;
      try (java.io.InputStream in = fs.open(meta)) {
        m = (Map<?, ?>) Json.parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      }
      stats.add(new PartitionStats(p, num(m, "nodes"), num(m, "edges"), num(m, "halo_nodes"),
          (int) num(m, "max_in_degree"), num(m, "csr_bytes")));
      Map<String, PartitionFiles.Checksum> files = new java.util.LinkedHashMap<>();
      ((Map<?, ?>) m.get("files")).forEach((k, v) -> files.put((String) k, PartitionFiles.Checksum.fromJson(v)));
      sums.add(files);
      fs.delete(meta, false);
    }
    PartitionedGraphStats all = new PartitionedGraphStats(ownership, stats, 0, seconds);
    new PartitionManifest(o.partitions(), ownership, all.nodes(), all.edges(), nodes.featureWidth(),
        edges.weighted(), nodes.hasLabels(), nodes.hasSplits(), all, sums).write(fs, work);
    Path stale = new Path(work, InputFinding.DIR);
    if (fs.exists(stale)) {
      fs.delete(stale, true);
    }
    return all;
  }

  private static long num(Map<?, ?> m, String key) {
    return ((Number) m.get(key)).longValue();
  }
}
