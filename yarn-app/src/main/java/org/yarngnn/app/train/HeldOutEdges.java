package org.yarngnn.app.train;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.yarngnn.app.graphworker.ReadEdgeFilter;
import org.yarngnn.compute.link.LinkSplit;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.partition.Ownership;

/**
 * {@code --link-split VAL,TEST} in one graph worker's construction: every edge row read is given its split by
 * {@link LinkSplit#ofPair} (seed and unordered pair, so the same on every worker and for both directions); {@code
 * train} rows go on to the worker's ownership filter and become the message graph, {@code val} and {@code test}
 * rows never do. Of those, the worker keeps the directed edges whose destination it owns (both directions of a row
 * of an undirected table), in two compact lists: its held-out edges, evaluated by their destination's owner.
 *
 * <p>The worker reads every row itself ({@link org.yarngnn.app.graphworker.WorkerConstruction#filterEdges}), so no
 * held-out edge is lost whichever worker's file it is in. Memory: 16 bytes per kept held-out edge.
 */
final class HeldOutEdges implements ReadEdgeFilter {
  /** A worker's held-out edges by id, sorted by (destination, source): the order does not depend on the threads. */
  record Lists(long[] valSrc, long[] valDst, long[] testSrc, long[] testDst) {
    static final Lists NONE = new Lists(new long[0], new long[0], new long[0], new long[0]);
  }

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
  public synchronized EdgeSink wrap(EdgeSink next, Ownership ownership) {
    ThreadSink s = new ThreadSink(next, ownership);
    sinks.add(s);
    return s;
  }

  /** The held-out edges every reading thread kept (call after they ended). */
  synchronized Lists take() {
    Pairs v = new Pairs();
    Pairs t = new Pairs();
    for (ThreadSink s : sinks) {
      v.addAll(s.val);
      t.addAll(s.test);
    }
    sinks.clear();
    long[][] vs = v.sortedByDestination();
    long[][] ts = t.sortedByDestination();
    return new Lists(vs[0], vs[1], ts[0], ts[1]);
  }

  /** One reading thread's filter: train rows on to {@code next}, held-out rows kept. */
  private final class ThreadSink implements EdgeSink {
    private final EdgeSink next;
    private final Ownership ownership;
    private final Pairs val = new Pairs();
    private final Pairs test = new Pairs();
    private long[] src = new long[0];
    private long[] dst = new long[0];
    private float[] weight = new float[0];

    ThreadSink(EdgeSink next, Ownership ownership) {
      this.next = next;
      this.ownership = ownership;
    }

    @Override
    public void beginFile(String file) {
      next.beginFile(file);
    }

    /** Whether the row carries messages; if not, it is kept when this worker owns a destination. */
    private boolean passes(long s, long d) {
      byte split = LinkSplit.ofPair(seed, s, d, HeldOutEdges.this.val, HeldOutEdges.this.test);
      if (LinkSplit.carriesMessages(split)) {
        return true;
      }
      Pairs into = split == LinkSplit.VAL ? val : test;
      if (ownership.owner(d) == index) {
        into.add(s, d);
      }
      if (undirected && s != d && ownership.owner(s) == index) {
        into.add(d, s);
      }
      return false;
    }

    @Override
    public void edge(long s, long d, float w, long row) {
      if (passes(s, d)) {
        next.edge(s, d, w, row);
      }
    }

    /**
     * A block: the rows that carry messages are compacted into this sink's own arrays and passed on as one block
     * (row numbers of a compacted block are not consecutive, so each run of kept rows goes on as its own block).
     */
    @Override
    public void edges(long[] s, long[] d, float[] w, int count, long firstRow) {
      if (src.length < count) {
        src = new long[count];
        dst = new long[count];
        weight = new float[count];
      }
      int run = 0;
      long runFirst = firstRow;
      for (int i = 0; i < count; i++) {
        if (passes(s[i], d[i])) {
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
