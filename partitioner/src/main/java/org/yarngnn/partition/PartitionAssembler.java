package org.yarngnn.partition;

import java.util.Arrays;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.NodeSplit;

/**
 * The owner-side construction of one partition, free of Hadoop and of the transport: the partition job's reduce
 * logic and the {@code infer} workers' assembler. Consumes one partition's blocks: all node blocks first, then
 * reference and edge blocks in any order and interleaving (the shuffle hands references before edges; a worker
 * receives both from several peers at once). It assembles the partition, or keeps the first bad-input finding
 * (duplicate id, an edge endpoint without a node row whatever the ownership) in table order: findings are
 * compared by (file, row, column) ({@link InputFinding#min}), so the order blocks arrive in does not matter. Edges
 * are held as (int32 local destination, int64 source id, float32 weight when weighted) until
 * {@link PartitionBlockBuilder} builds the block, whose CSR depends only on the multiset of edges. Under
 * --missing-features zero, an edge whose destination has no row yet is kept with a provisional destination,
 * resolved once every reference (which adds such ids as zero-featured nodes) has arrived, in {@link #finish}.
 */
public final class PartitionAssembler {
  private final int partition;
  private final Ownership ownership;
  private final boolean weighted;
  private final boolean zeroMissing;
  private final FeatureRows features;
  /** Table node rows as they arrive, each id once (its first arrival), with the (file, row) of its first row. */
  private long[] ids = new long[1024];
  private int[] labels;
  private byte[] splits;
  private int[] nodeFile = new int[1024];
  private long[] nodeRow = new long[1024];
  private int tableNodes;
  private boolean ascending = true;
  private long minId = Long.MAX_VALUE;
  private long maxId = Long.MIN_VALUE;
  /** Id to arrival index, built as the rows arrive (duplicates are found here). */
  private NodeIndex arrived = new NodeIndex(1024);
  /** After the node phase: final ids ascending (table nodes merged with added missing ones) and their rows. */
  private long[] finalIds;
  /** Arrival index of each final id, -1 for an added missing node; null while that is the identity. */
  private int[] tableRowOf;
  /** Missing ids referenced (zero-missing) but not yet merged into {@link #finalIds}. */
  private long[] missing = new long[16];
  private int numMissing;
  /** Index of {@link #finalIds}; valid from the end of the node phase on. */
  private NodeIndex index;
  /** Zero-missing: destinations met before a reference added them; an edge's dst {@code -1 - p} is id p here. */
  private NodeIndex provisional;
  private java.util.function.LongConsumer slotsKnown = slots -> { };
  /** The rows in final node order, gathered ahead of {@link #finish} by {@link #gatherRows}. */
  private DenseMatrix gathered;
  private int[] dst = new int[1024];
  /**
   * Each edge's source id: as an int once the node ids are declared dense ({@link #denseNodeIds}), which halves the
   * array and lets the block be built over it; else as a long.
   */
  private long[] src = new long[1024];
  private int[] src32;
  /** Sources held in {@link #src32}: the node ids are exactly 0..denseNodes-1, so any other id is dangling. */
  private boolean narrow;
  private long denseNodes = -1;
  private float[] w;
  private int edges;
  private boolean nodesDone;
  private boolean edgesSeen;
  /** Set while edges are written straight in ({@link #directEdges}): edge blocks then go through it too. */
  private DirectEdges direct;
  private InputFinding error;

  public PartitionAssembler(int partition, Ownership ownership, int width, boolean weighted, boolean hasLabels,
      boolean hasSplits, MissingFeatures missing) {
    this.partition = partition;
    this.ownership = ownership;
    this.weighted = weighted;
    this.zeroMissing = missing == MissingFeatures.ZERO;
    this.features = new FeatureRows(width);
    this.labels = hasLabels ? new int[ids.length] : null;
    this.splits = hasSplits ? new byte[ids.length] : null;
    this.w = weighted ? new float[dst.length] : null;
  }

  /** Feeds one record: node blocks before any other; references and edges then in any order. */
  public void accept(GraphRecord r) {
    if (r.kind == PartitionKey.NODE) {
      if (nodesDone) {
        throw new IllegalStateException("node block after the node phase of partition " + partition);
      }
      nodes(r.nodes);
      return;
    }
    endNodes();
    if (r.kind == PartitionKey.REF) {
      references(r.refs);
    } else if (direct != null) {
      direct.block(r.edges);
    } else {
      edges(r.edges);
    }
  }

  private void nodes(NodeBlock b) {
    int width = features.width();
    // A block given up by its producer (rows its own worker read) is kept as it is when it repeats no id;
    // otherwise each new row is copied and the repeats are left out.
    boolean adopt = b.owned;
    boolean[] repeat = null;
    for (int i = 0; i < b.count; i++) {
      long id = b.ids[i];
      int k = arrived.add(id);
      if (k < 0) {
        duplicate(-1 - k, id, b.file, b.row(i));
        if (repeat == null) {
          repeat = new boolean[b.count];
        }
        repeat[i] = true;
        continue;
      }
      if (k == ids.length) {
        int cap = ids.length * 2;
        ids = Arrays.copyOf(ids, cap);
        nodeFile = Arrays.copyOf(nodeFile, cap);
        nodeRow = Arrays.copyOf(nodeRow, cap);
        labels = labels == null ? null : Arrays.copyOf(labels, cap);
        splits = splits == null ? null : Arrays.copyOf(splits, cap);
      }
      ascending &= k == 0 || ids[k - 1] < id;
      minId = Math.min(minId, id);
      maxId = Math.max(maxId, id);
      ids[k] = id;
      nodeFile[k] = b.file;
      nodeRow[k] = b.row(i);
      if (labels != null) {
        labels[k] = b.label(i);
      }
      if (splits != null) {
        splits[k] = b.split(i);
      }
      if (!adopt) {
        features.add(b.features, b.featureOffset + i * width);
      }
      tableNodes++;
    }
    if (adopt && repeat == null) {
      features.adopt(b.features, b.featureOffset, b.count);
    } else if (adopt) {
      for (int i = 0; i < b.count; i++) {
        if (!repeat[i]) {
          features.add(b.features, b.featureOffset + i * width);
        }
      }
    }
  }

  /**
   * Another row of the id first kept at arrival index {@code k}. Of all rows with one id, the second in table
   * order is the offending one: each repeat offers the later of itself and the earliest row seen so far, and the
   * smallest offer is that second row, whatever order the blocks arrive in.
   */
  private void duplicate(int k, long id, int file, long row) {
    boolean earlier = file < nodeFile[k] || (file == nodeFile[k] && row < nodeRow[k]);
    InputFinding offer = earlier
        ? new InputFinding(InputFinding.NODES, nodeFile[k], nodeRow[k], 0, "duplicate node id " + id, false)
        : new InputFinding(InputFinding.NODES, file, row, 0, "duplicate node id " + id, false);
    if (earlier) {
      nodeFile[k] = file;
      nodeRow[k] = row;
    }
    error = InputFinding.min(error, offer);
  }

  /**
   * Ends the node phase (also implied by the first reference or edge block): from here on the table nodes are
   * fixed and indexed. Idempotent.
   */
  public void endNodes() {
    if (nodesDone) {
      return;
    }
    nodesDone = true;
    if (ascending) {
      // Arrival order is id order (one sorted node file, say): the arrival index is already the local index.
      finalIds = ids.length == tableNodes ? ids : Arrays.copyOf(ids, tableNodes);
      index = arrived;
    } else if (maxId - minId == tableNodes - 1) {
      // Distinct ids spanning exactly n values are minId..maxId (a range owner's share, arriving from several
      // readers): renumber by id without sorting; the index is then a run, which needs no table.
      finalIds = new long[tableNodes];
      tableRowOf = new int[tableNodes];
      for (int k = 0; k < tableNodes; k++) {
        int at = (int) (ids[k] - minId);
        finalIds[at] = ids[k];
        tableRowOf[at] = k;
      }
      buildIndex();
    } else {
      finalIds = Arrays.copyOf(ids, tableNodes);
      Arrays.sort(finalIds);
      tableRowOf = new int[tableNodes];
      for (int k = 0; k < tableNodes; k++) {
        tableRowOf[k] = arrived.get(finalIds[k]);
      }
      buildIndex();
    }
    arrived = null;
    nodeFile = null;
    nodeRow = null;
    ids = null;
  }

  private void buildIndex() {
    index = new NodeIndex(finalIds.length);
    for (long id : finalIds) {
      index.add(id);
    }
  }

  private void references(RefBlock b) {
    NodeIndex index = this.index;
    if (zeroMissing) {
      for (int i = 0; i < b.count; i++) {
        long id = b.ids[i];
        if (index.get(id) < 0) {
          addMissing(id);
        }
      }
      return;
    }
    for (int i = 0; i < b.count; i++) {
      if (index.get(b.ids[i]) < 0) {
        danglingAt(b, i, b.column(i), b.ids[i]);
      }
    }
  }

  private void addMissing(long id) {
    if (numMissing == missing.length) {
      compactMissing();
    }
    missing[numMissing++] = id;
  }

  /**
   * Sorts and deduplicates the missing ids (blocks repeat them), and doubles their array when that leaves it more
   * than half full, so repeats never take more than twice the distinct ids' memory.
   */
  private void compactMissing() {
    Arrays.sort(missing, 0, numMissing);
    int distinct = 0;
    for (int k = 0; k < numMissing; k++) {
      if (distinct == 0 || missing[distinct - 1] != missing[k]) {
        missing[distinct++] = missing[k];
      }
    }
    numMissing = distinct;
    if (numMissing * 2 > missing.length) {
      missing = Arrays.copyOf(missing, missing.length * 2);
    }
  }

  /**
   * Merges the missing ids met so far into the ascending node order and re-indexes; edges already held get their
   * destinations renumbered (never in shuffle order, where every reference comes before the first edge).
   */
  private void mergeMissing() {
    compactMissing();
    if (numMissing == 0) {
      return;
    }
    int old = finalIds.length;
    int n = old + numMissing;
    long[] merged = new long[n];
    int[] rowOf = new int[n];
    int[] moved = edges > 0 ? new int[old] : null;
    int i = 0;
    int j = 0;
    for (int k = 0; k < n; k++) {
      if (j == numMissing || (i < old && finalIds[i] < missing[j])) {
        rowOf[k] = tableRowOf == null ? i : tableRowOf[i];
        if (moved != null) {
          moved[i] = k;
        }
        merged[k] = finalIds[i++];
      } else {
        rowOf[k] = -1;
        merged[k] = missing[j++];
      }
    }
    numMissing = 0;
    finalIds = merged;
    tableRowOf = rowOf;
    buildIndex();
    if (moved != null) {
      for (int e = 0; e < edges; e++) {
        if (dst[e] >= 0) {
          dst[e] = moved[dst[e]];
        }
      }
    }
  }

  private void edges(EdgeBlock b) {
    if (zeroMissing && !edgesSeen) {
      // In shuffle order every reference has arrived: missing nodes join before any edge is held.
      mergeMissing();
    }
    edgesSeen = true;
    ensureEdgeCapacity(b.count);
    NodeIndex index = this.index;
    long[] to = b.to;
    long[] fromIds = b.from;
    int k = edges;
    for (int i = 0; i < b.count; i++) {
      int d = index.get(to[i]);
      long from = fromIds[i];
      if (d < 0) {
        if (!zeroMissing) {
          danglingAt(b, i, b.reversed(i) ? 0 : 1, to[i]);
          continue;
        }
        if (provisional == null) {
          provisional = new NodeIndex(1 << 10);
        }
        int p = provisional.add(to[i]);
        d = -1 - (p < 0 ? -1 - p : p);
      } else if (!zeroMissing && (index.get(from) < 0 && ownership.owner(from) == partition || outside(from))) {
        // Under zero-missing a local source without a row was referenced, so it joins as a missing node.
        danglingAt(b, i, b.reversed(i) ? 1 : 0, from);
        continue;
      }
      dst[k] = d;
      if (narrow) {
        src32[k] = (int) from;
      } else {
        src[k] = from;
      }
      if (w != null) {
        w[k] = b.weight(i);
      }
      k++;
    }
    edges = k;
    if (error != null) {
      // Nothing is built from a partition with bad input; only smaller findings matter from here on.
      edges = 0;
    }
  }

  /**
   * Sizes the edge arrays for about {@code n} edges up front (a hint: the edge table's footer counts, this
   * partition's share of them), so that they are not grown, copied and first-touched again and again as blocks
   * come: growing to 20M edges by halves copied and allocated about three times the final arrays. A hint is input
   * too: it is capped at a quarter of the heap; more edges than hinted still grow the arrays.
   */
  public void expectEdges(long n) {
    long rowBytes = Integer.BYTES + (narrow ? Integer.BYTES : Long.BYTES) + (w == null ? 0 : Float.BYTES);
    long cap = Math.min(Integer.MAX_VALUE - 16, Runtime.getRuntime().maxMemory() / 4 / rowBytes);
    int size = (int) Math.min(n, cap);
    if (size > dst.length && edges == 0) {
      dst = new int[size];
      src = narrow ? null : new long[size];
      src32 = narrow ? new int[size] : null;
      w = w == null ? null : new float[size];
    }
  }

  /**
   * Sizes the node arrays for {@code n} node rows before the first arrives (a range partition's row count, say), so
   * that they are not grown by doubling: on 1M nodes that is some 70 MB of copies and fresh memory saved. A hint:
   * more rows still fit, fewer waste only the room; ignored once rows have arrived or when not positive.
   */
  public void expectNodes(long n) {
    if (tableNodes > 0 || nodesDone || n <= ids.length || n > Integer.MAX_VALUE - 16) {
      return;
    }
    int cap = (int) n;
    ids = new long[cap];
    nodeFile = new int[cap];
    nodeRow = new long[cap];
    labels = labels == null ? null : new int[cap];
    splits = splits == null ? null : new byte[cap];
    arrived = new NodeIndex(cap);
  }

  /**
   * Declares the table's node ids to be exactly {@code 0..n-1} for the ownership's range node count {@code n} (what
   * a driver's range ownership means: {@link Ownership#choose} picks it only for such ids), before any edge: sources
   * are then held as ints, and a source id outside that range is dangling wherever its edge is kept. Not under
   * --missing-features zero (other ids join as nodes) nor past int range; returns whether sources are held so.
   */
  public boolean denseNodeIds() {
    if (!narrow && edges == 0 && !edgesSeen && ownership.isRange() && !zeroMissing
        && ownership.rangeNodes() <= Integer.MAX_VALUE) {
      narrow = true;
      denseNodes = ownership.rangeNodes();
      src32 = new int[dst.length];
      src = null;
    }
    return narrow;
  }

  /** Under {@link #narrow}: an id that is no node of the dense table (so dangling wherever it is checked). */
  private boolean outside(long id) {
    return narrow && (id < 0 || id >= denseNodes);
  }

  private void ensureEdgeCapacity(int more) {
    if ((long) edges + more > dst.length) {
      growEdges((long) edges + more);
    }
  }

  /** Grows the edge arrays to hold at least {@code need} edges (by half at least), or refuses past int range. */
  private void growEdges(long need) {
    if (need > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("more than " + (Integer.MAX_VALUE - 16) + " edges in partition "
          + partition + "; use more partitions");
    }
    int cap = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, dst.length * 3L / 2));
    dst = Arrays.copyOf(dst, cap);
    src = narrow ? null : Arrays.copyOf(src, cap);
    src32 = narrow ? Arrays.copyOf(src32, cap) : null;
    w = w == null ? null : Arrays.copyOf(w, cap);
  }

  private void danglingAt(ShuffleBlock b, int i, int column, long id) {
    dangling(b.file, b.row(i), column, id);
  }

  /** Synchronized: with {@link #directEdges}, reading threads and the consumer's blocks find at once. */
  private synchronized void dangling(int file, long row, int column, long id) {
    InputFinding here = new InputFinding(InputFinding.EDGES, file, row, column,
        EdgeCollector.danglingMessage(column == 0 ? "src" : "dst", id), false);
    error = InputFinding.min(error, here);
  }

  /**
   * Edges written straight into this assembler's arrays by several reading threads at once: no routing blocks, no
   * queue, no second copy. Each thread takes its own {@link DirectEdges#writer}, which checks endpoints against the
   * node index (read-only once the node phase has ended) and copies a batch at a time into a range it reserves.
   * A worker alone feeds it table rows ({@link DirectEdges.Writer#edge}); a worker with peers feeds it its own
   * share of what a {@link RecordRouter} routes ({@link RecordRouter.OwnEdges}), while peers' edge blocks, given
   * to {@link #accept} as before, go in through a writer of the consumer's. Not under --missing-features zero
   * (there nodes may still join). The edges count as the partition's once {@link DirectEdges#close} is called
   * (on the consumer's thread) after every reading writer's {@link DirectEdges.Writer#flush}. Findings are those
   * the block path would make, the first in table order kept.
   */
  public DirectEdges directEdges(boolean undirected) {
    if (zeroMissing) {
      throw new IllegalStateException("direct edges need every node row known: not with --missing-features zero");
    }
    endNodes();
    if (edgesSeen) {
      throw new IllegalStateException("direct edges after edge blocks in partition " + partition);
    }
    edgesSeen = true;
    direct = new DirectEdges(undirected);
    return direct;
  }

  /** See {@link #directEdges}. */
  public final class DirectEdges {
    private final boolean undirected;
    private final ReservedSlots slots = new ReservedSlots(edges, () -> dst.length, PartitionAssembler.this::growEdges);
    /** Peers' edge blocks, on the consumer's thread (made on first use: a worker alone has none). */
    private Writer blocks;

    private DirectEdges(boolean undirected) {
      this.undirected = undirected;
    }

    /** A peer's edge block, checked as {@link PartitionAssembler#edges} checks one. */
    private void block(EdgeBlock b) {
      if (blocks == null) {
        blocks = new Writer();
      }
      blocks.file(b.file);
      for (int i = 0; i < b.count; i++) {
        long from = b.from[i];
        blocks.ownEdge(b.to[i], from, b.weight(i), b.reversed(i), ownership.owner(from) == partition, b.row(i));
      }
    }

    /** A writer for one thread. */
    public Writer writer() {
      return new Writer();
    }

    /** Makes the written edges the partition's; call on the consumer's thread once every writer has flushed. */
    public void close() {
      if (blocks != null) {
        blocks.flush();
      }
      edges = (int) slots.count();
      direct = null;
    }

    /**
     * One thread's edges: an {@link EdgeSink} for the table reader of a worker alone, or a router's sink of the
     * edges it keeps; {@link #file} before each file's rows.
     */
    public final class Writer extends IntEdgeBatch implements EdgeSink, RecordRouter.OwnEdges {
      private final long[] s = narrow ? null : new long[BATCH];
      private int file;

      private Writer() {
        super(narrow, w != null);
      }

      /** Later rows come from table file {@code f} (for findings). */
      @Override
      public void file(int f) {
        file = f;
      }

      /** A routed edge into local node {@code to}: the checks of {@link PartitionAssembler#edges}, then kept. */
      @Override
      public void ownEdge(long to, long from, float weight, boolean reversed, boolean fromLocal, long row) {
        NodeIndex idx = index;
        int di = idx.get(to);
        if (di < 0) {
          dangling(file, row, reversed ? 0 : 1, to);
        } else if (fromLocal && idx.get(from) < 0 || outside(from)) {
          dangling(file, row, reversed ? 1 : 0, from);
        } else {
          put(di, from, weight);
        }
      }

      /** A reference to local node {@code id} from another partition's edge: checked as {@link #references}. */
      @Override
      public void ownReference(long id, int column, long row) {
        if (index.get(id) < 0) {
          dangling(file, row, column, id);
        }
      }

      @Override
      public void edge(long from, long to, float weight, long row) {
        NodeIndex idx = index;
        int di = idx.get(to);
        int si = idx.get(from);
        if (di < 0 || si < 0) {
          // The column the block path reports: undirected (both directions checked), the source when it is missing;
          // directed (and a self-loop), the destination when it is missing, else the source.
          boolean srcFirst = undirected && from != to ? si < 0 : di >= 0;
          dangling(file, row, srcFirst ? 0 : 1, srcFirst ? from : to);
          return;
        }
        put(di, from, weight);
        if (undirected && from != to) {
          put(si, to, weight);
        }
      }

      @Override
      public void edges(long[] from, long[] to, float[] weight, int count, long firstRow) {
        for (int i = 0; i < count; i++) {
          edge(from[i], to[i], weight == null ? 1f : weight[i], firstRow + i);
        }
      }

      /**
       * Rows {@code firstRow..} of the table (directed, dense ids held as ints) for a partition that owns the ids
       * {@code [lo, hi)} whole: the edges into it kept, the rest dropped (a source of this partition on an edge kept
       * elsewhere is a node of its run, so there is nothing to check). Each row is written to the batch and counted
       * only when its destination is in the range, a compaction without a branch on the (random) owner; a row with
       * an endpoint outside the dense ids goes to {@code rows}, edge by edge, for the findings. Returns false, having
       * done nothing, when the assembler is not in that state.
       */
      public boolean keepRange(long[] from, long[] to, float[] weight, int count, long firstRow, long lo, long hi,
          InEdgeSink rows) {
        if (!narrow || undirected || lo < 0 || hi > denseNodes || !index.isRun(lo, hi - lo)) {
          return false;
        }
        keepRows(from, to, weight, count, firstRow, denseNodes, lo, hi - lo, rows);
        return true;
      }

      private void put(int di, long from, float weight) {
        if (n == BATCH) {
          flush();
        }
        d[n] = di;
        if (narrow) {
          s32[n] = (int) from;
        } else {
          s[n] = from;
        }
        if (ws != null) {
          ws[n] = weight;
        }
        n++;
      }

      /** Copies the buffered edges into the assembler's arrays. */
      @Override
      public void flush() {
        if (n == 0) {
          return;
        }
        int at = slots.reserve(n);
        try {
          System.arraycopy(d, 0, dst, at, n);
          if (narrow) {
            System.arraycopy(s32, 0, src32, at, n);
          } else {
            System.arraycopy(s, 0, src, at, n);
          }
          if (ws != null) {
            System.arraycopy(ws, 0, w, at, n);
          }
        } finally {
          slots.release();
        }
        n = 0;
      }
    }
  }

  /**
   * Tells {@code r} the partition's row slot count (its nodes and its halo) once {@link #finish} knows it, before
   * the columns are sorted (most of the build): a caller can allocate a matrix of that many rows meanwhile. Told
   * once at most: for a lone partition, and with peers where sources are held as ints.
   */
  public void onSlotsKnown(java.util.function.LongConsumer r) {
    slotsKnown = r;
  }

  /** The first bad-input finding, or null. */
  public synchronized InputFinding error() {
    return error;
  }

  /**
   * Gathers the node rows into one matrix in final node order, ahead of {@link #finish} (on another thread, while
   * edges still arrive: they touch nothing this reads). Only without zero-missing, where no node joins after the
   * node phase; call after {@link #endNodes} and before {@link #finish}.
   */
  public void gatherRows() {
    if (!nodesDone || zeroMissing || gathered != null) {
      throw new IllegalStateException("rows of partition " + partition + " gathered out of turn");
    }
    gathered = rows();
  }

  private DenseMatrix rows() {
    int n = finalIds.length;
    if (tableRowOf == null && n == features.rows()) {
      return features.toMatrix();
    }
    DenseMatrix f = new DenseMatrix(n, features.width());
    for (int k = 0; k < n; k++) {
      int row = tableRowOf == null ? k : tableRowOf[k];
      if (row >= 0) {
        features.copyRow(row, f.data(), k * features.width());
      }
    }
    return f;
  }

  /** The assembled partition; call only when {@link #error()} is null. */
  public GraphPartition finish() {
    endNodes();
    if (zeroMissing) {
      long[] unresolved = provisional == null ? new long[0] : provisional.keysInOrder();
      for (long id : unresolved) {
        addMissing(id);
      }
      mergeMissing();
      if (provisional != null) {
        for (int e = 0; e < edges; e++) {
          if (dst[e] < 0) {
            dst[e] = index.get(unresolved[-1 - dst[e]]);
          }
        }
        provisional = null;
      }
    }
    if (error != null) {
      throw new IllegalStateException("partition " + partition + " has bad input: " + error.message());
    }
    int n = finalIds.length;
    if (!narrow && ownership.parts() == 1) {
      // A lone partition has no halo: its slots are its nodes.
      slotsKnown.accept(n);
    }
    GraphBlock block = narrow
        ? PartitionBlockBuilder.buildConsuming(finalIds, index, dst, src32, weighted ? w : null, edges, slotsKnown)
        : PartitionBlockBuilder.build(finalIds, index, dst, src, weighted ? w : null, edges);
    slotsKnown = slots -> { };
    dst = null;
    src = null;
    src32 = null;
    w = null;
    DenseMatrix f = gathered != null ? gathered : rows();
    gathered = null;
    int[] l = labels == null ? null : new int[n];
    byte[] s = splits == null ? null : new byte[n];
    for (int k = 0; (l != null || s != null) && k < n; k++) {
      int row = tableRowOf == null ? k : tableRowOf[k];
      if (l != null) {
        l[k] = row >= 0 ? labels[row] : -1;
      }
      if (s != null) {
        s[k] = row >= 0 ? splits[row] : NodeSplit.NONE;
      }
    }
    return new GraphPartition(partition, ownership.parts(), ownership, block, f, l, s,
        PartitionStats.of(partition, block));
  }

  /** The table's node rows assembled here, each id once (final from the end of the node phase). */
  public int tableNodes() {
    return tableNodes;
  }

  /** The index of the partition's node ids (local index = position in id order); after {@link #finish}. */
  public NodeIndex index() {
    return index;
  }
}
