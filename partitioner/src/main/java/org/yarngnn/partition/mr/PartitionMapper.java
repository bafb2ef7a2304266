package org.yarngnn.partition.mr;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Mapper;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.partition.GraphRecord;
import org.yarngnn.partition.InputFinding;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionKey;
import org.yarngnn.partition.RecordRouter;

/**
 * Reads one table file and routes its rows to their owners ({@link RecordRouter}), edges and references in blocks.
 * A malformed row is bad input, not a task failure: it is recorded under {@code _errors/} for the driver and the
 * task ends normally, so Hadoop does not retry a file that can never parse; the rows before it are still emitted,
 * since a finding among them comes first in table order.
 */
public final class PartitionMapper extends Mapper<NullWritable, NullWritable, PartitionKey, GraphRecord> {
  @Override
  protected void map(NullWritable k, NullWritable v, Context context) throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    TableSplit split = (TableSplit) context.getInputSplit();
    Ownership ownership = Ownership.parse(conf.get(JobConfKeys.OWNERSHIP));
    int blockRows = RecordRouter.blockRows(ownership.parts(), JobConfKeys.blockBufferBytes(conf),
        JobConfKeys.blockRows(conf));
    RecordRouter router = new RecordRouter(ownership, conf.getBoolean(JobConfKeys.UNDIRECTED, false),
        MissingFeatures.byName(conf.get(JobConfKeys.MISSING, "error")), conf.getInt(JobConfKeys.WIDTH, 0),
        split.file, blockRows, (key, rec) -> {
          try {
            context.write(key, rec);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
          }
        });
    try {
      try {
        if (split.table == InputFinding.NODES) {
          NodeTable.open(conf, new Path(conf.get(JobConfKeys.NODES)), JobConfKeys.readOptions(conf, "nodes"))
              .readFile(split.file, router);
        } else {
          EdgeTable.open(conf, new Path(conf.get(JobConfKeys.EDGES)), JobConfKeys.readOptions(conf, "edges"))
              .readFile(split.file, router);
        }
      } catch (InputException e) {
        Path work = new Path(conf.get(JobConfKeys.WORK));
        new InputFinding(split.table, split.file, Long.MAX_VALUE, 0, e.getMessage(), true).write(
            work.getFileSystem(conf), new Path(new Path(work, InputFinding.DIR), "m-" + split.table + "-" + split.file));
      }
      router.finish();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
