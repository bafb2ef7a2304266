package org.yarngnn.partition;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/**
 * Map output value of the partition job, one of three kinds (the key's kind says which fields are set):
 * a node row (id, label, split, features); a source reference (a node id an edge elsewhere needs, checked by
 * its owner); an edge into the owner's node ({@code to}) from {@code from}, possibly the reverse of the table's
 * edge under --undirected. Every record carries its table file index and row for error messages.
 */
public final class GraphRecord implements Writable {
  byte kind;
  long id;
  long from;
  float weight = 1f;
  int label = -1;
  byte split;
  /** For references: 0 when the id came from the src column, 1 from dst. For edges: 1 when reversed. */
  byte column;
  int file;
  long row;
  float[] features = new float[0];
  int width;

  GraphRecord node(long id, int label, byte split, float[] f, int width, int file, long row) {
    this.kind = PartitionKey.NODE;
    this.id = id;
    this.label = label;
    this.split = split;
    if (features.length < width) {
      features = new float[width];
    }
    System.arraycopy(f, 0, features, 0, width);
    this.width = width;
    this.file = file;
    this.row = row;
    return this;
  }

  GraphRecord ref(long id, int column, int file, long row) {
    this.kind = PartitionKey.REF;
    this.id = id;
    this.column = (byte) column;
    this.file = file;
    this.row = row;
    return this;
  }

  GraphRecord edge(long to, long from, float weight, boolean reversed, int file, long row) {
    this.kind = PartitionKey.EDGE;
    this.id = to;
    this.from = from;
    this.weight = weight;
    this.column = (byte) (reversed ? 1 : 0);
    this.file = file;
    this.row = row;
    return this;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(kind);
    out.writeLong(id);
    out.writeInt(file);
    out.writeLong(row);
    switch (kind) {
      case PartitionKey.NODE:
        out.writeInt(label);
        out.writeByte(split);
        out.writeInt(width);
        for (int i = 0; i < width; i++) {
          out.writeFloat(features[i]);
        }
        break;
      case PartitionKey.REF:
        out.writeByte(column);
        break;
      default:
        out.writeLong(from);
        out.writeFloat(weight);
        out.writeByte(column);
        break;
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    kind = in.readByte();
    id = in.readLong();
    file = in.readInt();
    row = in.readLong();
    switch (kind) {
      case PartitionKey.NODE:
        label = in.readInt();
        split = in.readByte();
        width = in.readInt();
        if (features.length < width) {
          features = new float[width];
        }
        for (int i = 0; i < width; i++) {
          features[i] = in.readFloat();
        }
        break;
      case PartitionKey.REF:
        column = in.readByte();
        break;
      default:
        from = in.readLong();
        weight = in.readFloat();
        column = in.readByte();
        break;
    }
  }
}
