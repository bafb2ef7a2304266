package org.yarngnn.compute.graph;

import org.yarngnn.compute.kernel.RowRanges;

/**
 * Builds an in-edge {@link Csr} from edge arrays by radix sorting on (destination, source key): no comparison
 * sort of the edges, no per-edge objects. Random writes over all edges are what make a naive counting sort
 * memory-bound, so the work is split to keep writes in cache:
 * <ol>
 *   <li>Count and scatter (parallel over edge chunks, stable): each edge goes to the bucket of
 *       {@code 2^L} consecutive destination rows it ends at, packed as one int
 *       {@code (destination - bucketStart) << keyBits | sourceKey} (half the traffic of a long; very large key
 *       spaces get buckets of fewer rows to fit). There are only a few thousand buckets, so every bucket's write
 *       position stays in cache.</li>
 *   <li>Per bucket (parallel over buckets; a bucket holds about {@value #TARGET_BUCKET_EDGES} edges on average,
 *       so it sits in L2): LSD radix passes over the source key digits, then a counting pass over the row
 *       offset that writes the bucket's rows straight into {@code colIdx} and sets their row pointers.</li>
 * </ol>
 * Every pass is stable, so each row lists its sources in key order and parallel edges keep input order; with
 * the global id rank as the key, rows come out ordered by source id, as the sampler requires. Weighted parallel
 * edges are then ordered by weight, so the result never depends on the order the edges arrived in. When the
 * edges already arrive ordered by source key, or by (destination, source key), the key passes are skipped.
 * Transient memory: 4 bytes per edge (8 weighted) plus the same again for the largest bucket per thread,
 * besides the output.
 */
public final class CsrBuilder {
  /** Edges per bucket aimed at: bucket plus ping-pong copy (8 bytes an edge) sit in a 512 KiB L2. */
  static final int TARGET_BUCKET_EDGES = 16 << 10;
  /** Widest radix digit: 2^11 counters (8 KiB) stay in L1. */
  private static final int MAX_DIGIT_BITS = 11;
  /** Buckets at most this small are insertion sorted: cheaper than clearing radix counters. */
  private static final int SMALL_BUCKET = 48;
  /** Edges per scatter chunk at least; fewer chunks for small inputs keep the counter arrays small. */
  private static final int MIN_CHUNK_EDGES = 1 << 16;

  private CsrBuilder() {}

  /**
   * Builds on the common fork-join pool (see {@link #build(int, int, int[], int[], float[], int, int[], boolean)}).
   *
   * @param numRows destinations
   * @param numCols source slots
   * @param dst destination row of each edge, {@code [0, numEdges)} used
   * @param src source slot of each edge
   * @param weights weight of each edge, or null
   * @param numEdges edges used from the arrays
   * @param sourceKey sort key of each source slot, a permutation of {@code 0..numCols-1}; null sorts by slot
   */
  public static Csr build(int numRows, int numCols, int[] dst, int[] src, float[] weights, int numEdges,
      int[] sourceKey) {
    return build(numRows, numCols, dst, src, weights, numEdges, sourceKey, true);
  }

  /**
   * As {@link #build(int, int, int[], int[], float[], int, int[])}; {@code parallel} runs the passes on the
   * common fork-join pool (the result is identical either way). The input arrays are not modified.
   *
   * @throws IllegalArgumentException when an edge's destination or source is out of range
   */
  public static Csr build(int numRows, int numCols, int[] dst, int[] src, float[] weights, int numEdges,
      int[] sourceKey, boolean parallel) {
    boolean identity = sourceKey == null || isIdentity(sourceKey, numCols);
    return build(numRows, numCols, dst, src, identity ? null : sourceKey, numCols,
        identity ? null : inverse(sourceKey, numCols), weights, numEdges, parallel, false);
  }

  /**
   * Builds from edges that carry their sources' sort keys directly: row {@code dst[e]} gets column
   * {@code columnOfKey[key[e]]}, rows listing their columns in key order. For callers whose natural source
   * numbering is already ordered (id ranks, say) but whose columns are not: no per-edge key lookup is needed.
   *
   * @param key sort key of each edge's source, in {@code [0, numKeys)}
   * @param columnOfKey the column of each key (in {@code [0, numCols)} for every key used), or null when the key
   *     is the column
   * @throws IllegalArgumentException when a destination, key or column is out of range
   */
  public static Csr buildByKey(int numRows, int numCols, int[] dst, int[] key, int numKeys, int[] columnOfKey,
      float[] weights, int numEdges, boolean parallel) {
    return build(numRows, numCols, dst, key, null, numKeys, columnOfKey, weights, numEdges, parallel, false);
  }

  /**
   * {@link #buildByKey}, consuming {@code key}: its array becomes the result's column array (the keys are all read
   * before the first column is written), so the build allocates one edge-sized int array fewer (on 20M edges, 80
   * MB of fresh memory). For a caller that made the keys for this build and keeps no other reference to them.
   */
  public static Csr buildByKeyConsuming(int numRows, int numCols, int[] dst, int[] key, int numKeys,
      int[] columnOfKey, float[] weights, int numEdges, boolean parallel) {
    return build(numRows, numCols, dst, key, null, numKeys, columnOfKey, weights, numEdges, parallel, true);
  }

  /**
   * Source {@code src[e]} has key {@code keyOfSrc[src[e]]} (or {@code src[e]} itself when null); with
   * {@code consumeSrc} the columns are written over {@code src}.
   */
  private static Csr build(int numRows, int numCols, int[] dst, int[] src, int[] keyOfSrc, int numKeys,
      int[] columnOfKey, float[] weights, int numEdges, boolean parallel, boolean consumeSrc) {
    Layout lay = new Layout(numRows, numKeys, numEdges, parallel);
    int[] rowPtr = new int[numRows + 1];
    // Count and scatter read every source before the bucket passes write the first column.
    int[] colIdx = consumeSrc && src.length >= numEdges ? src : new int[numEdges];
    float[] w = weights == null ? null : new float[numEdges];
    if (numEdges == 0) {
      return new Csr(numRows, numCols, rowPtr, colIdx, w);
    }
    int[][] offsets = new int[lay.chunks][];
    int srcLimit = keyOfSrc == null ? numKeys : keyOfSrc.length;
    run(lay.chunks, parallel, (from, to) -> {
      for (int k = from; k < to; k++) {
        offsets[k] = countChunk(lay, k, dst, src, srcLimit);
      }
    });
    int[] bucketStart = lay.prefixSums(offsets);
    int[] packed = new int[numEdges];
    float[] packedW = weights == null ? null : new float[numEdges];
    run(lay.chunks, parallel, (from, to) -> {
      for (int k = from; k < to; k++) {
        scatterChunk(lay, k, offsets[k], dst, src, weights, keyOfSrc, packed, packedW);
      }
    });
    int[] slotOfKey = columnOfKey;
    int[] unitStart = lay.units(bucketStart);
    run(unitStart.length - 1, parallel, (from, to) -> {
      BucketSorter s = new BucketSorter(lay, numCols, packed, packedW, slotOfKey, rowPtr, colIdx, w);
      for (int b = unitStart[from]; b < unitStart[to]; b++) {
        s.sort(b, bucketStart[b], bucketStart[b + 1]);
      }
    });
    return new Csr(numRows, numCols, rowPtr, colIdx, w);
  }

  /** Sizes of the passes, fixed by the input's dimensions (and the thread count only for chunking). */
  private static final class Layout {
    final int numRows;
    final int numEdges;
    final int numCols;
    /** log2 of the rows per bucket. */
    final int rowBits;
    final int buckets;
    final int keyBits;
    final int keyMask;
    final int chunks;
    final boolean parallel;

    /** {@code numCols} here is the key space. */
    Layout(int numRows, int numCols, int numEdges, boolean parallel) {
      this.numRows = numRows;
      this.numCols = numCols;
      this.numEdges = numEdges;
      this.parallel = parallel;
      // Rows per bucket so that an average bucket holds about TARGET_BUCKET_EDGES edges, at most one digit.
      double rowsPerBucket = (double) TARGET_BUCKET_EDGES * numRows / Math.max(1, numEdges);
      int bits = rowsPerBucket < 2 ? 0 : 63 - Long.numberOfLeadingZeros((long) rowsPerBucket);
      this.keyBits = numCols <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(numCols - 1);
      this.keyMask = (int) ((1L << keyBits) - 1);
      // The row offset shares the packed int with the key.
      this.rowBits = Math.min(Math.min(MAX_DIGIT_BITS, bits), 32 - keyBits);
      this.buckets = (int) (((long) numRows + (1L << rowBits) - 1) >>> rowBits);
      int threads = parallel ? Math.max(1, Runtime.getRuntime().availableProcessors()) : 1;
      // A few chunks per thread even out a noisy machine; the order of edges never depends on the count.
      this.chunks = (int) Math.max(1, Math.min(threads * 4L, numEdges / (long) MIN_CHUNK_EDGES));
    }

    int chunkStart(int k) {
      return (int) ((long) numEdges * k / chunks);
    }

    /**
     * Turns per-chunk bucket counts into per-chunk write positions (bucket-major, chunk order within a bucket,
     * which keeps the scatter stable) and returns the bucket starts ({@code buckets + 1} entries).
     */
    int[] prefixSums(int[][] counts) {
      int[] start = new int[buckets + 1];
      int pos = 0;
      for (int b = 0; b < buckets; b++) {
        start[b] = pos;
        for (int[] c : counts) {
          int n = c[b];
          c[b] = pos;
          pos += n;
        }
      }
      start[buckets] = pos;
      return start;
    }

    /** Groups consecutive buckets into work units of similar edge counts; returns the units' first buckets. */
    int[] units(int[] bucketStart) {
      int threads = parallel ? Math.max(1, Runtime.getRuntime().availableProcessors()) : 1;
      long per = Math.max(1, numEdges / (threads * 16L));
      int[] start = new int[buckets + 1];
      int n = 0;
      start[n++] = 0;
      for (int b = 1; b < buckets; b++) {
        if (bucketStart[b] - bucketStart[start[n - 1]] >= per) {
          start[n++] = b;
        }
      }
      start[n++] = buckets;
      return java.util.Arrays.copyOf(start, n);
    }
  }

  /** Per-bucket edge counts of one chunk; checks the endpoints' ranges. */
  /** Per-bucket edge counts of one chunk; checks destinations and sources ({@code src[e] < srcLimit}). */
  private static int[] countChunk(Layout lay, int k, int[] dst, int[] src, int cols) {
    int[] count = new int[lay.buckets];
    int rows = lay.numRows;
    int shift = lay.rowBits;
    int end = lay.chunkStart(k + 1);
    for (int e = lay.chunkStart(k); e < end; e++) {
      int d = dst[e];
      int s = src[e];
      if (d < 0 || d >= rows || s < 0 || s >= cols) {
        throw new IllegalArgumentException("edge " + e + " (" + s + " -> " + d + ") outside " + cols
            + " sources x " + rows + " rows");
      }
      count[d >>> shift]++;
    }
    return count;
  }

  /** Scatters a chunk's edges, each packed value written at {@code pos[bucket]++} (stable). */
  private static void scatterChunk(Layout lay, int k, int[] pos, int[] dst, int[] src, float[] weights,
      int[] key, int[] packed, float[] packedW) {
    int shift = lay.rowBits;
    int lowMask = (1 << shift) - 1;
    int keyBits = lay.keyBits;
    int end = lay.chunkStart(k + 1);
    if (key == null && packedW == null) {
      for (int e = lay.chunkStart(k); e < end; e++) {
        int d = dst[e];
        packed[pos[d >>> shift]++] = ((d & lowMask) << keyBits) | src[e];
      }
      return;
    }
    for (int e = lay.chunkStart(k); e < end; e++) {
      int d = dst[e];
      int s = key == null ? src[e] : key[src[e]];
      int q = pos[d >>> shift]++;
      packed[q] = ((d & lowMask) << keyBits) | s;
      if (packedW != null) {
        packedW[q] = weights[e];
      }
    }
  }

  /** Sorts buckets by (row offset, key) and writes their rows; one per worker, reusing its scratch. */
  private static final class BucketSorter {
    private final Layout lay;
    private final int[] packed;
    private final float[] packedW;
    private final int[] slotOfKey;
    private final int numCols;
    private final int[] rowPtr;
    private final int[] colIdx;
    private final float[] w;
    private final int digits;
    private final int digitBits;
    private final int[][] keyCount;
    private final int[] rowCount;
    private int[] scratch = new int[0];
    private float[] scratchW;

    BucketSorter(Layout lay, int numCols, int[] packed, float[] packedW, int[] slotOfKey, int[] rowPtr,
        int[] colIdx, float[] w) {
      this.numCols = numCols;
      this.lay = lay;
      this.packed = packed;
      this.packedW = packedW;
      this.slotOfKey = slotOfKey;
      this.rowPtr = rowPtr;
      this.colIdx = colIdx;
      this.w = w;
      this.digits = (lay.keyBits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;
      this.digitBits = digits == 0 ? 0 : (lay.keyBits + digits - 1) / digits;
      this.keyCount = new int[digits][1 << digitBits];
      this.rowCount = new int[(1 << lay.rowBits) + 1];
    }

    /** Bucket {@code b} holds the edges {@code packed[lo, hi)}. */
    void sort(int b, int lo, int hi) {
      int row0 = b << lay.rowBits;
      int rows = Math.min(1 << lay.rowBits, lay.numRows - row0);
      int n = hi - lo;
      if (n <= SMALL_BUCKET) {
        insertionSort(lo, hi);
        writeRows(packed, packedW, lo, lo, n, row0, rows, false);
      } else {
        int[] from = packed;
        float[] fromW = packedW;
        int fromOff = lo;
        // Input ordered by source key (or by destination, then key) leaves every bucket's keys ascending.
        if (!count(lo, hi)) {
          ensureScratch(n);
          int[] to = scratch;
          float[] toW = scratchW;
          int toOff = 0;
          for (int d = 0; d < digits; d++) {
            if (keyPass(d, from, fromW, fromOff, to, toW, toOff, n)) {
              int[] t = from;
              from = to;
              to = t;
              float[] tw = fromW;
              fromW = toW;
              toW = tw;
              int o = fromOff;
              fromOff = toOff;
              toOff = o;
            }
          }
        }
        writeRows(from, fromW, fromOff, lo, n, row0, rows, true);
      }
      if (w != null) {
        orderParallelEdgesByWeight(rowPtr, colIdx, w, row0, row0 + rows, lo);
      }
    }

    /**
     * One sweep counting every key digit and the row offsets; true when the keys already ascend (within each
     * row, once stably split by row) and the key passes can be skipped.
     */
    private boolean count(int lo, int hi) {
      for (int[] c : keyCount) {
        java.util.Arrays.fill(c, 0);
      }
      java.util.Arrays.fill(rowCount, 0);
      int keyBits = lay.keyBits;
      int bits = digitBits;
      int mask = (1 << bits) - 1;
      int keyMask = lay.keyMask;
      int[] rc = rowCount;
      int[] v = packed;
      // Keys ascending, or whole packed values ascending (unsigned: rows in order, keys in order within them).
      boolean keys = true;
      boolean packedUp = true;
      int prev = v[lo];
      if (digits == 2) {
        int[] c0 = keyCount[0];
        int[] c1 = keyCount[1];
        for (int i = lo; i < hi; i++) {
          int x = v[i];
          int k = x & keyMask;
          c0[k & mask]++;
          c1[k >>> bits]++;
          rc[x >>> keyBits]++;
          keys &= (prev & keyMask) <= k;
          packedUp &= Integer.compareUnsigned(prev, x) <= 0;
          prev = x;
        }
        return keys || packedUp;
      }
      for (int i = lo; i < hi; i++) {
        int x = v[i];
        int k = x & keyMask;
        for (int d = 0; d < digits; d++) {
          keyCount[d][(k >>> (d * bits)) & mask]++;
        }
        rc[x >>> keyBits]++;
        keys &= (prev & keyMask) <= k;
        packedUp &= Integer.compareUnsigned(prev, x) <= 0;
        prev = x;
      }
      return keys || packedUp;
    }

    /** Stable scatter by key digit {@code d}; false (nothing moved) when every edge has the same digit. */
    private boolean keyPass(int d, int[] from, float[] fromW, int fromOff, int[] to, float[] toW, int toOff,
        int n) {
      int shift = d * digitBits;
      int mask = (1 << digitBits) - 1;
      int keyMask = lay.keyMask;
      int[] c = keyCount[d];
      if (c[((from[fromOff] & keyMask) >>> shift) & mask] == n) {
        return false;
      }
      int pos = toOff;
      for (int i = 0; i < c.length; i++) {
        int k = c[i];
        c[i] = pos;
        pos += k;
      }
      if (fromW == null) {
        for (int i = fromOff, end = fromOff + n; i < end; i++) {
          int v = from[i];
          to[c[((v & keyMask) >>> shift) & mask]++] = v;
        }
      } else {
        for (int i = fromOff, end = fromOff + n; i < end; i++) {
          int v = from[i];
          int q = c[((v & keyMask) >>> shift) & mask]++;
          to[q] = v;
          toW[q] = fromW[i];
        }
      }
      return true;
    }

    /**
     * Stable counting pass by row offset from {@code from[fromOff, fromOff + n)} into {@code colIdx[lo, lo + n)},
     * setting the bucket's row pointers. {@code counted}: {@link #count} already counted the rows.
     */
    private void writeRows(int[] from, float[] fromW, int fromOff, int lo, int n, int row0, int rows,
        boolean counted) {
      int keyBits = lay.keyBits;
      int keyMask = lay.keyMask;
      int[] rc = rowCount;
      if (!counted) {
        java.util.Arrays.fill(rc, 0, rows, 0);
        for (int i = fromOff, end = fromOff + n; i < end; i++) {
          rc[from[i] >>> keyBits]++;
        }
      }
      int pos = lo;
      for (int r = 0; r < rows; r++) {
        int k = rc[r];
        rc[r] = pos;
        pos += k;
        rowPtr[row0 + r + 1] = pos;
      }
      int[] slot = slotOfKey;
      int[] out = colIdx;
      if (slot == null && fromW == null) {
        for (int i = fromOff, end = fromOff + n; i < end; i++) {
          int v = from[i];
          out[rc[v >>> keyBits]++] = v & keyMask;
        }
        return;
      }
      int cols = numCols;
      for (int i = fromOff, end = fromOff + n; i < end; i++) {
        int v = from[i];
        int q = rc[v >>> keyBits]++;
        int k = v & keyMask;
        int c = slot == null ? k : slot[k];
        if (c < 0 || c >= cols) {
          throw new IllegalArgumentException("key " + k + " maps to column " + c + " outside 0.." + (cols - 1));
        }
        colIdx[q] = c;
        if (fromW != null) {
          w[q] = fromW[i];
        }
      }
    }

    /** Stable insertion sort of {@code packed[lo, hi)} as unsigned values (with weights). */
    private void insertionSort(int lo, int hi) {
      for (int i = lo + 1; i < hi; i++) {
        int v = packed[i];
        float x = packedW == null ? 0 : packedW[i];
        int j = i - 1;
        while (j >= lo && Integer.compareUnsigned(packed[j], v) > 0) {
          packed[j + 1] = packed[j];
          if (packedW != null) {
            packedW[j + 1] = packedW[j];
          }
          j--;
        }
        packed[j + 1] = v;
        if (packedW != null) {
          packedW[j + 1] = x;
        }
      }
    }

    private void ensureScratch(int n) {
      if (scratch.length < n) {
        scratch = new int[n];
        if (packedW != null) {
          scratchW = new float[n];
        }
      }
    }
  }

  /**
   * Parallel edges (equal adjacent columns within a row) get ascending weights, so the CSR does not depend on
   * the order the edges were read in (parallel readers, a shuffle). Runs are short: insertion sort.
   * {@code start} is where row {@code fromRow} starts: {@code rowPtr[fromRow]} belongs to the previous bucket,
   * which another thread may still be writing.
   */
  private static void orderParallelEdgesByWeight(int[] rowPtr, int[] colIdx, float[] w, int fromRow, int toRow,
      int start) {
    for (int r = fromRow; r < toRow; r++) {
      int begin = r == fromRow ? start : rowPtr[r];
      int end = rowPtr[r + 1];
      for (int e = begin + 1; e < end; e++) {
        int c = colIdx[e];
        if (colIdx[e - 1] != c) {
          continue;
        }
        float x = w[e];
        int k = e - 1;
        while (k >= begin && colIdx[k] == c && Float.compare(w[k], x) > 0) {
          w[k + 1] = w[k];
          k--;
        }
        w[k + 1] = x;
      }
    }
  }

  private static boolean isIdentity(int[] perm, int n) {
    for (int i = 0; i < n; i++) {
      if (perm[i] != i) {
        return false;
      }
    }
    return true;
  }

  private static int[] inverse(int[] perm, int n) {
    int[] inv = new int[n];
    for (int i = 0; i < n; i++) {
      inv[perm[i]] = i;
    }
    return inv;
  }

  private static void run(int tasks, boolean parallel, RowRanges.Body body) {
    if (parallel) {
      RowRanges.parallel(tasks, 1, body);
    } else {
      body.run(0, tasks);
    }
  }
}
