package org.yarngnn.partition;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.CsrBuilder;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.RowRanges;

/**
 * Builds one owner's {@link GraphBlock} from its nodes and in-edges given as primitive arrays. Sources that are
 * not local become halo slots ({@code numNodes + j}, halo ids ascending); each row lists its sources in ascending
 * global id order, by a counting sort on the sources' id ranks (only the nodes and halo ids are compared, never
 * the edges). The finished block holds {@code 4(n+1) + 4m} bytes of CSR, plus {@code 4m} for weights.
 */
public final class PartitionBlockBuilder {
  /** Edges per parallel task at least. */
  private static final int EDGE_GRAIN = 1 << 16;

  private PartitionBlockBuilder() {}

  /**
   * @param nodeIds the owner's node ids, distinct; local index = position (any order)
   * @param dst destination local index of each edge
   * @param srcIds source global id of each edge (local or remote)
   * @param weights edge weights, or null when the table has none
   * @param numEdges edges used from the arrays
   * @return the block; its halo size is {@code haloIds().length}
   */
  public static GraphBlock build(long[] nodeIds, int[] dst, long[] srcIds, float[] weights, int numEdges) {
    return build(nodeIds, indexOf(nodeIds), dst, srcIds, weights, numEdges);
  }

  /**
   * As {@link #build(long[], int[], long[], float[], int)} with the caller's index of {@code nodeIds}. When the
   * source ids span a range not much wider than the edge count (dense ids, as with range ownership), remote
   * sources are found with a bitmap over that range, which also lists them in id order: nothing is hashed or
   * sorted. Otherwise they are collected in a hash index and sorted.
   */
  public static GraphBlock build(long[] nodeIds, NodeIndex index, int[] dst, long[] srcIds, float[] weights,
      int numEdges) {
    int n = nodeIds.length;
    checkDestinations(dst, n, numEdges);
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int e = 0; e < numEdges; e++) {
      min = Math.min(min, srcIds[e]);
      max = Math.max(max, srcIds[e]);
    }
    long span = max - min + 1;
    if (numEdges > 0 && max - min >= 0 && span <= Math.max(1L << 22, 8L * numEdges)) {
      return buildWithBitmap(nodeIds, index, dst, srcIds, weights, numEdges, min, (int) span);
    }
    int[] slot = new int[numEdges];
    // Remote sources get provisional halo numbers in first-seen order, renumbered by id once all are known.
    NodeIndex halo = new NodeIndex(1 << 10);
    for (int e = 0; e < numEdges; e++) {
      long id = srcIds[e];
      int s = index.get(id);
      if (s < 0) {
        int h = halo.add(id);
        s = n + (h < 0 ? -1 - h : h);
      }
      slot[e] = s;
    }
    long[] haloIds = halo.keysInOrder();
    long[] haloSorted = haloIds.clone();
    Arrays.sort(haloSorted);
    int[] renumber = new int[haloIds.length];
    for (int j = 0; j < haloIds.length; j++) {
      renumber[j] = n + Arrays.binarySearch(haloSorted, haloIds[j]);
    }
    for (int e = 0; e < numEdges; e++) {
      if (slot[e] >= n) {
        slot[e] = renumber[slot[e] - n];
      }
    }
    return finish(nodeIds, haloSorted, dst, slot, weights, numEdges);
  }

  /**
   * Source ids all in {@code [min, min + span)}: every source marked in a bitmap over that range, so a source's
   * rank among the sources (a popcount) is its sort key, and one walk over the bitmap, in id order, gives each
   * key its column (local index, or the next halo slot) with one index lookup per distinct source, not per edge.
   */
  private static GraphBlock buildWithBitmap(long[] nodeIds, NodeIndex index, int[] dst, long[] srcIds,
      float[] weights, int numEdges, long min, int span) {
    SourceKeys keys = new SourceKeys(nodeIds, index, min, edgeBitmap(numEdges, (span + 63) >>> 6,
        (from, to, map) -> {
          for (int e = from; e < to; e++) {
            int r = (int) (srcIds[e] - min);
            map[r >>> 6] |= 1L << r;
          }
        }));
    int[] key = new int[numEdges];
    RowRanges.parallel(numEdges, EDGE_GRAIN, (from, to) -> {
      for (int e = from; e < to; e++) {
        key[e] = keys.key((int) (srcIds[e] - min));
      }
    });
    return keys.block(dst, key, weights, numEdges);
  }

  /**
   * As {@link #build(long[], NodeIndex, int[], long[], float[], int)} for sources held as non-negative int ids (a
   * partition of a dense table under range ownership, see {@link PartitionAssembler}), consuming {@code srcIds}:
   * the sort keys and then the columns are written over it. When the partition's nodes are ids {@code 0..n-1} in
   * order and every source is one of them (a lone worker), each id is its own key and column: no bitmap and no
   * key pass at all.
   */
  public static GraphBlock buildConsuming(long[] nodeIds, NodeIndex index, int[] dst, int[] srcIds,
      float[] weights, int numEdges) {
    return buildConsuming(nodeIds, index, dst, srcIds, weights, numEdges, slots -> { });
  }

  /**
   * As above, telling {@code slots} the block's row slot count (its nodes and its halo) as soon as it is known,
   * before the columns are sorted into place (most of the build): a caller can start allocating a matrix of that
   * many rows meanwhile. Not told on the path for sparse source ids.
   */
  public static GraphBlock buildConsuming(long[] nodeIds, NodeIndex index, int[] dst, int[] srcIds,
      float[] weights, int numEdges, java.util.function.LongConsumer slots) {
    int n = nodeIds.length;
    checkDestinations(dst, n, numEdges);
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    for (int e = 0; e < numEdges; e++) {
      min = Math.min(min, srcIds[e]);
      max = Math.max(max, srcIds[e]);
    }
    if (numEdges > 0 && min < 0) {
      throw new IllegalArgumentException("edge source ids must be >= 0 here, found " + min);
    }
    if (numEdges > 0 && index.isIdentity() && max < n) {
      slots.accept(n);
      return new GraphBlock(nodeIds, new long[0],
          CsrBuilder.buildByKeyConsuming(n, n, dst, srcIds, n, null, weights, numEdges, true));
    }
    long span = (long) max - min + 1;
    if (numEdges == 0 || span > Math.max(1L << 22, 8L * numEdges)) {
      long[] wide = new long[numEdges];
      for (int e = 0; e < numEdges; e++) {
        wide[e] = srcIds[e];
      }
      return build(nodeIds, index, dst, wide, weights, numEdges);
    }
    int base = min;
    SourceKeys keys = new SourceKeys(nodeIds, index, base, edgeBitmap(numEdges, (int) ((span + 63) >>> 6),
        (from, to, map) -> {
          for (int e = from; e < to; e++) {
            int r = srcIds[e] - base;
            map[r >>> 6] |= 1L << r;
          }
        }));
    slots.accept((long) n + keys.haloCount);
    RowRanges.parallel(numEdges, EDGE_GRAIN, (from, to) -> {
      for (int e = from; e < to; e++) {
        srcIds[e] = keys.key(srcIds[e] - base);
      }
    });
    return keys.block(dst, srcIds, weights, numEdges);
  }

  /**
   * The sort keys of sources marked in a bitmap over ids {@code [min, min + 64 * words)}: a source's rank among
   * the sources (a popcount), each key's column (local index, or the next halo slot, in id order) found by one
   * walk over the bitmap, with one index lookup per distinct source, not per edge.
   */
  private static final class SourceKeys {
    private final long[] nodeIds;
    private final long[] bits;
    /** Sources marked in the words before each word. */
    private final int[] before;
    private final int[] columnOfKey;
    private final long[] halo;
    private final int haloCount;

    SourceKeys(long[] nodeIds, NodeIndex index, long min, long[] bits) {
      int n = nodeIds.length;
      this.nodeIds = nodeIds;
      this.bits = bits;
      before = new int[bits.length];
      int sources = 0;
      for (int w = 0; w < bits.length; w++) {
        before[w] = sources;
        sources += Long.bitCount(bits[w]);
      }
      columnOfKey = new int[sources];
      halo = new long[sources];
      int h = 0;
      int k = 0;
      for (int w = 0; w < bits.length; w++) {
        for (long b = bits[w]; b != 0; b &= b - 1) {
          long id = min + ((long) w << 6) + Long.numberOfTrailingZeros(b);
          int s = index.get(id);
          if (s < 0) {
            halo[h] = id;
            s = n + h++;
          }
          columnOfKey[k++] = s;
        }
      }
      haloCount = h;
    }

    /** The key of the source at offset {@code r} from the bitmap's first id. */
    int key(int r) {
      return before[r >>> 6] + Long.bitCount(bits[r >>> 6] & ((1L << r) - 1));
    }

    /** The block over the edges whose sources have keys {@code key} (consumed: its array becomes the columns). */
    GraphBlock block(int[] dst, int[] key, float[] weights, int numEdges) {
      int n = nodeIds.length;
      Csr csr = CsrBuilder.buildByKeyConsuming(n, n + haloCount, dst, key, columnOfKey.length, columnOfKey, weights,
          numEdges, true);
      return new GraphBlock(nodeIds, Arrays.copyOf(halo, haloCount), csr);
    }
  }

  /** Every edge's destination a local row, {@code [0, n)}. */
  private static void checkDestinations(int[] dst, int n, int numEdges) {
    for (int e = 0; e < numEdges; e++) {
      int d = dst[e];
      if (d < 0 || d >= n) {
        throw new IllegalArgumentException("edge " + e + " has destination " + d + " outside 0.." + (n - 1));
      }
    }
  }

  /** The index of distinct ids; a duplicate is the caller's error. */
  public static NodeIndex indexOf(long[] nodeIds) {
    NodeIndex index = new NodeIndex(nodeIds.length);
    for (long id : nodeIds) {
      if (index.add(id) < 0) {
        throw new IllegalArgumentException("duplicate node id " + id);
      }
    }
    return index;
  }

  /**
   * The CSR over slots (local nodes, then {@code haloSorted}) with rows ordered by source id. {@code slot} holds
   * each edge's source slot.
   */
  static GraphBlock finish(long[] nodeIds, long[] haloSorted, int[] dst, int[] slot, float[] weights,
      int numEdges) {
    int n = nodeIds.length;
    int slots = n + haloSorted.length;
    int[] key = slotKeys(nodeIds, haloSorted);
    Csr csr = CsrBuilder.build(n, slots, dst, slot, weights, numEdges, key);
    return new GraphBlock(nodeIds, haloSorted, csr);
  }

  /** Rank of every slot's id among all slot ids: local ids (any order) merged with the ascending halo ids. */
  static int[] slotKeys(long[] nodeIds, long[] haloSorted) {
    int n = nodeIds.length;
    boolean ascending = true;
    for (int i = 1; i < n && ascending; i++) {
      ascending = nodeIds[i - 1] < nodeIds[i];
    }
    long[] localSorted = ascending ? nodeIds : nodeIds.clone();
    if (!ascending) {
      Arrays.sort(localSorted);
    }
    int[] key = new int[n + haloSorted.length];
    int[] keyOfSortedLocal = ascending ? key : new int[n];
    int i = 0;
    int j = 0;
    int pos = 0;
    while (i < n || j < haloSorted.length) {
      if (j == haloSorted.length || (i < n && localSorted[i] < haloSorted[j])) {
        keyOfSortedLocal[i++] = pos++;
      } else {
        key[n + j++] = pos++;
      }
    }
    if (!ascending) {
      for (int k = 0; k < n; k++) {
        key[k] = keyOfSortedLocal[Arrays.binarySearch(localSorted, nodeIds[k])];
      }
    }
    return key;
  }

  /** Bytes of the block's CSR arrays. */
  public static long csrBytes(GraphBlock block) {
    return block.inEdges().sizeInBytes();
  }

  /**
   * The in-memory variant: sources given as global id ranks, which the caller's layout maps to owner and local
   * index. The halo falls out of a bitmap over ranks already in id order, and the ranks are the CSR's sort keys,
   * so nothing is hashed or sorted here; with one partition every source is local and its rank is already its
   * slot. The passes over the edges run on the common fork-join pool.
   */
  static GraphBlock buildFromRanks(RankLayout layout, int p, int[] dst, int[] srcRank, float[] weights,
      int numEdges) {
    long[] nodeIds = layout.nodeIds(p);
    int n = nodeIds.length;
    if (layout.parts() == 1) {
      // Every source is local and its rank is its slot.
      return new GraphBlock(nodeIds, new long[0],
          CsrBuilder.buildByKey(n, n, dst, srcRank, n, null, weights, numEdges, true));
    }
    int[] owner = layout.ownerOfRank;
    long[] bits = remoteSources(owner, p, srcRank, numEdges, layout.n);
    // Ranks are the sort keys; each rank's column is its local index, or its halo slot in id order.
    int[] columnOfRank = new int[layout.n];
    int[] local = layout.localOfRank;
    long[] halo = new long[layout.n - n];
    int h = 0;
    for (int r = 0; r < layout.n; r++) {
      if (owner[r] == p) {
        columnOfRank[r] = local[r];
      } else if ((bits[r >>> 6] & (1L << r)) != 0) {
        halo[h] = layout.idOfRank[r];
        columnOfRank[r] = n + h++;
      } else {
        columnOfRank[r] = -1;
      }
    }
    Csr csr = CsrBuilder.buildByKey(n, n + h, dst, srcRank, layout.n, columnOfRank, weights, numEdges, true);
    return new GraphBlock(nodeIds, Arrays.copyOf(halo, h), csr);
  }

  /** Bitmap over ranks of the sources not owned by {@code p}. */
  private static long[] remoteSources(int[] owner, int p, int[] srcRank, int numEdges, int ranks) {
    return edgeBitmap(numEdges, (ranks + 63) >>> 6, (from, to, bits) -> {
      for (int e = from; e < to; e++) {
        int r = srcRank[e];
        if (owner[r] != p) {
          bits[r >>> 6] |= 1L << r;
        }
      }
    });
  }

  /** Marks bits for the edges {@code [from, to)} in {@code bits}. */
  private interface EdgeMarker {
    void mark(int from, int to, long[] bits);
  }

  /** A bitmap of {@code words} words marked over all edges: one bitmap per thread's share, then OR-ed. */
  private static long[] edgeBitmap(int numEdges, int words, EdgeMarker marker) {
    int shares = (int) Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(),
        numEdges / (long) EDGE_GRAIN));
    long[][] maps = new long[shares][];
    RowRanges.parallel(shares, 1, (a, z) -> {
      for (int t = a; t < z; t++) {
        maps[t] = new long[words];
        marker.mark((int) ((long) numEdges * t / shares), (int) ((long) numEdges * (t + 1) / shares), maps[t]);
      }
    });
    long[] bits = maps[0];
    for (int t = 1; t < shares; t++) {
      for (int w = 0; w < words; w++) {
        bits[w] |= maps[t][w];
      }
    }
    return bits;
  }
}
