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
  /** Set by {@link #take}: the emitting router must start a new block rather than reuse this one's. */
  boolean taken;

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

  /** The block's kind: {@link PartitionKey#NODE}, {@link PartitionKey#REF} or {@link PartitionKey#EDGE}. */
  public byte kind() {
    return kind;
  }

  private ShuffleBlock block() {
    return kind == PartitionKey.NODE ? nodes : kind == PartitionKey.REF ? refs : edges;
  }

  /**
   * A record holding a copy of this one's block: for handing a routed block to a consumer on another thread
   * without encoding it ({@link RecordRouter} reuses its blocks once the emitter returns).
   */
  public GraphRecord copy() {
    GraphRecord c = new GraphRecord();
    c.kind = kind;
    switch (kind) {
      case PartitionKey.NODE: c.nodes = nodes.copy(); break;
      case PartitionKey.REF: c.refs = refs.copy(); break;
      default: c.edges = edges.copy(); break;
    }
    return c;
  }

  /**
   * A node record over the caller's arrays, without a copy (the caller gives them up): {@code count} rows of
   * table file {@code file} (their table rows in {@code rows}), {@code width} features each; labels and splits may
   * be null. For rows read by the worker that owns them, which need no routing.
   */
  public static GraphRecord nodeRows(int file, int count, long[] ids, long[] rows, int width, float[] features,
      int offset, int[] labels, byte[] splits) {
    return new GraphRecord().nodes(NodeBlock.over(file, count, ids, rows, width, features, offset, labels,
        splits));
  }

  /**
   * A record that takes over this one's block, for a consumer of the emitting worker itself: the
   * {@link RecordRouter} that emitted it starts a new block instead of reusing this one, so the rows are not
   * copied (as {@link #copy} does). Only inside {@link RecordRouter.Emitter#emit}.
   */
  public GraphRecord take() {
    GraphRecord c = new GraphRecord();
    c.kind = kind;
    c.nodes = nodes;
    c.refs = refs;
    c.edges = edges;
    if (kind == PartitionKey.NODE) {
      nodes.owned = true;
    }
    taken = true;
    return c;
  }

  /**
   * The block in its wire form ({@link ShuffleBlock#write}, without the kind byte), encoded straight into an array of
   * its own of exactly that length.
   */
  public byte[] encodeBlock() {
    return block().encode();
  }

  /** {@link #decode(byte, byte[], int, int, int)} of {@code bytes[0, length)}. */
  public GraphRecord decode(byte kind, byte[] bytes, int length, int width) throws IOException {
    return decode(kind, bytes, 0, length, width);
  }

  /**
   * Decodes a block of {@code kind} encoded by {@link #encodeBlock} from {@code bytes[offset, offset + length)}
   * into this record (its block objects are reused), node rows required to be {@code width} floats wide. The
   * block is decoded in place and keeps {@code bytes} for its table rows (decoded when an error names one), so
   * the caller leaves them unchanged while it uses the record. Every count and length is checked against those
   * bytes before anything is allocated for it ({@link ShuffleBlock#decode}), and the block must use them all;
   * corrupt bytes fail with an {@link IOException}.
   */
  public GraphRecord decode(byte kind, byte[] bytes, int offset, int length, int width) throws IOException {
    ShuffleBlock b;
    switch (kind) {
      case PartitionKey.NODE:
        if (nodes == null) {
          nodes = new NodeBlock(width);
        }
        b = nodes.expectWidth(width);
        break;
      case PartitionKey.REF:
        b = refs = refs == null ? new RefBlock() : refs;
        break;
      case PartitionKey.EDGE:
        b = edges = edges == null ? new EdgeBlock() : edges;
        break;
      default:
        throw new IOException("corrupt construction block of kind " + kind);
    }
    b.decode(bytes, offset, length);
    this.kind = kind;
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
