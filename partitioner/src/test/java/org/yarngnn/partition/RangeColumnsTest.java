package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.CsrBuilder;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.infer.HaloExchangeHook;
import org.yarngnn.compute.infer.LayerwiseInference;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Blocks in range columns ({@link PartitionBlockBuilder#rowsInRangeColumns}) over one shared message matrix
 * ({@link DenseMatrix#rowsFrom}): every partition's layers, run side by side on threads that meet once all have
 * transformed and once all have aggregated, give bit for bit the rows of the whole graph's single block.
 */
class RangeColumnsTest {
  @Test
  void sharedMatrixLayersEqualTheWholeGraphs() throws Exception {
    SplittableRandom rnd = new SplittableRandom(5);
    List<ModelSpec> specs = List.of(
        new ModelSpec("none", List.of(LayerSpec.gcn(12, 16, Activation.RELU, true),
            LayerSpec.gcn(16, 5, Activation.NONE, true)), "none", false),
        new ModelSpec("none", List.of(LayerSpec.sage(12, 8, Activation.RELU, true, 3),
            LayerSpec.sage(8, 8, Activation.NONE, true, -1)), "none", false),
        new ModelSpec("none", List.of(LayerSpec.gat(12, 4, 3, true, 0.2f, Activation.ELU, true),
            LayerSpec.gat(12, 5, 2, false, 0.1f, Activation.NONE, true)), "none", false));
    for (int round = 0; round < 9; round++) {
      int nodes = 2 + rnd.nextInt(2000);
      int m = rnd.nextInt(20_000);
      int[] dst = new int[m + 2];
      int[] src = new int[m + 2];
      for (int e = 0; e < m; e++) {
        dst[e] = rnd.nextInt(1 + rnd.nextInt(nodes));
        src[e] = rnd.nextInt(nodes);
      }
      // A range's first node fed by the node just before it (column -1) and by itself (a self-loop).
      int parts = 2 + rnd.nextInt(3);
      int cut = (int) ((long) nodes / parts);
      dst[m] = Math.max(cut, 0);
      src[m] = Math.max(cut - 1, 0);
      dst[m + 1] = cut;
      src[m + 1] = cut;
      float[] w = rnd.nextBoolean() ? randomWeights(rnd, m + 2) : null;
      Csr all = CsrBuilder.buildByKeyConsuming(nodes, nodes, dst.clone(), src.clone(), nodes, null,
          w == null ? null : w.clone(), m + 2, true);
      DenseMatrix x = new DenseMatrix(nodes, 12);
      for (int i = 0; i < x.data().length; i++) {
        x.data()[i] = (float) rnd.nextGaussian();
      }
      ModelSpec spec = specs.get(round % specs.size());
      Model model = RandomModels.random(spec, round);
      DenseMatrix whole = wholeGraph(new LayerwiseInference(model, 9), all, x);
      DenseMatrix shared = rangeColumns(model, all, x, parts);
      assertArrayEquals(whole.data(), shared.data(), spec + ", " + nodes + " nodes, " + parts + " parts");
    }
  }

  @Test
  void blocksKeepTheirRowsAndCountTheirPeers() {
    // 0 <- 3, 1 <- 0, 2 <- {1, 2, 3}, 3 <- {0, 3}; partitions [0, 2) and [2, 4).
    Csr all = CsrBuilder.buildByKeyConsuming(4, 4, new int[] {0, 1, 2, 2, 2, 3, 3}, new int[] {3, 0, 1, 2, 3, 0, 3},
        4, null, null, 7, true);
    GraphBlock first = PartitionBlockBuilder.rowsInRangeColumns(all, new long[] {0, 1});
    GraphBlock second = PartitionBlockBuilder.rowsInRangeColumns(all, new long[] {2, 3});
    assertTrue(first.rangeColumns() && second.rangeColumns());
    assertEquals(0, first.slotsBelow());
    assertEquals(2, second.slotsBelow());
    assertEquals(4, first.numSlots());
    assertEquals(2, second.numSlots());
    assertArrayEquals(new int[] {0, 1, 2}, first.inEdges().rowPtr());
    assertArrayEquals(new int[] {3, 0}, java.util.Arrays.copyOf(first.inEdges().colIdx(), 2));
    assertArrayEquals(new int[] {0, 3, 5}, second.inEdges().rowPtr());
    assertArrayEquals(new int[] {-1, 0, 1, -2, 1}, second.inEdges().colIdx());
    assertEquals(1, first.peerSources());
    assertEquals(2, second.peerSources());
    assertEquals(1L, second.slotId(-1));
    assertTrue(second.isSelfLoop(0, 1));
    assertEquals(0, second.haloIds().length);
    // A sample keeps the range columns.
    assertEquals(2, second.withEdges(second.inEdges()).slotsBelow());
    assertThrows(IllegalArgumentException.class, () -> PartitionBlockBuilder.rowsInRangeColumns(all,
        new long[] {1, 3}));
    // A partition of every node, or of none, is in range columns all the same: its peers meet it at every layer.
    assertTrue(PartitionBlockBuilder.rowsInRangeColumns(all, new long[] {0, 1, 2, 3}).rangeColumns());
    assertTrue(PartitionBlockBuilder.rowsInRangeColumns(all, new long[0]).rangeColumns());
    assertTrue(!new GraphBlock(new long[] {0, 1}, new long[0], new Csr(2, 2, new int[] {0, 0, 0}, new int[0], null))
        .rangeColumns());
  }

  @Test
  void aViewReachesRowsBeforeItsFirst() {
    float[] values = new float[12];
    for (int i = 0; i < values.length; i++) {
      values[i] = i;
    }
    DenseMatrix view = DenseMatrix.rowsFrom(values, 2, 4, 2);
    assertEquals(4, view.offset(0));
    assertEquals(0, view.offset(-2));
    assertEquals(5f, view.get(0, 1));
    assertEquals(1f, view.get(-2, 1));
    assertArrayEquals(new float[] {6f, 7f}, view.row(1));
    assertArrayEquals(java.util.Arrays.copyOfRange(values, 4, 12), view.copy().data());
    view.zero();
    assertEquals(3f, values[3]);
    assertEquals(0f, values[4]);
    assertThrows(IllegalArgumentException.class, () -> DenseMatrix.rowsFrom(values, 3, 4, 2));
    assertThrows(IllegalArgumentException.class, () -> DenseMatrix.rowsFrom(values, -1, 1, 2));
  }

  private static float[] randomWeights(SplittableRandom rnd, int m) {
    float[] w = new float[m];
    for (int e = 0; e < m; e++) {
      w[e] = rnd.nextInt(4) * 0.5f;
    }
    return w;
  }

  private static long[] ids(int from, int to) {
    long[] ids = new long[to - from];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = from + i;
    }
    return ids;
  }

  /** Every layer over the whole graph's block, in one piece. */
  private static DenseMatrix wholeGraph(LayerwiseInference engine, Csr all, DenseMatrix x) throws Exception {
    GraphBlock g = new GraphBlock(ids(0, all.numRows()), new long[0], all);
    DenseMatrix h = x.copy();
    for (int k = 0; k < engine.layers().size(); k++) {
      h = engine.layer(k, g, engine.sampled(k, g), h, false, HaloExchangeHook.NONE);
    }
    return h;
  }

  /** Every layer over {@code parts} range partitions in range columns, one thread each, one shared matrix. */
  private static DenseMatrix rangeColumns(Model model, Csr all, DenseMatrix x, int parts) throws Exception {
    int nodes = all.numRows();
    int widest = 0;
    for (var l : new LayerwiseInference(model, 9).layers()) {
      widest = Math.max(widest, l.messageWidth());
    }
    float[] matrix = new float[nodes * widest];
    CyclicBarrier barrier = new CyclicBarrier(parts);
    ExecutorService pool = Executors.newFixedThreadPool(parts);
    try {
      Future<?>[] done = new Future<?>[parts];
      DenseMatrix[] out = new DenseMatrix[parts];
      for (int p = 0; p < parts; p++) {
        int part = p;
        int lo = (int) ((long) nodes * p / parts);
        int hi = (int) ((long) nodes * (p + 1) / parts);
        done[p] = pool.submit(() -> {
          LayerwiseInference engine = new LayerwiseInference(model, 9);
          GraphBlock g = PartitionBlockBuilder.rowsInRangeColumns(all, ids(lo, hi));
          DenseMatrix h = new DenseMatrix(hi - lo, x.cols());
          System.arraycopy(x.data(), x.offset(lo), h.data(), 0, (hi - lo) * x.cols());
          for (int k = 0; k < engine.layers().size(); k++) {
            DenseMatrix view = DenseMatrix.rowsFrom(matrix, lo, nodes - lo, engine.layers().get(k).messageWidth());
            h = engine.layer(k, g, engine.sampled(k, g), h, false, (layer, edges, msg, aggregation) -> {
              barrier.await();
              aggregation.range(0, edges.numNodes());
              barrier.await();
            }, true, view);
          }
          out[part] = h;
          return null;
        });
      }
      for (Future<?> f : done) {
        f.get();
      }
      DenseMatrix joined = new DenseMatrix(nodes, out[0].cols());
      for (int p = 0, at = 0; p < parts; p++) {
        System.arraycopy(out[p].data(), 0, joined.data(), at, out[p].rows() * out[p].cols());
        at += out[p].rows() * out[p].cols();
      }
      return joined;
    } finally {
      pool.shutdownNow();
    }
  }
}
