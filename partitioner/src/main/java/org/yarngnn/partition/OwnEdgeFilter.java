package org.yarngnn.partition;

/**
 * Picks one partition's share out of every edge row, for a worker that reads the whole edge table itself instead
 * of its share of the files with the rest routed to it. It keeps what a {@link RecordRouter} made for that
 * partition would keep (the edges into its nodes, the references to its nodes from other partitions' edges) and
 * drops the rest: every other partition reads the same rows and keeps its own, so each edge is still checked by
 * its destination's owner and each source by its owner, without a block, a message or a copy.
 */
public final class OwnEdgeFilter extends InEdgeSink {
  private final Ownership ownership;
  private final int partition;
  private final RecordRouter.OwnEdges own;
  /** {@link #own} when it is an assembler's writer, for {@link #edges}' block path; else null. */
  private final PartitionAssembler.DirectEdges.Writer direct;
  /** This partition's id range under range ownership ({@code lo == hi} otherwise). */
  private final long lo;
  private final long hi;

  public OwnEdgeFilter(Ownership ownership, boolean undirected, int partition, RecordRouter.OwnEdges own) {
    super(undirected);
    if (partition < 0 || partition >= ownership.parts()) {
      throw new IllegalArgumentException("partition " + partition + " of " + ownership.parts());
    }
    this.ownership = ownership;
    this.partition = partition;
    this.own = own;
    this.direct = own instanceof PartitionAssembler.DirectEdges.Writer ? (PartitionAssembler.DirectEdges.Writer) own
        : null;
    this.lo = ownership.isRange() ? ownership.rangeStart(partition) : 0;
    this.hi = ownership.isRange() ? ownership.rangeStart(partition + 1) : 0;
  }

  /**
   * A block of rows: under range ownership of dense ids, through the writer's branch-free block path (each row
   * checked once against the range, no owner lookups or calls per edge: with peers every worker reads every row,
   * and the per-edge path cost as much as decoding); any other case, and any row the block path cannot take,
   * edge by edge.
   */
  @Override
  public void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
    if (direct == null || hi <= lo || !direct.keepRange(src, dst, weight, count, firstRow, lo, hi, this)) {
      super.edges(src, dst, weight, count, firstRow);
    }
  }

  /** Later rows come from table file {@code f}. */
  public void file(int f) {
    own.file(f);
  }

  /** Keeps the in-edge if its destination is this partition's, else checks its source if that is. */
  @Override
  void inEdge(long to, long from, float weight, boolean reversed, long row) {
    int toOwner = ownership.owner(to);
    int fromOwner = ownership.owner(from);
    if (toOwner == partition) {
      own.ownEdge(to, from, weight, reversed, fromOwner == partition, row);
    } else if (fromOwner == partition) {
      own.ownReference(from, reversed ? 1 : 0, row);
    }
  }
}
