package org.yarngnn.compute.sample;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.RowRanges;

/**
 * The contract's reproducible neighbour sampler: per destination row, keeps {@code min(fanout, degree)} in-edges
 * chosen without replacement, as a function of only {@code (seed, layer, the node's global id, its degree)}
 * applied to the row's edges in their block order, which {@link GraphBlock} guarantees is by global source id.
 * So a node's sample is the same whatever the partitioning, the worker count, the thread count or the other
 * rows of the graph.
 *
 * <h2>Exact algorithm</h2>
 * All arithmetic is on unsigned 64-bit integers modulo 2^64 ({@code M = 2**64 - 1} below); {@code id},
 * {@code seed} and {@code layer} are taken as two's-complement 64-bit values.
 * <pre>
 * G = 0x9E3779B97F4A7C15
 * def mix64(z):                                   # SplitMix64 finaliser
 *     z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) &amp; M
 *     z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) &amp; M
 *     return z ^ (z >> 31)
 * def sample_positions(seed, layer, node_id, d, k):   # d = in-degree, k = fanout
 *     if k &lt; 0 or d &lt;= k: return list(range(d))      # kept whole
 *     state = mix64((mix64((mix64(seed &amp; M) ^ (layer &amp; M)) &amp; M) ^ (node_id &amp; M)) &amp; M)
 *     def next():                                 # SplitMix64 generator
 *         nonlocal state
 *         state = (state + G) &amp; M
 *         return mix64(state)
 *     chosen = set()                              # Floyd's algorithm: k distinct positions of 0..d-1
 *     for j in range(d - k, d):
 *         t = next() % (j + 1)                    # unsigned remainder
 *         chosen.add(j if t in chosen else t)
 *     return sorted(chosen)
 * </pre>
 * A position is the index of an edge within the row's in-edges ordered by source id (parallel edges are
 * adjacent; as they have the same source, which of them is kept only matters for their weights). The sampled
 * row keeps the chosen edges in that order, with their weights. {@code fanout = -1} keeps every edge.
 * <p>Runs in two passes over rows: the kept counts and their prefix sums (sequential, O(rows)), then the fill
 * in parallel into exact-size arrays, with a per-thread scratch for the chosen positions, so nothing is
 * allocated per row.
 */
public final class NeighbourSampler {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private static final int GRAIN = 1024;
  /** Up to this fanout membership is a scan of the chosen positions; above it, a per-thread bitmap. */
  private static final int SCAN_LIMIT = 64;

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private NeighbourSampler() {}

  /**
   * The block with the same nodes and slots whose CSR keeps, for each row with more than {@code fanout}
   * in-edges, exactly {@code fanout} of them (see the class comment); {@code fanout = -1} returns {@code g}.
   */
  public static GraphBlock sample(GraphBlock g, int fanout, long seed, int layer) {
    if (fanout < -1) {
      throw new IllegalArgumentException("fanout " + fanout + " (use -1 for all neighbours)");
    }
    if (fanout == -1) {
      return g;
    }
    Csr c = g.inEdges();
    int n = c.numRows();
    int[] rowPtr = c.rowPtr();
    int[] newPtr = new int[n + 1];
    for (int i = 0; i < n; i++) {
      newPtr[i + 1] = newPtr[i] + Math.min(fanout, rowPtr[i + 1] - rowPtr[i]);
    }
    int nnz = newPtr[n];
    int[] newCol = new int[nnz];
    float[] newW = c.weights() == null ? null : new float[nnz];
    long[] ids = g.nodeIds();
    RowRanges.parallel(n, GRAIN, (from, to) -> {
      Scratch s = SCRATCH.get();
      for (int i = from; i < to; i++) {
        fillRow(c, i, fanout, rowSeed(seed, layer, ids[i]), s, newPtr[i], newCol, newW);
      }
    });
    return g.withEdges(new Csr(n, c.numCols(), newPtr, newCol, newW));
  }

  /**
   * As {@link #sample} for only the destination rows {@code rows} (ascending, distinct): the block with the same
   * nodes and slots whose CSR holds those rows' sampled in-edges (exactly the ones {@link #sample} keeps for
   * them, since a row's sample depends on nothing but itself) and no edges for every other row. {@code fanout =
   * -1} keeps those rows' edges whole. Costs O(rows' edges), not O(all edges): what targeted inference samples.
   */
  public static GraphBlock sampleRows(GraphBlock g, int fanout, long seed, int layer, int[] rows) {
    if (fanout < -1) {
      throw new IllegalArgumentException("fanout " + fanout + " (use -1 for all neighbours)");
    }
    Csr c = g.inEdges();
    int n = c.numRows();
    int[] rowPtr = c.rowPtr();
    int[] newPtr = new int[n + 1];
    int last = -1;
    for (int r : rows) {
      if (r <= last || r >= n) {
        throw new IllegalArgumentException("rows must be ascending, distinct and below " + n + ": " + r
            + " after " + last);
      }
      int d = rowPtr[r + 1] - rowPtr[r];
      newPtr[r + 1] = fanout < 0 ? d : Math.min(fanout, d);
      last = r;
    }
    for (int i = 0; i < n; i++) {
      newPtr[i + 1] += newPtr[i];
    }
    int[] newCol = new int[newPtr[n]];
    float[] newW = c.weights() == null ? null : new float[newCol.length];
    long[] ids = g.nodeIds();
    int keep = fanout < 0 ? Integer.MAX_VALUE : fanout;
    RowRanges.parallel(rows.length, GRAIN, (from, to) -> {
      Scratch s = SCRATCH.get();
      for (int p = from; p < to; p++) {
        int i = rows[p];
        fillRow(c, i, keep, rowSeed(seed, layer, ids[i]), s, newPtr[i], newCol, newW);
      }
    });
    return g.withEdges(new Csr(n, c.numCols(), newPtr, newCol, newW));
  }

  /**
   * Positions (0-based, ascending) within a row of {@code degree} edges that node {@code nodeId} keeps at
   * {@code layer}: the reference form of the algorithm, for tests and for explaining a sample.
   */
  public static int[] positions(long seed, int layer, long nodeId, int degree, int fanout) {
    if (fanout < 0 || degree <= fanout) {
      int[] all = new int[degree];
      Arrays.setAll(all, p -> p);
      return all;
    }
    int[] chosen = new int[fanout];
    choose(rowSeed(seed, layer, nodeId), degree, fanout, chosen, new Scratch());
    Arrays.sort(chosen);
    return chosen;
  }

  /** The generator state of one row: {@code mix64(mix64(mix64(seed) ^ layer) ^ id)}. */
  static long rowSeed(long seed, int layer, long nodeId) {
    return mix64(mix64(mix64(seed) ^ (long) layer) ^ nodeId);
  }

  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static void fillRow(Csr c, int row, int fanout, long state, Scratch s, int out, int[] newCol,
      float[] newW) {
    int start = c.rowPtr()[row];
    int d = c.rowPtr()[row + 1] - start;
    if (d <= fanout) {
      System.arraycopy(c.colIdx(), start, newCol, out, d);
      if (newW != null) {
        System.arraycopy(c.weights(), start, newW, out, d);
      }
      return;
    }
    int[] chosen = s.positions(fanout);
    choose(state, d, fanout, chosen, s);
    Arrays.sort(chosen, 0, fanout);
    for (int k = 0; k < fanout; k++) {
      newCol[out + k] = c.colIdx()[start + chosen[k]];
      if (newW != null) {
        newW[out + k] = c.weights()[start + chosen[k]];
      }
    }
  }

  /** Floyd's algorithm: {@code k} distinct positions of {@code [0, d)} into {@code chosen[0..k)}, unordered. */
  private static void choose(long state, int d, int k, int[] chosen, Scratch s) {
    boolean scan = k <= SCAN_LIMIT;
    long[] bits = scan ? null : s.bitmap(d);
    int count = 0;
    for (int j = d - k; j < d; j++) {
      state += GOLDEN;
      int t = (int) Long.remainderUnsigned(mix64(state), j + 1);
      boolean taken;
      if (scan) {
        taken = false;
        for (int q = 0; q < count && !taken; q++) {
          taken = chosen[q] == t;
        }
      } else {
        taken = (bits[t >>> 6] & (1L << t)) != 0;
      }
      int pick = taken ? j : t;
      chosen[count++] = pick;
      if (!scan) {
        bits[pick >>> 6] |= 1L << pick;
      }
    }
    if (!scan) {
      for (int q = 0; q < count; q++) {
        bits[chosen[q] >>> 6] = 0L; // clear only what was set, so the bitmap is reused without a full wipe
      }
    }
  }

  /** Per-thread buffers that grow to the largest row met. */
  private static final class Scratch {
    private int[] positions = new int[0];
    private long[] bitmap = new long[0];

    int[] positions(int k) {
      if (positions.length < k) {
        positions = new int[k];
      }
      return positions;
    }

    /** A bitmap of at least {@code d} bits, all clear. */
    long[] bitmap(int d) {
      int words = (d + 63) >>> 6;
      if (bitmap.length < words) {
        bitmap = new long[words];
      }
      return bitmap;
    }
  }
}
