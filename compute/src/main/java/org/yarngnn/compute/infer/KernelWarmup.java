package org.yarngnn.compute.infer;

import java.util.List;
import java.util.SplittableRandom;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Runs a model's layers on a small random graph of their own, on the calling thread, so that the JIT has
 * compiled their kernels before the first real layer. Until C2 compiles them, Vector API kernels run as plain
 * Java objects, tens of times slower: in a one-shot job that costs the first layer a few tenths of a second (more
 * on a loaded machine), while the reading phases before it leave cores idle. The warm-up runs the real layers
 * (their weights, widths and code paths: transform, the fused linear part, aggregation), so the profiles the JIT
 * compiles from are the job's; it touches nothing but its own arrays, so results are unchanged.
 */
public final class KernelWarmup {
  /** Nodes and in-edges per node of the warm-up graph: enough rows per call for the register-blocked kernels. */
  private static final int NODES = 512;
  private static final int DEGREE = 12;
  /**
   * Rows through each layer's kernels in all, past the JIT's compile thresholds. Not more: until C2 has them the
   * Vector API kernels run tens of times slower, and the warm-up shares the cores with the reading phases it
   * overlaps. Measured on the 1M-node bench graph, sage on 2 workers, two rotations of 3 runs each: 20,000 rows
   * 5.69-6.40 and 6.59-7.37 s, 5,000 rows 5.33-5.85 and 5.66-6.38 s (8,000 rows 5.83-7.20 s in the second; none
   * 5.69-6.18 s in the first, its first layer 1.28-1.38 s against 0.51-0.65 s); gcn on 1 worker, 4 ABBA pairs,
   * 5,000 against 20,000 rows: median 6.30 against 6.44 s.
   */
  private static final int ROWS = 5_000;

  private KernelWarmup() {}

  /** Warms up {@code layers}' kernels, for at most {@code maxNanos} (it stops early once done). */
  public static void run(List<Layer> layers, long maxNanos) {
    long deadline = System.nanoTime() + maxNanos;
    GraphBlock g = graph();
    SplittableRandom r = new SplittableRandom(1);
    int n = layers.size();
    DenseMatrix[] inputs = new DenseMatrix[n];
    // Each layer's matrices once, rewritten every round: the warm-up runs while the job reads its tables, and
    // fresh arrays each round would only add garbage (fresh young-generation memory) to the Vector API's own.
    DenseMatrix[] msgs = new DenseMatrix[n];
    DenseMatrix[] selves = new DenseMatrix[n];
    DenseMatrix[] outs = new DenseMatrix[n];
    for (int k = 0; k < n; k++) {
      Layer layer = layers.get(k);
      inputs[k] = random(r, NODES, layer.inWidth());
      msgs[k] = new DenseMatrix(NODES, layer.messageWidth());
      selves[k] = layer.selfWidth() > 0 ? new DenseMatrix(NODES, layer.selfWidth()) : null;
      outs[k] = new DenseMatrix(NODES, layer.outWidth());
    }
    DenseMatrix lin = new DenseMatrix(NODES, layers.get(0).linearWidth());
    for (int rows = 0; rows < ROWS && System.nanoTime() < deadline; rows += NODES) {
      for (int k = 0; k < n; k++) {
        Layer layer = layers.get(k);
        if (k == 0) {
          // The first layer runs either way, fused with reading or not: both paths, the fused one first.
          layer.linear(inputs[k], 0, NODES, lin);
          layer.completeTransform(g, lin, 0, NODES, msgs[k], selves[k]);
        }
        layer.transform(g, inputs[k], 0, NODES, msgs[k], selves[k]);
        layer.aggregate(g, msgs[k], selves[k], 0, NODES, outs[k]);
      }
    }
  }

  /** Random in-edges, a self-loop now and then (GCN skips them), no halo. */
  private static GraphBlock graph() {
    SplittableRandom r = new SplittableRandom(2);
    int[] rowPtr = new int[NODES + 1];
    int[] col = new int[NODES * DEGREE];
    for (int i = 0; i < NODES; i++) {
      for (int e = 0; e < DEGREE; e++) {
        col[i * DEGREE + e] = e == 0 && i % 7 == 0 ? i : r.nextInt(NODES);
      }
      rowPtr[i + 1] = (i + 1) * DEGREE;
    }
    long[] ids = new long[NODES];
    for (int i = 0; i < NODES; i++) {
      ids[i] = i;
    }
    return new GraphBlock(ids, new long[0], new Csr(NODES, NODES, rowPtr, col, null));
  }

  private static DenseMatrix random(SplittableRandom r, int rows, int cols) {
    DenseMatrix m = new DenseMatrix(rows, cols);
    float[] d = m.data();
    for (int i = 0; i < d.length; i++) {
      d[i] = (float) (r.nextDouble() - 0.5);
    }
    return m;
  }
}
