package org.yarngnn.compute.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The radix CSR build against a plain comparison sort of the edges by (destination, source key, weight), on
 * inputs that hit each path: small and large buckets, several scatter chunks, a permuted key, pre-sorted input,
 * weighted parallel edges, and serial versus parallel runs.
 */
class CsrBuilderTest {
  /** Random edges; a quarter of them land on a few hub rows so some buckets are large. */
  private record Edges(int rows, int cols, int[] dst, int[] src, float[] w) {
    static Edges random(int rows, int cols, int m, boolean weighted, long seed) {
      SplittableRandom rnd = new SplittableRandom(seed);
      int[] dst = new int[m];
      int[] src = new int[m];
      float[] w = weighted ? new float[m] : null;
      for (int e = 0; e < m; e++) {
        dst[e] = rnd.nextInt(4) == 0 ? rnd.nextInt(Math.max(1, rows / 50)) : rnd.nextInt(rows);
        // Few distinct sources per hub row: many parallel edges.
        src[e] = dst[e] < rows / 50 ? rnd.nextInt(Math.max(1, cols / 100)) : rnd.nextInt(cols);
        if (w != null) {
          w[e] = rnd.nextInt(5) * 0.5f;
        }
      }
      return new Edges(rows, cols, dst, src, w);
    }

    /** The same edges reordered by {@code order} (edge indices). */
    Edges permuted(Integer[] order) {
      int[] d = new int[order.length];
      int[] s = new int[order.length];
      float[] ww = w == null ? null : new float[order.length];
      for (int i = 0; i < order.length; i++) {
        d[i] = dst[order[i]];
        s[i] = src[order[i]];
        if (ww != null) {
          ww[i] = w[order[i]];
        }
      }
      return new Edges(rows, cols, d, s, ww);
    }

    Csr build(int[] key, boolean parallel) {
      return CsrBuilder.build(rows, cols, dst, src, w, dst.length, key, parallel);
    }
  }

  private static int keyOf(int[] key, int slot) {
    return key == null ? slot : key[slot];
  }

  /** Rows by destination, sources by key, parallel weighted edges by weight. */
  private static Csr reference(Edges g, int[] key) {
    int m = g.dst.length;
    Integer[] order = new Integer[m];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> {
      int c = Integer.compare(g.dst[a], g.dst[b]);
      if (c == 0) {
        c = Integer.compare(keyOf(key, g.src[a]), keyOf(key, g.src[b]));
      }
      if (c == 0 && g.w != null) {
        c = Float.compare(g.w[a], g.w[b]);
      }
      return c;
    });
    int[] rowPtr = new int[g.rows + 1];
    int[] col = new int[m];
    float[] w = g.w == null ? null : new float[m];
    for (int i = 0; i < m; i++) {
      int e = order[i];
      rowPtr[g.dst[e] + 1]++;
      col[i] = g.src[e];
      if (w != null) {
        w[i] = g.w[e];
      }
    }
    for (int r = 0; r < g.rows; r++) {
      rowPtr[r + 1] += rowPtr[r];
    }
    return new Csr(g.rows, g.cols, rowPtr, col, w);
  }

  private static void assertCsrEquals(Csr expected, Csr actual) {
    assertEquals(expected.numRows(), actual.numRows());
    assertEquals(expected.numCols(), actual.numCols());
    assertArrayEquals(expected.rowPtr(), actual.rowPtr());
    assertArrayEquals(expected.colIdx(), actual.colIdx());
    if (expected.weights() == null) {
      assertNull(actual.weights());
    } else {
      assertArrayEquals(expected.weights(), actual.weights());
    }
  }

  private static int[] shuffledKey(int n, long seed) {
    int[] key = new int[n];
    Arrays.setAll(key, i -> i);
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = key[i];
      key[i] = key[j];
      key[j] = t;
    }
    return key;
  }

  @Test
  void smallGraphsMatchTheReference() {
    for (int seed = 0; seed < 20; seed++) {
      int rows = 1 + seed * 7;
      int cols = 1 + seed * 11;
      Edges g = Edges.random(rows, cols, seed * 37, seed % 2 == 0, seed);
      int[] key = seed % 3 == 0 ? null : shuffledKey(cols, seed);
      assertCsrEquals(reference(g, key), g.build(key, seed % 2 == 1));
    }
  }

  @Test
  void largeInputSerialAndParallelMatchTheReference() {
    // 400k edges: several scatter chunks, many buckets, hub buckets far above the insertion-sort size.
    Edges g = Edges.random(30_000, 70_000, 400_000, false, 7);
    Csr expected = reference(g, null);
    assertCsrEquals(expected, g.build(null, false));
    assertCsrEquals(expected, g.build(null, true));
    int[] key = shuffledKey(g.cols, 3);
    Csr keyed = reference(g, key);
    assertCsrEquals(keyed, g.build(key, true));
    assertCsrEquals(keyed, g.build(key, false));
  }

  @Test
  void weightedParallelEdgesDoNotDependOnInputOrder() {
    Edges g = Edges.random(5_000, 3_000, 200_000, true, 11);
    Csr expected = reference(g, null);
    assertCsrEquals(expected, g.build(null, true));
    Integer[] reversed = new Integer[g.dst.length];
    Arrays.setAll(reversed, i -> g.dst.length - 1 - i);
    assertCsrEquals(expected, g.permuted(reversed).build(null, true));
  }

  @Test
  void inputAlreadySortedBySourceOrByDestination() {
    Edges g = Edges.random(20_000, 20_000, 300_000, true, 5);
    int[] key = shuffledKey(g.cols, 9);
    Csr expected = reference(g, key);
    Integer[] bySource = new Integer[g.dst.length];
    Arrays.setAll(bySource, i -> i);
    Arrays.sort(bySource, (a, b) -> Integer.compare(key[g.src[a]], key[g.src[b]]));
    assertCsrEquals(expected, g.permuted(bySource).build(key, true));
    Integer[] byDst = bySource.clone();
    Arrays.sort(byDst, (a, b) -> Integer.compare(g.dst[a], g.dst[b]));
    assertCsrEquals(expected, g.permuted(byDst).build(key, true));
    // Sorted by source except one swapped pair: the key passes must run.
    Integer[] almost = bySource.clone();
    Integer t = almost[1000];
    almost[1000] = almost[200_000];
    almost[200_000] = t;
    assertCsrEquals(expected, g.permuted(almost).build(key, false));
  }

  @Test
  void keysUsingAll31BitsSqueezeTheRowOffsetIntoTheSignBit() {
    // 2^30 + 7 source slots: 31 key bits leave one bit of the packed int for the row offset (its sign bit), so
    // buckets hold two rows and packed values of odd rows are negative ints that must still sort unsigned.
    int cols = (1 << 30) + 7;
    for (boolean weighted : new boolean[] {false, true}) {
      Edges g = Edges.random(3000, cols, 200_000, weighted, 21);
      for (int e = 0; e < g.src.length; e += 3) {
        g.src[e] = cols - 1 - (e % 50); // near the top of the key space
      }
      Csr expected = reference(g, null);
      assertCsrEquals(expected, g.build(null, true));
      assertCsrEquals(expected, g.build(null, false));
    }
  }

  @Test
  void edgesGivenByKeyWithAColumnPerKey() {
    // Keys are id ranks; columns are some other numbering of the same sources (locals first, say), and not every
    // key is used: unused keys may map to -1.
    int keys = 5000;
    int cols = 7000;
    int[] columnOfKey = new int[keys];
    int[] perm = shuffledKey(cols, 3);
    for (int k = 0; k < keys; k++) {
      columnOfKey[k] = k % 7 == 3 ? -1 : perm[k];
    }
    for (boolean weighted : new boolean[] {false, true}) {
      Edges g = Edges.random(900, keys, 120_000, weighted, 13);
      for (int e = 0; e < g.src.length; e++) {
        if (g.src[e] % 7 == 3) {
          g.src[e]--; // used keys only
        }
      }
      Csr byKey = CsrBuilder.buildByKey(g.rows, cols, g.dst, g.src, keys, columnOfKey, g.w, g.dst.length, true);
      Csr expected = reference(g, null);
      int[] mapped = expected.colIdx().clone();
      for (int e = 0; e < mapped.length; e++) {
        mapped[e] = columnOfKey[mapped[e]];
      }
      assertCsrEquals(new Csr(g.rows, cols, expected.rowPtr(), mapped, expected.weights()), byKey);
      // Consuming the keys: the same CSR, its columns written over the keys' array (with room to spare, too).
      int[] keysCopy = java.util.Arrays.copyOf(g.src, g.src.length + (weighted ? 5 : 0));
      Csr consumed = CsrBuilder.buildByKeyConsuming(g.rows, cols, g.dst, keysCopy, keys, columnOfKey, g.w,
          g.dst.length, weighted);
      assertSame(keysCopy, consumed.colIdx());
      assertCsrEquals(byKey, new Csr(g.rows, cols, consumed.rowPtr(),
          java.util.Arrays.copyOf(consumed.colIdx(), g.dst.length), consumed.weights()));
    }
    int[] bad = columnOfKey.clone();
    bad[10] = -1;
    assertThrows(IllegalArgumentException.class,
        () -> CsrBuilder.buildByKey(3, cols, new int[] {0, 1}, new int[] {10, 11}, keys, bad, null, 2, false));
    assertThrows(IllegalArgumentException.class,
        () -> CsrBuilder.buildByKey(3, cols, new int[] {0}, new int[] {keys}, keys, columnOfKey, null, 1, false));
  }

  @Test
  void emptyAndOutOfRange() {
    Csr empty = CsrBuilder.build(3, 4, new int[0], new int[0], null, 0, null);
    assertArrayEquals(new int[4], empty.rowPtr());
    assertThrows(IllegalArgumentException.class,
        () -> CsrBuilder.build(3, 4, new int[] {3}, new int[] {0}, null, 1, null));
    assertThrows(IllegalArgumentException.class,
        () -> CsrBuilder.build(3, 4, new int[] {0}, new int[] {4}, null, 1, null));
  }
}
