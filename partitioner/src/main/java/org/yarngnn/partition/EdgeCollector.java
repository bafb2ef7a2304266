package org.yarngnn.partition;

import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.InputException;

/**
 * Turns edge rows into global node indices (table order of the nodes), refusing endpoints without a node row or,
 * under --missing-features zero, adding them; subclasses decide where each resolved edge goes.
 */
abstract class EdgeCollector implements EdgeSink {
  private final NodeIndex index;
  private final boolean undirected;
  private final NodeRows addMissing;
  private String file;
  /** Resolved batch (twice the rows when undirected), reused from batch to batch. */
  private int[] batchDst = new int[0];
  private int[] batchSrc = new int[0];
  private float[] batchWeight = new float[0];

  EdgeCollector(NodeIndex index, boolean undirected, NodeRows addMissing) {
    this.index = index;
    this.undirected = undirected;
    this.addMissing = addMissing;
  }

  /** One resolved edge from global index {@code s} to {@code d}. */
  abstract void accept(int d, int s, float weight);

  /**
   * Resolved edges {@code s[i] -> d[i]} with weight {@code w[i]} (all 1 when {@code w} is null) for {@code i < n};
   * the arrays are scratch space the callee may overwrite. Override to take batches without a call per edge.
   */
  void acceptAll(int[] d, int[] s, float[] w, int n) {
    for (int i = 0; i < n; i++) {
      accept(d[i], s[i], w == null ? 1f : w[i]);
    }
  }

  @Override
  public void beginFile(String file) {
    this.file = file;
  }

  @Override
  public void edge(long src, long dst, float weight, long row) {
    int s = resolve(src, row, "src");
    int d = resolve(dst, row, "dst");
    accept(d, s, weight);
    if (undirected && s != d) {
      accept(s, d, weight);
    }
  }

  /** A batch of rows resolved in one loop, in row order (an undirected edge's reverse right after it). */
  @Override
  public void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
    int cap = undirected ? 2 * count : count;
    if (batchDst.length < cap) {
      batchDst = new int[cap];
      batchSrc = new int[cap];
      batchWeight = new float[cap];
    }
    int[] bd = batchDst;
    int[] bs = batchSrc;
    float[] bw = weight == null ? null : batchWeight;
    int k = 0;
    for (int i = 0; i < count; i++) {
      int s = index.get(src[i]);
      if (s < 0) {
        s = resolve(src[i], firstRow + i, "src");
      }
      int d = index.get(dst[i]);
      if (d < 0) {
        d = resolve(dst[i], firstRow + i, "dst");
      }
      bd[k] = d;
      bs[k] = s;
      if (bw != null) {
        bw[k] = weight[i];
      }
      k++;
      if (undirected && s != d) {
        bd[k] = s;
        bs[k] = d;
        if (bw != null) {
          bw[k] = weight[i];
        }
        k++;
      }
    }
    acceptAll(bd, bs, bw, k);
  }

  private int resolve(long id, long row, String column) {
    int i = index.get(id);
    if (i >= 0) {
      return i;
    }
    if (addMissing != null) {
      return addMissing.addMissing(id);
    }
    throw InputException.at(file, row, danglingMessage(column, id));
  }

  static String danglingMessage(String column, long id) {
    return column + " " + id
        + " has no row in the nodes table (use --missing-features zero to give it zero features)";
  }
}
