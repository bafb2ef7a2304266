package org.yarngnn.compute.retrieval;

import java.util.Arrays;
import org.yarngnn.compute.kernel.Gemm;
import org.yarngnn.compute.kernel.PackedMatrix;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.kernel.SparseRows;

/**
 * Exact top-K by dot product for a fixed set of queries over candidates that arrive in blocks: for each query, the
 * K candidates of highest score {@code q . c}, ties broken by the smaller candidate id, never the query's own id,
 * never a pair in {@link QueryPairs}.
 *
 * <p>Each {@link #offer} packs the candidate block once (the transpose, as the GEMM's B operand) and multiplies
 * every block of {@value #QUERY_BLOCK} queries by it with {@link Gemm} into a per-thread score tile of
 * {@value #QUERY_BLOCK} x block floats, then runs each query's row of the tile through the query's bounded heap.
 * Almost every score of a long stream is below the heap's worst entry, so the selection is one vector compare per
 * lane-width of scores ({@link SparseRows#firstAtLeast}); the id, self and exclusion checks run only for the few
 * that would enter. Memory is the queries, their heaps
 * (K scores and ids each) and the tiles and packed block: bounded by the block size, not by the candidate count.
 *
 * <p>Not thread-safe: one caller offers blocks in turn; each offer itself runs on the fork-join pool.
 */
public final class ExactTopK {
  /** Queries per GEMM call and score tile: their rows (64 x width floats) stay in L1/L2 across the block. */
  public static final int QUERY_BLOCK = 64;
  /**
   * Default candidates per block: 2048 x 64 dims packed is 512 KB and a 64 x 2048 score tile another 512 KB,
   * together within the 1 MB L2 of a Zen 4 core.
   */
  public static final int DEFAULT_CANDIDATE_BLOCK = 2048;

  /** The block's scores could overflow float: refused, as a NaN or infinite score must never be written. */
  public static final class ScoreOverflowException extends ArithmeticException {
    private final long queryId;
    private final long candidateId;

    ScoreOverflowException(long queryId, long candidateId, double bound) {
      super(String.format(java.util.Locale.ROOT, "the score of query %d and candidate %d may overflow float "
          + "(|q| |c| = %.3g): embeddings this large have no finite dot products", queryId, candidateId, bound));
      this.queryId = queryId;
      this.candidateId = candidateId;
    }

    public long queryId() {
      return queryId;
    }

    public long candidateId() {
      return candidateId;
    }
  }

  private final float[] queries;
  private final long[] queryIds;
  private final int count;
  private final int width;
  private final int k;
  private final QueryPairs excluded;
  private final int candidateBlock;
  /** Query i's heap: {@code heapScore/heapId[i*k .. i*k+size[i])}, the worst entry at the root. */
  private final float[] heapScore;
  private final long[] heapId;
  private final int[] size;
  private final double maxQueryNorm;
  private final int maxNormQuery;
  private final ThreadLocal<float[]> tiles;
  private PackedMatrix packed;
  private long offered;

  /**
   * Top {@code k} for {@code count} queries, row {@code i} of the row-major {@code queries} (width {@code width})
   * being query {@code queryIds[i]}; blocks offered later hold at most {@code candidateBlock} candidates.
   */
  public ExactTopK(float[] queries, long[] queryIds, int count, int width, int k, QueryPairs excluded,
      int candidateBlock) {
    if (count < 0 || width < 1 || k < 1 || candidateBlock < 1 || queryIds.length < count
        || queries.length < (long) count * width) {
      throw new IllegalArgumentException("top-" + k + " of " + count + " queries of width " + width + " in blocks of "
          + candidateBlock);
    }
    long heapSlots = (long) count * k;
    if (heapSlots > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException(count + " queries x top-" + k + " is more than one array holds; "
          + "spread the queries over more workers");
    }
    this.queries = queries;
    this.queryIds = queryIds;
    this.count = count;
    this.width = width;
    this.k = k;
    this.excluded = excluded == null ? QueryPairs.NONE : excluded;
    this.candidateBlock = candidateBlock;
    this.heapScore = new float[(int) heapSlots];
    this.heapId = new long[(int) heapSlots];
    this.size = new int[count];
    double max = 0;
    int maxAt = 0;
    for (int i = 0; i < count; i++) {
      double n = norm(queries, i * width, width);
      if (n > max) {
        max = n;
        maxAt = i;
      }
    }
    this.maxQueryNorm = max;
    this.maxNormQuery = maxAt;
    this.tiles = ThreadLocal.withInitial(() -> new float[QUERY_BLOCK * candidateBlock]);
  }

  /** Bytes of the heaps of {@code queries} queries' top {@code k}: what a caller bounds before building one. */
  public static long heapBytes(long queries, int k) {
    return queries * k * (Float.BYTES + Long.BYTES) + queries * Integer.BYTES;
  }

  /** Bytes of the per-block buffers: the packed block and one score tile per thread. */
  public static long blockBytes(int candidateBlock, int width, int threads) {
    return (long) candidateBlock * (width + 48) * Float.BYTES
        + (long) threads * QUERY_BLOCK * candidateBlock * Float.BYTES;
  }

  private static double norm(float[] v, int off, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) {
      s += (double) v[off + i] * v[off + i];
    }
    return Math.sqrt(s);
  }

  /**
   * Scores the {@code n} candidates {@code ids[0..n)} (row-major rows of {@code rows}, width as the queries')
   * against every query and keeps each query's best. Ids must be distinct over all blocks offered.
   */
  public void offer(float[] rows, long[] ids, int n) {
    if (n < 0 || n > candidateBlock || rows.length < (long) n * width || ids.length < n) {
      throw new IllegalArgumentException(n + " candidates in a block of at most " + candidateBlock);
    }
    if (n == 0 || count == 0) {
      return;
    }
    double blockMax = 0;
    int blockMaxAt = 0;
    for (int j = 0; j < n; j++) {
      double c = norm(rows, j * width, width);
      if (c > blockMax) {
        blockMax = c;
        blockMaxAt = j;
      }
    }
    // |q . c| <= |q| |c| bounds every partial sum too (Cauchy-Schwarz), so below half of Float.MAX_VALUE no
    // score can overflow or become NaN, whatever order the kernel sums in; checked once per block, not per score.
    double bound = maxQueryNorm * blockMax;
    if (bound > Float.MAX_VALUE / 2) {
      throw new ScoreOverflowException(queryIds[maxNormQuery], ids[blockMaxAt], bound);
    }
    PackedMatrix b = PackedMatrix.packTransposed(rows, 0, n, width, packed);
    packed = b;
    int queryBlocks = (count + QUERY_BLOCK - 1) / QUERY_BLOCK;
    RowRanges.parallel(queryBlocks, 1, (from, to) -> {
      float[] tile = tiles.get();
      for (int qb = from; qb < to; qb++) {
        int q0 = qb * QUERY_BLOCK;
        int m = Math.min(QUERY_BLOCK, count - q0);
        Gemm.multiply(queries, q0 * width, width, m, b, tile, 0, n);
        for (int r = 0; r < m; r++) {
          select(q0 + r, tile, r * n, ids, n);
        }
      }
    });
    offered += n;
  }

  /** Runs query {@code q}'s scores {@code tile[off..off+n)} (candidates {@code ids}) through its heap. */
  private void select(int q, float[] tile, int off, long[] ids, int n) {
    int base = q * k;
    int sz = size[q];
    long self = queryIds[q];
    // The heap's worst score; -inf while it has room, so every candidate is considered.
    float worst = sz < k ? Float.NEGATIVE_INFINITY : heapScore[base];
    int end = off + n;
    for (int at = off; ; at++) {
      // The next score at least the worst, a vector of scores at a time (nearly all are below it).
      at = SparseRows.firstAtLeast(tile, at, end, worst);
      if (at >= end) {
        break;
      }
      float s = tile[at];
      long id = ids[at - off];
      if (sz == k && s == worst && id > heapId[base]) {
        continue; // a tie with the worst entry goes to the smaller id, already held
      }
      if (id == self || excluded.excluded(q, id)) {
        continue;
      }
      if (sz < k) {
        siftUp(base, sz, s, id);
        sz++;
        worst = sz < k ? Float.NEGATIVE_INFINITY : heapScore[base];
      } else {
        siftDown(base, sz, s, id);
        worst = heapScore[base];
      }
    }
    size[q] = sz;
  }

  /** Whether (s1, id1) ranks below (s2, id2): a lower score, or the same score and a larger id. */
  private static boolean worse(float s1, long id1, float s2, long id2) {
    return s1 < s2 || (s1 == s2 && id1 > id2);
  }

  private void siftUp(int base, int at, float s, long id) {
    int i = at;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!worse(s, id, heapScore[base + parent], heapId[base + parent])) {
        break;
      }
      heapScore[base + i] = heapScore[base + parent];
      heapId[base + i] = heapId[base + parent];
      i = parent;
    }
    heapScore[base + i] = s;
    heapId[base + i] = id;
  }

  /** Replaces the root (the worst entry) of a heap of {@code sz} by (s, id). */
  private void siftDown(int base, int sz, float s, long id) {
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= sz) {
        break;
      }
      int right = child + 1;
      if (right < sz && worse(heapScore[base + right], heapId[base + right], heapScore[base + child],
          heapId[base + child])) {
        child = right;
      }
      if (!worse(heapScore[base + child], heapId[base + child], s, id)) {
        break;
      }
      heapScore[base + i] = heapScore[base + child];
      heapId[base + i] = heapId[base + child];
      i = child;
    }
    heapScore[base + i] = s;
    heapId[base + i] = id;
  }

  /** Queries. */
  public int queries() {
    return count;
  }

  /** Candidates offered so far. */
  public long offered() {
    return offered;
  }

  /**
   * Query {@code q}'s top candidates so far, best first (rank 1 at index 0), into {@code ids} and {@code scores}
   * (each of at least K); returns how many (fewer than K when fewer candidates were eligible).
   */
  public int result(int q, long[] ids, float[] scores) {
    int base = q * k;
    int n = size[q];
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> worse(heapScore[base + a], heapId[base + a], heapScore[base + b],
        heapId[base + b]) ? 1 : worse(heapScore[base + b], heapId[base + b], heapScore[base + a],
        heapId[base + a]) ? -1 : 0);
    for (int i = 0; i < n; i++) {
      ids[i] = heapId[base + order[i]];
      scores[i] = heapScore[base + order[i]];
    }
    return n;
  }
}
