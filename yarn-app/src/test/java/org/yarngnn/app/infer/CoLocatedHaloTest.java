package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * {@link CoLocatedHalo}: each worker's halo slots receive exactly the rows its peers hold for it, layer after layer
 * over matrices that change between layers, and a plan that does not pair up, a failing, abandoned or absent worker
 * fails every worker instead of leaving one waiting. (End to end: CoraLocalInferenceTest's local runs without
 * pipelining go through it and match the single-JVM reference.)
 */
class CoLocatedHaloTest {
  private static final int WIDTH = 3;

  /**
   * Three workers, each with 4 own rows and a halo of one row from each peer: worker w's halo slot 4 + j holds
   * row (w + 1) % 4 of the j-th other worker.
   */
  private static int[][] send(int w) {
    int[][] s = new int[3][];
    for (int q = 0; q < 3; q++) {
      s[q] = q == w ? null : new int[] {(q + 1) % 4};
    }
    return s;
  }

  private static int[][] recv(int w) {
    int[][] r = new int[3][];
    int slot = 4;
    for (int q = 0; q < 3; q++) {
      r[q] = q == w ? null : new int[] {slot++};
    }
    return r;
  }

  /** Own row r of worker w in layer k: (100 k + 10 w + r, ...); halo rows NaN until filled. */
  private static DenseMatrix rows(int k, int w) {
    DenseMatrix m = new DenseMatrix(6, WIDTH);
    java.util.Arrays.fill(m.data(), Float.NaN);
    for (int r = 0; r < 4; r++) {
      for (int c = 0; c < WIDTH; c++) {
        m.set(r, c, 100 * k + 10 * w + r + c / 10f);
      }
    }
    return m;
  }

  private static CompletableFuture<Long> later(CoLocatedHalo halo, int w, int k, DenseMatrix m, int[][] send,
      int[][] recv, AtomicBoolean abandoned) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return halo.exchange(w, k, m, send, recv, abandoned::get);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  private static Throwable cause(CompletableFuture<?> f) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
    return e.getCause();
  }

  @Test
  void everyWorkerGetsItsPeersRowsLayerAfterLayer() throws Exception {
    CoLocatedHalo halo = new CoLocatedHalo(3, 10_000);
    AtomicBoolean no = new AtomicBoolean();
    for (int k = 0; k < 2; k++) {
      // The same matrices' arrays would be reused by a layer; fresh values per layer show no stale row is copied.
      List<DenseMatrix> m = new ArrayList<>();
      List<CompletableFuture<Long>> done = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        m.add(rows(k, w));
        done.add(later(halo, w, k, m.get(w), send(w), recv(w), no));
      }
      for (int w = 0; w < 3; w++) {
        assertEquals(2L, done.get(w).get(10, TimeUnit.SECONDS));
        int slot = 4;
        for (int q = 0; q < 3; q++) {
          if (q == w) {
            continue;
          }
          assertArrayEquals(rows(k, q).row((w + 1) % 4), m.get(w).row(slot++), "layer " + k + " worker " + w
              + " from " + q);
        }
        for (int r = 0; r < 4; r++) {
          assertArrayEquals(rows(k, w).row(r), m.get(w).row(r), "own rows untouched");
        }
      }
    }
  }

  @Test
  void noWorkerReturnsBeforeEveryPeerHasCopiedItsRows() throws Exception {
    CoLocatedHalo halo = new CoLocatedHalo(2, 10_000);
    AtomicBoolean no = new AtomicBoolean();
    int[][] send = {null, {0}};
    int[][] recv0 = {null, {1}};
    int[][] recv1 = {{1}, null};
    // Worker 1 publishes; alone, it may not return (worker 0 has not read its rows yet), nor may it later.
    CompletableFuture<Long> one = later(halo, 1, 0, new DenseMatrix(2, 1), new int[][] {{0}, null}, recv1, no);
    Thread.sleep(200);
    assertFalse(one.isDone(), "worker 1 waits for worker 0");
    assertEquals(1L, halo.exchange(0, 0, new DenseMatrix(2, 1), send, recv0, no::get));
    assertEquals(1L, one.get(10, TimeUnit.SECONDS));
  }

  @Test
  void aPlanThatDoesNotPairUpFailsBoth() throws Exception {
    CoLocatedHalo halo = new CoLocatedHalo(2, 10_000);
    AtomicBoolean no = new AtomicBoolean();
    // Worker 0 asks worker 1 for two rows; worker 1 holds one for it.
    CompletableFuture<Long> one = later(halo, 1, 0, new DenseMatrix(3, 1), new int[][] {{0}, null},
        new int[][] {{2}, null}, no);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> halo.exchange(0, 0,
        new DenseMatrix(3, 1), new int[][] {null, {0}}, new int[][] {null, {1, 2}}, no::get));
    assertTrue(e.getMessage().contains("asked worker 1 for 2 rows, which holds 1"), e.getMessage());
    assertTrue(cause(one).getMessage().contains("failed"), "worker 1 fails too instead of waiting");
  }

  @Test
  void aFailingPeerFailsTheOthersAtOnceAndLaterLayers() throws Exception {
    CoLocatedHalo halo = new CoLocatedHalo(2, 600_000);
    AtomicBoolean no = new AtomicBoolean();
    CompletableFuture<Long> one = later(halo, 1, 0, new DenseMatrix(2, 1), new int[][] {{0}, null},
        new int[][] {{1}, null}, no);
    Thread.sleep(100);
    long t0 = System.nanoTime();
    halo.fail(new IllegalStateException("worker 0: NaN in layer 1's weights"));
    assertTrue(cause(one).getMessage().contains("NaN in layer 1's weights"));
    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "not after the 10-minute timeout");
    assertThrows(IllegalStateException.class, () -> halo.exchange(0, 1, new DenseMatrix(2, 1),
        new int[][] {null, {0}}, new int[][] {null, {1}}, no::get));
  }

  @Test
  void aWorkerLeftAloneGivesUpAfterItsTimeoutAndAnAbandonedOneAtOnce() throws Exception {
    AtomicBoolean no = new AtomicBoolean();
    CoLocatedHalo alone = new CoLocatedHalo(2, 300);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> alone.exchange(0, 0,
        new DenseMatrix(2, 1), new int[][] {null, {0}}, new int[][] {null, {1}}, no::get));
    assertTrue(e.getMessage().contains("waited 300 ms for the other workers' layer 1 rows"), e.getMessage());

    CoLocatedHalo halo = new CoLocatedHalo(2, 600_000);
    AtomicBoolean abandoned = new AtomicBoolean();
    CompletableFuture<Long> zero = later(halo, 0, 0, new DenseMatrix(2, 1), new int[][] {null, {0}},
        new int[][] {null, {1}}, abandoned);
    Thread.sleep(100);
    abandoned.set(true);
    assertTrue(cause(zero).getMessage().contains("abandoned"));
  }

  /**
   * The shared message matrix: both workers' views are of one array, each sees the other's rows in place once both
   * have stepped, a second step keeps a fast worker from writing the next layer over rows still read, and a
   * failing worker breaks a step its peer waits at.
   */
  @Test
  void sharedRowsAreOneMatrixStepByStep() throws Exception {
    CoLocatedHalo halo = new CoLocatedHalo(2, 5_000);
    halo.reserveShared(5, 4);
    List<CompletableFuture<float[]>> seen = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      int worker = w;
      seen.add(CompletableFuture.supplyAsync(() -> {
        try {
          float[] got = new float[4];
          for (int k = 0; k < 2; k++) {
            int first = worker == 0 ? 0 : 2;
            int n = worker == 0 ? 2 : 3;
            DenseMatrix m = halo.sharedRows(worker, 5, first, n, 2 + k);
            for (int r = 0; r < n; r++) {
              m.set(r, 0, 100 * k + first + r);
            }
            halo.step(worker, "rows", () -> false);
            // The peer's first row, read in place: below row 0 for worker 1, at row 2 for worker 0.
            got[2 * k] = worker == 0 ? m.get(2, 0) : m.get(-2, 0);
            got[2 * k + 1] = m.offset(0);
            halo.step(worker, "aggregated", () -> false);
          }
          return got;
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }));
    }
    assertArrayEquals(new float[] {2, 0, 102, 0}, seen.get(0).get(10, TimeUnit.SECONDS));
    assertArrayEquals(new float[] {0, 4, 100, 6}, seen.get(1).get(10, TimeUnit.SECONDS));
    halo.releaseShared();
    CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
      try {
        halo.step(0, "the other worker", () -> false);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    halo.fail(new IllegalStateException("worker 1 failed"));
    assertTrue(cause(waiting).getMessage().contains("worker 1 failed"), cause(waiting).getMessage());
  }
}
