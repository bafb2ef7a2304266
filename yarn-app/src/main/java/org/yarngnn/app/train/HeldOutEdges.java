package org.yarngnn.app.train;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.yarngnn.app.graphworker.ReadEdgeFilter;
import org.yarngnn.app.graphworker.WorkerPartition;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.link.LinkSplit;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionBlockBuilder;

/**
 * Held-out edges in one graph worker's construction. Every edge row read has a split: the edges table's {@code
 * split} column's when it has one, else {@code --link-split VAL,TEST}'s by {@link LinkSplit#ofPair} (seed and
 * unordered pair, so the same on every worker and for both directions). {@code train} and {@code none} rows go on
 * to the worker's ownership filter and become the message graph, {@code val} and {@code test} rows never do. Of
 * those, the worker keeps the directed edges whose destination it owns (both directions of a row of an undirected
 * table), in two compact lists: its held-out edges, evaluated by their destination's owner. It keeps its {@code
 * none} in-edges the same way: they carry messages but are no positives ({@link LinkWorker} leaves them out).
 *
 * <p>The worker reads every row itself ({@link org.yarngnn.app.graphworker.WorkerConstruction#filterEdges}), so no
 * held-out edge is lost whichever worker's file it is in. Memory: 16 bytes per kept held-out or none edge.
 */
final class HeldOutEdges implements ReadEdgeFilter {
  /**
   * A worker's held-out edges by id, sorted by (destination, source): the order does not depend on the threads;
   * and its {@code none} in-edges (messages, not positives), in no order ({@link LinkWorker} buckets them by row).
   */
  record Lists(long[] valSrc, long[] valDst, long[] testSrc, long[] testDst, long[] noneSrc, long[] noneDst) {}

  private final long seed;
  private final double val;
  private final double test;
  private final boolean undirected;
  private final int index;
  private final List<ThreadSink> sinks = new ArrayList<>();

  HeldOutEdges(long seed, double val, double test, boolean undirected, int index) {
    this.seed = seed;
    this.val = val;
    this.test = test;
    this.undirected = undirected;
    this.index = index;
  }

  @Override
  public synchronized EdgeSink wrap(EdgeSink next, Ownership ownership, Endpoints endpoints) {
    ThreadSink s = new ThreadSink(next, ownership, endpoints);
    sinks.add(s);
    return s;
  }

  /** The held-out edges every reading thread kept (call after they ended). */
  synchronized Lists take() {
    Pairs v = new Pairs();
    Pairs t = new Pairs();
    Pairs n = new Pairs();
    for (ThreadSink s : sinks) {
      v.addAll(s.val);
      t.addAll(s.test);
      n.addAll(s.none);
    }
    sinks.clear();
    long[][] vs = v.sortedByDestination();
    long[][] ts = t.sortedByDestination();
    return new Lists(vs[0], vs[1], ts[0], ts[1], Arrays.copyOf(n.src, n.size), Arrays.copyOf(n.dst, n.size));
  }

  /**
   * A partition of a pre-partitioned graph ({@code --graph}), its in-edges split as a table's rows would be by
   * {@code --link-split} ({@link LinkSplit#ofPair}: per unordered pair, so both directions of an undirected graph's
   * edge agree, whichever worker holds them): the held-out ones kept here (every destination is this worker's),
   * the partition rebuilt of the rest by the builder the tables' construction uses (same row order, halo of the
   * remaining sources only). The partition job keeps no split column, hence no {@code none} edges here.
   */
  @Override
  public WorkerPartition filterPartition(WorkerPartition p) {
    GraphBlock g = p.graph();
    Csr in = g.inEdges();
    int n = g.numNodes();
    int[] ptr = in.rowPtr();
    int[] col = in.colIdx();
    float[] w = in.weights();
    int[] dst = new int[ptr[n]];
    long[] src = new long[ptr[n]];
    float[] kept = w == null ? null : new float[ptr[n]];
    Pairs v = new Pairs();
    Pairs t = new Pairs();
    int k = 0;
    for (int r = 0; r < n; r++) {
      long d = g.nodeIds()[r];
      for (int e = ptr[r]; e < ptr[r + 1]; e++) {
        long s = g.slotId(col[e]);
        byte split = LinkSplit.ofPair(seed, s, d, val, test);
        if (split == LinkSplit.TRAIN) {
          dst[k] = r;
          src[k] = s;
          if (kept != null) {
            kept[k] = w[e];
          }
          k++;
        } else {
          (split == LinkSplit.VAL ? v : t).add(s, d);
        }
      }
    }
    synchronized (this) {
      ThreadSink carved = new ThreadSink(null, p.ownership(), null);
      carved.val.addAll(v);
      carved.test.addAll(t);
      sinks.add(carved);
    }
    GraphBlock rest = PartitionBlockBuilder.build(g.nodeIds(), p.index(), dst, src, kept, k);
    return new WorkerPartition(rest, p.index(), p.ownership(), p.rows(), p.fused(), p.labels(), p.splits());
  }

  /** One reading thread's filter: train and none rows on to {@code next}, held-out (and none) rows kept. */
  private final class ThreadSink implements EdgeSink {
    private final EdgeSink next;
    private final Ownership ownership;
    private final Endpoints endpoints;
    private final Pairs val = new Pairs();
    private final Pairs test = new Pairs();
    private final Pairs none = new Pairs();
    private long[] src = new long[0];
    private long[] dst = new long[0];
    private float[] weight = new float[0];

    ThreadSink(EdgeSink next, Ownership ownership, Endpoints endpoints) {
      this.next = next;
      this.ownership = ownership;
      this.endpoints = endpoints;
    }

    @Override
    public void beginFile(String file) {
      next.beginFile(file);
    }

    /** The table's split column reaches this sink through the methods that carry it. */
    @Override
    public boolean wantsSplit() {
      return true;
    }

    /**
     * Whether a row of this split carries messages; a held-out or none row is kept when this worker owns a
     * destination. {@code split} is a {@link LinkSplit} code (the split column's: its codes are those).
     */
    private boolean passes(long s, long d, byte split, long row) {
      if (split == LinkSplit.TRAIN) {
        return true;
      }
      Pairs into = split == LinkSplit.VAL ? val : split == LinkSplit.TEST ? test : none;
      boolean ownsDst = ownership.owner(d) == index;
      boolean ownsSrc = ownership.owner(s) == index;
      if (ownsDst) {
        into.add(s, d);
      }
      if (undirected && s != d && ownsSrc) {
        into.add(d, s);
      }
      boolean messages = LinkSplit.carriesMessages(split);
      if (!messages) {
        // A held-out edge is scored: its endpoints must be nodes as a message edge's are (checked, or zero-filled).
        if (ownsSrc) {
          endpoints.endpoint(s, 0, row);
        }
        if (ownsDst && d != s) {
          endpoints.endpoint(d, 1, row);
        }
      }
      return messages;
    }

    /** Without a split column: {@code --link-split}'s draw. */
    private boolean passes(long s, long d, long row) {
      return passes(s, d, LinkSplit.ofPair(seed, s, d, HeldOutEdges.this.val, HeldOutEdges.this.test), row);
    }

    @Override
    public void edge(long s, long d, float w, long row) {
      if (passes(s, d, row)) {
        next.edge(s, d, w, row);
      }
    }

    @Override
    public void edge(long s, long d, float w, byte split, long row) {
      if (passes(s, d, split, row)) {
        next.edge(s, d, w, row);
      }
    }

    @Override
    public void edges(long[] s, long[] d, float[] w, byte[] split, int count, long firstRow) {
      blocks(s, d, w, split, count, firstRow);
    }

    @Override
    public void edges(long[] s, long[] d, float[] w, int count, long firstRow) {
      blocks(s, d, w, null, count, firstRow);
    }

    /**
     * A block: the rows that carry messages are compacted into this sink's own arrays and passed on as one block
     * (row numbers of a compacted block are not consecutive, so each run of kept rows goes on as its own block);
     * {@code split}: the split column's codes, or null for {@code --link-split}'s draw.
     */
    private void blocks(long[] s, long[] d, float[] w, byte[] split, int count, long firstRow) {
      if (src.length < count) {
        src = new long[count];
        dst = new long[count];
        weight = new float[count];
      }
      int run = 0;
      long runFirst = firstRow;
      for (int i = 0; i < count; i++) {
        if (split != null ? passes(s[i], d[i], split[i], firstRow + i) : passes(s[i], d[i], firstRow + i)) {
          if (run == 0) {
            runFirst = firstRow + i;
          }
          src[run] = s[i];
          dst[run] = d[i];
          weight[run] = w == null ? 1f : w[i];
          run++;
        } else if (run > 0) {
          next.edges(src, dst, w == null ? null : weight, run, runFirst);
          run = 0;
        }
      }
      if (run > 0) {
        next.edges(src, dst, w == null ? null : weight, run, runFirst);
      }
    }
  }

  /** A growable list of (src, dst) pairs. */
  private static final class Pairs {
    private long[] src = new long[16];
    private long[] dst = new long[16];
    private int size;

    void add(long s, long d) {
      if (size == src.length) {
        src = Arrays.copyOf(src, size * 2);
        dst = Arrays.copyOf(dst, size * 2);
      }
      src[size] = s;
      dst[size] = d;
      size++;
    }

    void addAll(Pairs o) {
      for (int i = 0; i < o.size; i++) {
        add(o.src[i], o.dst[i]);
      }
    }

    long[][] sortedByDestination() {
      Integer[] order = new Integer[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> dst[a] != dst[b] ? Long.compare(dst[a], dst[b]) : Long.compare(src[a], src[b]));
      long[] s = new long[size];
      long[] d = new long[size];
      for (int i = 0; i < size; i++) {
        s[i] = src[order[i]];
        d[i] = dst[order[i]];
      }
      return new long[][] {s, d};
    }
  }
}
