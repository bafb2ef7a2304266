package org.yarngnn.partition.mr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;
import org.yarngnn.partition.InputFinding;

/**
 * One split per file of the nodes and edges tables (located at the file's first block), each giving its mapper
 * a single empty record: the mapper reads the file itself with hdfs-io's readers, which handle every table
 * format, compression and the contract's row checks.
 */
public final class TableInputFormat extends InputFormat<NullWritable, NullWritable> {
  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    List<InputSplit> splits = new ArrayList<>();
    List<Path> nodeFiles = NodeTable.open(conf, new Path(conf.get(JobConfKeys.NODES)),
        JobConfKeys.readOptions(conf, "nodes")).files();
    List<Path> edgeFiles = EdgeTable.open(conf, new Path(conf.get(JobConfKeys.EDGES)),
        JobConfKeys.readOptions(conf, "edges")).files();
    add(conf, splits, InputFinding.NODES, nodeFiles);
    add(conf, splits, InputFinding.EDGES, edgeFiles);
    return splits;
  }

  private static void add(Configuration conf, List<InputSplit> splits, int table, List<Path> files)
      throws IOException {
    for (int i = 0; i < files.size(); i++) {
      Path f = files.get(i);
      FileSystem fs = f.getFileSystem(conf);
      FileStatus st = fs.getFileStatus(f);
      BlockLocation[] blocks = fs.getFileBlockLocations(st, 0, Math.max(1, st.getLen()));
      String[] hosts = blocks.length == 0 ? new String[0] : blocks[0].getHosts();
      splits.add(new TableSplit(table, i, f.toString(), st.getLen(), hosts));
    }
  }

  @Override
  public RecordReader<NullWritable, NullWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new RecordReader<>() {
      private boolean done;

      @Override
      public void initialize(InputSplit s, TaskAttemptContext c) {}

      @Override
      public boolean nextKeyValue() {
        boolean first = !done;
        done = true;
        return first;
      }

      @Override
      public NullWritable getCurrentKey() {
        return NullWritable.get();
      }

      @Override
      public NullWritable getCurrentValue() {
        return NullWritable.get();
      }

      @Override
      public float getProgress() {
        return done ? 1 : 0;
      }

      @Override
      public void close() {}
    };
  }
}
