package org.yarngnn.partition;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.CsrBuilder;
import org.yarngnn.io.table.EdgeSink;

/**
 * Every edge of a directed table whose node ids are exactly {@code 0..N-1}, written once by all the reading threads
 * of one JVM and built into one in-edge CSR over all N nodes, from which each co-located range partition then
 * takes its rows ({@link PartitionBlockBuilder#sliceRows}). Kept apart, every worker of the JVM ran every row
 * through its own range check and built its own CSR beside its peers' on the same cores; here the edges are
 * checked, stored and sorted once, as a worker alone's are, and the partitions' blocks are exactly those their
 * own builds made (rows list their sources in id order either way).
 *
 * <p>A row with an endpoint outside {@code [0, N)} (dangling: there is no such node) is not stored but handed,
 * edge by edge, to the sink given to {@link #writer}, which makes the owners' findings.
 */
public final class SharedEdges {
  private final int nodes;
  private final boolean weighted;
  private final ReservedSlots slots = new ReservedSlots(0, () -> this.dst.length, this::grow);
  private int[] dst;
  private int[] src;
  private float[] w;
  private boolean built;

  /**
   * A store for the edges of a table over {@code nodes} dense ids, sized for {@code expected} edges (a hint, the
   * table's footer counts: capped at a quarter of the heap, and more still fit by growing).
   */
  public SharedEdges(long nodes, boolean weighted, long expected) {
    if (nodes < 0 || nodes > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("shared edges over " + nodes + " nodes");
    }
    this.nodes = (int) nodes;
    this.weighted = weighted;
    long rowBytes = 2L * Integer.BYTES + (weighted ? Float.BYTES : 0);
    int size = (int) Math.max(IntEdgeBatch.BATCH, Math.min(Math.min(expected, Integer.MAX_VALUE - 16),
        Runtime.getRuntime().maxMemory() / 4 / rowBytes));
    dst = new int[size];
    src = new int[size];
    w = weighted ? new float[size] : null;
  }

  /** The node count N. */
  public int nodes() {
    return nodes;
  }

  /** A writer for one reading thread; rows it cannot store go to {@code outside}, edge by edge. */
  public Writer writer(EdgeSink outside) {
    return new Writer(outside);
  }

  /**
   * The in-edge CSR of all N nodes, rows listing their sources in id order; call once, after every writer has
   * flushed. The store's arrays are consumed (its source array becomes the columns).
   */
  public synchronized Csr build() {
    if (built) {
      throw new IllegalStateException("shared edges built twice");
    }
    built = true;
    long count = slots.count();
    Csr csr = CsrBuilder.buildByKeyConsuming(nodes, nodes, dst, src, nodes, null, w, (int) count, true);
    dst = null;
    src = null;
    w = null;
    return csr;
  }

  /** Edges stored so far. */
  public long count() {
    return slots.count();
  }

  /** Grows the arrays to hold at least {@code need} edges (by half at least); under the slots' write lock. */
  private void grow(long need) {
    if (need > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("more than " + (Integer.MAX_VALUE - 16) + " edges in one JVM's table");
    }
    int cap = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, dst.length * 3L / 2));
    dst = Arrays.copyOf(dst, cap);
    src = Arrays.copyOf(src, cap);
    w = w == null ? null : Arrays.copyOf(w, cap);
  }

  /** One thread's edges, buffered a batch at a time. */
  public final class Writer extends IntEdgeBatch implements EdgeSink {
    private final EdgeSink outside;

    private Writer(EdgeSink outside) {
      super(true, weighted);
      this.outside = outside;
    }

    @Override
    public void beginFile(String file) {
      outside.beginFile(file);
    }

    @Override
    public void edge(long from, long to, float weight, long row) {
      if (Long.compareUnsigned(to, nodes) >= 0 || Long.compareUnsigned(from, nodes) >= 0) {
        outside.edge(from, to, weight, row);
        return;
      }
      if (n == BATCH) {
        flush();
      }
      d[n] = (int) to;
      s32[n] = (int) from;
      if (ws != null) {
        ws[n] = weight;
      }
      n++;
    }

    /** Every row stored (its whole range kept), without a branch on its endpoints unless one is outside the ids. */
    @Override
    public void edges(long[] from, long[] to, float[] weight, int count, long firstRow) {
      keepRows(from, to, weight, count, firstRow, nodes, 0, nodes, outside);
    }

    /** Copies the buffered edges into the store's arrays. */
    @Override
    public void flush() {
      if (n == 0) {
        return;
      }
      int at = slots.reserve(n);
      try {
        System.arraycopy(d, 0, dst, at, n);
        System.arraycopy(s32, 0, src, at, n);
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
