package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.io.table.EdgeSink;

/**
 * {@link SharedEdges} and {@link PartitionBlockBuilder#sliceRows}: each range partition's block sliced from the
 * whole table's CSR is the block its own edges build, and rows outside the ids reach the fallback sink.
 */
class SharedEdgesTest {
  /** The rows handed to the fallback sink. */
  private static final class Outside implements EdgeSink {
    final List<long[]> rows = new ArrayList<>();

    @Override
    public void edge(long src, long dst, float weight, long row) {
      rows.add(new long[] {src, dst, row});
    }
  }

  @Test
  void slicesAreTheBlocksOwnEdgesBuild() throws Exception {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 12; round++) {
      int nodes = 1 + rnd.nextInt(3000);
      int m = rnd.nextInt(40_000);
      boolean weighted = rnd.nextBoolean();
      long[] from = new long[m];
      long[] to = new long[m];
      float[] w = weighted ? new float[m] : null;
      for (int e = 0; e < m; e++) {
        // Skewed destinations and sources, with parallel edges.
        to[e] = rnd.nextInt(1 + rnd.nextInt(nodes));
        from[e] = rnd.nextInt(nodes);
        if (w != null) {
          w[e] = rnd.nextInt(4);
        }
      }
      // Written by two threads, in blocks of random sizes, into a store sized too small (it grows).
      SharedEdges store = new SharedEdges(nodes, weighted, m / 3);
      Outside outside = new Outside();
      Thread[] writers = new Thread[2];
      AtomicLong failures = new AtomicLong();
      for (int t = 0; t < 2; t++) {
        int part = t;
        writers[t] = new Thread(() -> {
          try {
            SharedEdges.Writer wr = store.writer(outside);
            int lo = part == 0 ? 0 : m / 2;
            int hi = part == 0 ? m / 2 : m;
            SplittableRandom r = new SplittableRandom(part);
            for (int at = lo; at < hi; ) {
              int c = Math.min(hi - at, 1 + r.nextInt(9000));
              wr.edges(java.util.Arrays.copyOfRange(from, at, at + c), java.util.Arrays.copyOfRange(to, at, at + c),
                  w == null ? null : java.util.Arrays.copyOfRange(w, at, at + c), c, at);
              at += c;
            }
            wr.flush();
          } catch (RuntimeException e) {
            failures.incrementAndGet();
          }
        });
        writers[t].start();
      }
      for (Thread t : writers) {
        t.join();
      }
      assertEquals(0, failures.get());
      assertEquals(m, store.count());
      Csr all = store.build();
      int parts = 1 + rnd.nextInt(4);
      for (int p = 0; p < parts; p++) {
        int lo = (int) ((long) nodes * p / parts);
        int hi = (int) ((long) nodes * (p + 1) / parts);
        long[] ids = new long[hi - lo];
        for (int i = 0; i < ids.length; i++) {
          ids[i] = lo + i;
        }
        int[] dst = new int[m];
        int[] src = new int[m];
        float[] ws = weighted ? new float[m] : null;
        int k = 0;
        for (int e = 0; e < m; e++) {
          if (to[e] >= lo && to[e] < hi) {
            dst[k] = (int) (to[e] - lo);
            src[k] = (int) from[e];
            if (ws != null) {
              ws[k] = w[e];
            }
            k++;
          }
        }
        AtomicLong slotsOwn = new AtomicLong(-1);
        AtomicLong slotsSliced = new AtomicLong(-1);
        GraphBlock own = PartitionBlockBuilder.buildConsuming(ids, PartitionBlockBuilder.indexOf(ids), dst, src, ws,
            k, slotsOwn::set);
        GraphBlock sliced = PartitionBlockBuilder.sliceRows(all, ids, slotsSliced::set);
        String where = "round " + round + ", partition " + p + " of " + parts;
        assertArrayEquals(own.haloIds(), sliced.haloIds(), where);
        assertArrayEquals(own.inEdges().rowPtr(), sliced.inEdges().rowPtr(), where);
        // The built arrays may be longer than their edges (a consumed input's); the slice's are exact.
        assertEquals(k, sliced.inEdges().numEdges(), where);
        assertArrayEquals(java.util.Arrays.copyOf(own.inEdges().colIdx(), k), sliced.inEdges().colIdx(), where);
        assertArrayEquals(own.inEdges().weights() == null ? null : java.util.Arrays.copyOf(own.inEdges().weights(), k),
            sliced.inEdges().weights(), where);
        assertEquals(own.numSlots(), sliced.numSlots(), where);
        assertEquals(sliced.numSlots(), slotsSliced.get(), where);
      }
    }
  }

  @Test
  void rowsOutsideTheIdsGoToTheFallbackSink() {
    SharedEdges store = new SharedEdges(10, false, 4);
    Outside outside = new Outside();
    SharedEdges.Writer wr = store.writer(outside);
    wr.edges(new long[] {1, 10, 3, -1}, new long[] {2, 4, 99, 5}, null, 4, 100);
    wr.edge(4, 5, 1f, 104);
    wr.edge(4, 12, 1f, 105);
    wr.flush();
    assertEquals(2, store.count());
    assertEquals(4, outside.rows.size());
    assertArrayEquals(new long[] {10, 4, 101}, outside.rows.get(0));
    assertArrayEquals(new long[] {3, 99, 102}, outside.rows.get(1));
    assertArrayEquals(new long[] {-1, 5, 103}, outside.rows.get(2));
    assertArrayEquals(new long[] {4, 12, 105}, outside.rows.get(3));
    Csr all = store.build();
    assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2}, all.rowPtr());
    assertArrayEquals(new int[] {1, 4}, java.util.Arrays.copyOf(all.colIdx(), 2));
    assertThrows(IllegalStateException.class, store::build);
    // Node ids that are not the run the slice's rows are.
    assertThrows(IllegalArgumentException.class,
        () -> PartitionBlockBuilder.sliceRows(all, new long[] {3, 5}, s -> { }));
  }
}
