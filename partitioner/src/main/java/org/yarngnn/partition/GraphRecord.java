package org.yarngnn.partition;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/**
 * Map output value of the partition job, one of three kinds (the key's kind says which): a node row (id, label,
 * split, features, with its table file and row for error messages); a block of source references
 * ({@link RefBlock}: node ids edges elsewhere need, checked by their owner); a block of edges into the owner's
 * nodes ({@link EdgeBlock}). Edges and references travel in blocks of many rows, so the shuffle sorts, spills and
 * merges a few records per thousand edges instead of one or two per edge.
 */
public final class GraphRecord implements Writable {
  byte kind;
  long id;
  int label = -1;
  byte split;
  int file;
  long row;
  float[] features = new float[0];
  int width;
  /** The block of a REF or EDGE record: the router's own buffer when writing, reused when reading. */
  RefBlock refs;
  EdgeBlock edges;

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

  GraphRecord refs(RefBlock block) {
    this.kind = PartitionKey.REF;
    this.refs = block;
    return this;
  }

  GraphRecord edges(EdgeBlock block) {
    this.kind = PartitionKey.EDGE;
    this.edges = block;
    return this;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(kind);
    switch (kind) {
      case PartitionKey.NODE:
        out.writeLong(id);
        out.writeInt(file);
        out.writeLong(row);
        out.writeInt(label);
        out.writeByte(split);
        out.writeInt(width);
        for (int i = 0; i < width; i++) {
          out.writeFloat(features[i]);
        }
        break;
      case PartitionKey.REF:
        refs.write(out);
        break;
      default:
        edges.write(out);
        break;
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    kind = in.readByte();
    switch (kind) {
      case PartitionKey.NODE:
        id = in.readLong();
        file = in.readInt();
        row = in.readLong();
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
        if (refs == null) {
          refs = new RefBlock();
        }
        refs.readFields(in);
        break;
      case PartitionKey.EDGE:
        if (edges == null) {
          edges = new EdgeBlock();
        }
        edges.readFields(in);
        break;
      default:
        throw new IOException("corrupt partition job record of kind " + kind);
    }
  }
}
