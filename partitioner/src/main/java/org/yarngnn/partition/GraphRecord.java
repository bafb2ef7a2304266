package org.yarngnn.partition;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/**
 * Map output value of the partition job: a block of one kind (the key's kind says which), rows of one table file
 * for one owner partition. Node rows ({@link NodeBlock}); source references ({@link RefBlock}: node ids edges
 * elsewhere need, checked by their owner); edges into the owner's nodes ({@link EdgeBlock}). Rows travel in
 * blocks of many, so the shuffle sorts, spills and merges a few records per thousand rows instead of one or two
 * per edge.
 */
public final class GraphRecord implements Writable {
  byte kind;
  /** The block of the record's kind: the router's own buffer when writing, reused when reading. */
  NodeBlock nodes;
  RefBlock refs;
  EdgeBlock edges;

  GraphRecord nodes(NodeBlock block) {
    this.kind = PartitionKey.NODE;
    this.nodes = block;
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

  /** Rows in the block (progress reporting). */
  public int count() {
    return kind == PartitionKey.NODE ? nodes.count : kind == PartitionKey.REF ? refs.count : edges.count;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(kind);
    switch (kind) {
      case PartitionKey.NODE:
        nodes.write(out);
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
        if (nodes == null) {
          nodes = new NodeBlock(0);
        }
        nodes.readFields(in);
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
