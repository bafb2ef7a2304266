package org.yarngnn.partition.mr;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.yarngnn.partition.InputFinding;

/** One file of the nodes or edges table: a map task reads it whole through hdfs-io's readers. */
public final class TableSplit extends InputSplit implements Writable {
  int table;
  int file;
  String path = "";
  long length;
  String[] hosts = new String[0];

  public TableSplit() {}

  TableSplit(int table, int file, String path, long length, String[] hosts) {
    this.table = table;
    this.file = file;
    this.path = path;
    this.length = length;
    this.hosts = hosts;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public String[] getLocations() {
    return hosts;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeInt(table);
    out.writeInt(file);
    Text.writeString(out, path);
    out.writeLong(length);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    table = in.readInt();
    file = in.readInt();
    path = Text.readString(in);
    length = in.readLong();
    hosts = new String[0];
  }

  @Override
  public String toString() {
    return (table == InputFinding.NODES ? "nodes " : "edges ") + path;
  }
}
