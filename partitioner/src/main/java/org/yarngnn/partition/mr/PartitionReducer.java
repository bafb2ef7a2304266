package org.yarngnn.partition.mr;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Reducer;
import org.yarngnn.compute.json.Json;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.GraphRecord;
import org.yarngnn.partition.InputFinding;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionAssembler;
import org.yarngnn.partition.PartitionKey;
import org.yarngnn.partition.PartitionStats;
import org.yarngnn.partition.format.PartitionFiles;

/**
 * Assembles one partition ({@link PartitionAssembler}) and writes its files under the job's work directory,
 * with a {@code _meta.json} (stats and checksums) the driver folds into the manifest; or, on bad input, only
 * its first finding under {@code _errors/}. A partition that receives no record (hash ownership of a small
 * graph can leave one without a node) is written empty, so that the graph stays loadable.
 */
public final class PartitionReducer extends Reducer<PartitionKey, GraphRecord, NullWritable, NullWritable> {
  static final String META = "_meta.json";

  private boolean reduced;

  @Override
  protected void reduce(PartitionKey key, Iterable<GraphRecord> values, Context context)
      throws IOException, InterruptedException {
    reduced = true;
    Configuration conf = context.getConfiguration();
    int p = key.partition();
    PartitionAssembler a = assembler(p, conf);
    long seen = 0;
    for (GraphRecord r : values) {
      a.accept(r);
      seen += r.count();
      if (seen >= 1 << 20) {
        seen = 0;
        context.progress();
      }
    }
    Path work = new Path(conf.get(JobConfKeys.WORK));
    FileSystem fs = work.getFileSystem(conf);
    InputFinding error = a.error();
    if (error != null) {
      error.write(fs, new Path(new Path(work, InputFinding.DIR), "r-" + p));
      return;
    }
    writePartition(fs, work, a.finish());
  }

  /** Without a key this task's partition got no record: its empty files, as any partition's. */
  @Override
  protected void cleanup(Context context) throws IOException {
    if (!reduced) {
      Configuration conf = context.getConfiguration();
      // The owner partitioner sends partition p to reduce task p.
      int p = context.getTaskAttemptID().getTaskID().getId();
      Path work = new Path(conf.get(JobConfKeys.WORK));
      writePartition(work.getFileSystem(conf), work, assembler(p, conf).finish());
    }
  }

  private static PartitionAssembler assembler(int p, Configuration conf) {
    return new PartitionAssembler(p, Ownership.parse(conf.get(JobConfKeys.OWNERSHIP)),
        conf.getInt(JobConfKeys.WIDTH, 0), conf.getBoolean(JobConfKeys.WEIGHTED, false),
        conf.getBoolean(JobConfKeys.LABELS, false), conf.getBoolean(JobConfKeys.SPLITS, false),
        MissingFeatures.byName(conf.get(JobConfKeys.MISSING, "error")));
  }

  /** Writes a partition's files and its {@code _meta.json}. */
  static void writePartition(FileSystem fs, Path work, GraphPartition g) throws IOException {
    Path dir = new Path(work, PartitionFiles.dirName(g.index()));
    Map<String, PartitionFiles.Checksum> sums = PartitionFiles.write(fs, dir, g.block(), g.features(),
        g.labels(), g.splits());
    Map<String, Object> meta = new LinkedHashMap<>();
    PartitionStats s = g.stats();
    meta.put("partition", s.partition());
    meta.put("nodes", s.nodes());
    meta.put("edges", s.edges());
    meta.put("halo_nodes", s.haloNodes());
    meta.put("max_in_degree", s.maxInDegree());
    meta.put("csr_bytes", s.csrBytes());
    Map<String, Object> files = new LinkedHashMap<>();
    sums.forEach((name, sum) -> files.put(name, sum.toJson()));
    meta.put("files", files);
    try (OutputStream out = fs.create(new Path(dir, META), true)) {
      out.write(Json.write(meta).getBytes(StandardCharsets.UTF_8));
    }
  }
}
