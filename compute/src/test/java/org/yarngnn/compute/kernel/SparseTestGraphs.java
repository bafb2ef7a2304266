package org.yarngnn.compute.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Random graphs for the sparse kernel, layer and sampler tests: isolated nodes, empty rows, parallel edges,
 * input self-loops, optional weights and halo slots, with each row's sources ordered by global id as
 * {@link GraphBlock} promises.
 */
public final class SparseTestGraphs {
  private SparseTestGraphs() {}

  /** One edge: source slot, destination row, weight. */
  public record Edge(int src, int dst, float weight) {}

  /**
   * A block of {@code nodes} local nodes and {@code halo} halo slots with about {@code edges} random in-edges
   * (sources over all slots), some parallel edges and self-loops, a third of the nodes isolated.
   */
  public static GraphBlock random(SplittableRandom r, int nodes, int halo, int edges, boolean weighted) {
    long[] ids = distinctIds(r, nodes + halo);
    long[] nodeIds = Arrays.copyOf(ids, nodes);
    long[] haloIds = Arrays.copyOfRange(ids, nodes, nodes + halo);
    List<Edge> list = new ArrayList<>();
    int slots = nodes + halo;
    int isolatedFrom = nodes - nodes / 3; // the last third gets no in-edges (may still send)
    for (int k = 0; k < edges && isolatedFrom > 0; k++) {
      int dst = r.nextInt(isolatedFrom);
      int src = r.nextInt(5) == 0 ? dst : r.nextInt(slots); // self-loops in the input
      float w = weighted ? 0.25f + (float) r.nextDouble() * 2 : 1f;
      list.add(new Edge(src, dst, w));
      if (r.nextInt(6) == 0) {
        list.add(new Edge(src, dst, weighted ? 0.5f + (float) r.nextDouble() : 1f)); // a parallel edge
      }
    }
    return build(nodeIds, haloIds, list, weighted);
  }

  /** The block of these edges, rows ordered by destination, then by global source id. */
  public static GraphBlock build(long[] nodeIds, long[] haloIds, List<Edge> edges, boolean weighted) {
    int n = nodeIds.length;
    long[] slotIds = new long[n + haloIds.length];
    System.arraycopy(nodeIds, 0, slotIds, 0, n);
    System.arraycopy(haloIds, 0, slotIds, n, haloIds.length);
    List<Edge> sorted = new ArrayList<>(edges);
    sorted.sort(Comparator.<Edge>comparingInt(Edge::dst).thenComparingLong(e -> slotIds[e.src()]));
    int[] rowPtr = new int[n + 1];
    int[] col = new int[sorted.size()];
    float[] w = weighted ? new float[sorted.size()] : null;
    for (int k = 0; k < sorted.size(); k++) {
      Edge e = sorted.get(k);
      rowPtr[e.dst() + 1]++;
      col[k] = e.src();
      if (w != null) {
        w[k] = e.weight();
      }
    }
    for (int i = 0; i < n; i++) {
      rowPtr[i + 1] += rowPtr[i];
    }
    return new GraphBlock(nodeIds, haloIds, new Csr(n, slotIds.length, rowPtr, col, w));
  }

  public static long[] distinctIds(SplittableRandom r, int count) {
    long[] ids = r.longs(count * 2L + 8, -1_000_000_000L, 1_000_000_000L).distinct().limit(count).toArray();
    if (ids.length != count) {
      throw new IllegalStateException("not enough distinct ids");
    }
    return ids;
  }

  public static DenseMatrix randomMatrix(SplittableRandom r, int rows, int cols) {
    DenseMatrix m = new DenseMatrix(rows, cols);
    for (int i = 0; i < rows * cols; i++) {
      m.data()[i] = (float) (r.nextDouble() * 2 - 1);
    }
    return m;
  }

  public static float[] randomVector(SplittableRandom r, int n) {
    return randomMatrix(r, 1, n).data();
  }

  /** Asserts every entry of {@code actual} is within {@code tol * max(1, |expected|)} of {@code expected}. */
  public static void assertClose(double[][] expected, DenseMatrix actual, double tol, String what) {
    if (expected.length > actual.rows()) {
      throw new AssertionError(what + ": " + actual + " has fewer than " + expected.length + " rows");
    }
    for (int i = 0; i < expected.length; i++) {
      if (expected[i].length != actual.cols()) {
        throw new AssertionError(what + ": width " + actual.cols() + ", expected " + expected[i].length);
      }
      for (int c = 0; c < expected[i].length; c++) {
        double e = expected[i][c];
        double a = actual.get(i, c);
        if (!(Math.abs(a - e) <= tol * Math.max(1, Math.abs(e)))) {
          throw new AssertionError(what + ": (" + i + "," + c + ") expected " + e + " got " + a);
        }
      }
    }
  }
}
