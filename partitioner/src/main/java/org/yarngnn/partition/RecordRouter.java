package org.yarngnn.partition;

import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.NodeSink;

/**
 * The partition job's map logic, free of Hadoop: turns table rows into keyed records for their owners. A node
 * row goes to its owner. An edge goes to its destination's owner; its source is checked by the
 * source's owner through a reference when that is another partition (the destination's owner checks a local
 * source itself). Under --missing-features zero both endpoints are referenced, so owners can add missing nodes
 * before their edges arrive. Under --undirected the reverse edge is routed the same way. Rows are buffered per
 * owner and kind and emitted as blocks ({@link NodeBlock}, {@link RefBlock}, {@link EdgeBlock}) of up to
 * {@code blockRows} entries (fewer nodes when their feature rows are wide); {@link #finish} emits the partly
 * filled ones, so map-side memory stays at one block per owner and kind.
 */
public final class RecordRouter extends InEdgeSink implements NodeSink {
  /** Receives each routed record; the key and record objects are reused. */
  public interface Emitter {
    void emit(PartitionKey key, GraphRecord record);
  }

  /**
   * Where a router made for one worker's own partition puts what that partition keeps, instead of emitting it as
   * blocks: the edges into its nodes and the references to its nodes from other partitions' edges. The checks are
   * the owner's ({@link PartitionAssembler.DirectEdges.Writer}); the router only decides what is whose.
   */
  public interface OwnEdges {
    /** Later rows come from table file {@code f}. */
    void file(int f);

    /** An edge into local node {@code to}; {@code fromLocal} when its source is local too (checked here then). */
    void ownEdge(long to, long from, float weight, boolean reversed, boolean fromLocal, long row);

    /** Local node {@code id}, the source in {@code column} of an edge kept by another partition. */
    void ownReference(long id, int column, long row);
  }

  /** Entries per block at most: large enough that per-record shuffle costs vanish, small enough to sort cheaply. */
  public static final int MAX_BLOCK_ROWS = 1 << 16;
  /** Map-side buffer for all owners' blocks together, by default. */
  public static final long DEFAULT_BUFFER_BYTES = 64L << 20;
  /**
   * Buffered bytes per entry of an edge block, of a reference block (with its recent-id cache at worst), and the
   * budget of a node block per entry.
   */
  private static final int EDGE_ROW_BYTES = 29;
  private static final int BYTES_PER_ROW = EDGE_ROW_BYTES + 17 + 24 + EDGE_ROW_BYTES;
  private static final int MIN_BLOCK_ROWS = 64;

  private final Ownership ownership;
  private final boolean referenceAll;
  private final int width;
  private int file;
  private final int blockRows;
  private final int nodeRows;
  private final Emitter out;
  /** The partition kept through {@link #own} rather than emitted, or -1. */
  private final int ownPartition;
  private final OwnEdges own;
  private final PartitionKey key = new PartitionKey();
  private final GraphRecord rec = new GraphRecord();
  private final NodeBlock[] nodeBlocks;
  private final EdgeBlock[] edgeBlocks;
  private final RefBlock[] refBlocks;
  private final ShuffleBlock.Scratch scratch = new ShuffleBlock.Scratch();
  private int blocks;

  RecordRouter(Ownership ownership, boolean undirected, MissingFeatures missing, int width, int file,
      Emitter out) {
    this(ownership, undirected, missing, width, file,
        blockRows(ownership.parts(), DEFAULT_BUFFER_BYTES, MAX_BLOCK_ROWS), out);
  }

  public RecordRouter(Ownership ownership, boolean undirected, MissingFeatures missing, int width, int file,
      int blockRows, Emitter out) {
    this(ownership, undirected, missing, width, file, blockRows, out, -1, null);
  }

  /**
   * A router that gives partition {@code ownPartition}'s edges and references to {@code own} and emits only the
   * other partitions' blocks. Not under --missing-features zero, whose references add nodes before edges come.
   */
  public RecordRouter(Ownership ownership, boolean undirected, MissingFeatures missing, int width, int file,
      int blockRows, Emitter out, int ownPartition, OwnEdges own) {
    super(undirected);
    if (own != null && missing == MissingFeatures.ZERO) {
      throw new IllegalArgumentException(
          "edges kept in place need every node row known: not with --missing-features zero");
    }
    if (blockRows < 1) {
      throw new IllegalArgumentException("block rows must be positive, not " + blockRows);
    }
    this.ownership = ownership;
    this.referenceAll = missing == MissingFeatures.ZERO;
    this.width = width;
    this.file = file;
    this.blockRows = blockRows;
    // A node block may take as many bytes as an edge block: ids, labels, splits, features and rows.
    this.nodeRows = (int) Math.max(1, Math.min(blockRows, (long) blockRows * EDGE_ROW_BYTES / (22L + 4L * width)));
    this.out = out;
    this.ownPartition = own == null ? -1 : ownPartition;
    this.own = own;
    if (own != null) {
      own.file(file);
    }
    this.nodeBlocks = new NodeBlock[ownership.parts()];
    this.edgeBlocks = new EdgeBlock[ownership.parts()];
    this.refBlocks = new RefBlock[ownership.parts()];
  }

  /** Entries per block so that one edge and one reference block per owner fit {@code bufferBytes}. */
  public static int blockRows(int parts, long bufferBytes, int maxRows) {
    long rows = bufferBytes / ((long) Math.max(1, parts) * BYTES_PER_ROW);
    return (int) Math.max(Math.min(MIN_BLOCK_ROWS, maxRows), Math.min(maxRows, rows));
  }

  @Override
  public void beginFile(String name) {
    // Records carry the file index the router was made for.
  }

  /**
   * Later rows come from table file {@code f}: emits the partly filled blocks of the previous file first (one
   * router can then read several files, as a worker's reader thread does).
   */
  public void file(int f) {
    if (f == file) {
      return;
    }
    finish();
    file = f;
    if (own != null) {
      own.file(f);
    }
    for (int p = 0; p < refBlocks.length; p++) {
      for (ShuffleBlock b : new ShuffleBlock[] {nodeBlocks[p], refBlocks[p], edgeBlocks[p]}) {
        if (b != null) {
          b.clear(f);
        }
      }
    }
  }

  @Override
  public void node(long id, int label, byte split, float[] features, long row) {
    node(id, label, split, features, 0, row);
  }

  /** A node row whose {@code width} features are {@code features[offset, offset + width)}. */
  public void node(long id, int label, byte split, float[] features, int offset, long row) {
    int owner = ownership.owner(id);
    NodeBlock b = nodeBlocks[owner];
    if (b == null) {
      b = nodeBlocks[owner] = new NodeBlock(width, scratch);
      b.reserve(nodeRows, file);
    }
    b.add(id, label, split, features, offset, row);
    if (b.count == nodeRows) {
      flushNodes(owner);
    }
  }

  /** Routes the in-edge to its destination's owner, with a reference for its source's owner where that differs. */
  @Override
  void inEdge(long to, long from, float weight, boolean reversed, long row) {
    int toOwner = ownership.owner(to);
    int fromOwner = ownership.owner(from);
    int fromColumn = reversed ? 1 : 0;
    if (own != null) {
      if (fromOwner != toOwner) {
        if (fromOwner == ownPartition) {
          own.ownReference(from, fromColumn, row);
        } else {
          reference(fromOwner, from, fromColumn, row);
        }
      }
      if (toOwner == ownPartition) {
        own.ownEdge(to, from, weight, reversed, fromOwner == toOwner, row);
        return;
      }
    } else if (referenceAll || fromOwner != toOwner) {
      reference(fromOwner, from, fromColumn, row);
    }
    if (referenceAll) {
      reference(toOwner, to, 1 - fromColumn, row);
    }
    EdgeBlock b = edgeBlocks[toOwner];
    if (b == null) {
      b = edgeBlocks[toOwner] = new EdgeBlock(scratch);
      b.reserve(blockRows, file);
    }
    b.add(to, from, weight, reversed, row);
    if (b.count == blockRows) {
      flushEdges(toOwner);
    }
  }

  /**
   * Node {@code id}, an endpoint (in {@code column}) of row {@code row} that is not routed as an edge (link
   * prediction's held-out edges): a reference for its owner, which checks it, or under --missing-features zero adds
   * it, as it would a routed edge's endpoint.
   */
  public void endpoint(long id, int column, long row) {
    reference(ownership.owner(id), id, column, row);
  }

  private void reference(int owner, long id, int column, long row) {
    RefBlock b = refBlocks[owner];
    if (b == null) {
      b = refBlocks[owner] = new RefBlock(scratch);
      b.reserve(blockRows, file);
    }
    b.add(id, column, row);
    if (b.count == blockRows) {
      flushReferences(owner);
    }
  }

  private void flushNodes(int owner) {
    NodeBlock b = nodeBlocks[owner];
    out.emit(key.block(owner, PartitionKey.NODE, file, blocks++), rec.nodes(b));
    if (kept()) {
      b.clear(file);
    } else {
      nodeBlocks[owner] = null;
    }
  }

  private void flushEdges(int owner) {
    EdgeBlock b = edgeBlocks[owner];
    out.emit(key.block(owner, PartitionKey.EDGE, file, blocks++), rec.edges(b));
    if (kept()) {
      b.clear(file);
    } else {
      edgeBlocks[owner] = null;
    }
  }

  private void flushReferences(int owner) {
    RefBlock b = refBlocks[owner];
    out.emit(key.block(owner, PartitionKey.REF, file, blocks++), rec.refs(b));
    if (kept()) {
      b.clear(file);
    } else {
      refBlocks[owner] = null;
    }
  }

  /** Whether the emitted block is still the router's: not if the emitter took it ({@link GraphRecord#take}). */
  private boolean kept() {
    boolean taken = rec.taken;
    rec.taken = false;
    return !taken;
  }

  /** Emits every partly filled block; call after the file's last row (also after a malformed row). */
  public void finish() {
    for (int p = 0; p < refBlocks.length; p++) {
      if (nodeBlocks[p] != null && nodeBlocks[p].count > 0) {
        flushNodes(p);
      }
      if (refBlocks[p] != null && refBlocks[p].count > 0) {
        flushReferences(p);
      }
      if (edgeBlocks[p] != null && edgeBlocks[p].count > 0) {
        flushEdges(p);
      }
    }
  }
}
