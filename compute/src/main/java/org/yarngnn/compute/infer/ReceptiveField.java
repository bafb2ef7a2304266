package org.yarngnn.compute.infer;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.sample.NeighbourSampler;

/**
 * The sampled receptive field of a set of target rows, layer by layer, for targeted inference: what the targets'
 * embeddings need and nothing more. For an L-layer model, layer L-1 aggregates the targets; layer k aggregates
 * {@link #outRows(int) outRows(k)} over {@link #edges(int) edges(k)} (those rows' in-edges, sampled exactly as the
 * all-node job samples them: {@link NeighbourSampler#sampleRows}) and so needs the messages of
 * {@link #inRows(int) inRows(k)}: its own rows (every layer uses a node's own row: gcn's self-loop, sage's self
 * term, gat's self attention) and their sampled sources. Those are the rows layer k-1 must output:
 * {@code outRows(k-1) = inRows(k)}. Each row of each layer is still computed once.
 *
 * <p>Degrees and everything else row-local come from the whole graph: only which destination rows are computed
 * changes, so a target's row equals the all-node job's. This class is the single-block form (no halo: every
 * source is a local row); distributed workers build the same sets with {@link #sampledEdges} and
 * {@link #localSources} per layer, adding the rows peers ask for.
 */
public final class ReceptiveField {
  private final int[][] outRows;
  private final int[][] inRows;
  private final GraphBlock[] edges;

  private ReceptiveField(int[][] outRows, int[][] inRows, GraphBlock[] edges) {
    this.outRows = outRows;
    this.inRows = inRows;
    this.edges = edges;
  }

  /**
   * The receptive field in {@code g} (a whole graph, no halo) of the rows {@code targets} (any order, duplicates
   * allowed) for {@code engine}'s layers and sampling seed.
   */
  public static ReceptiveField of(LayerwiseInference engine, GraphBlock g, int[] targets) {
    if (g.haloIds().length != 0) {
      throw new IllegalArgumentException("a single-block receptive field needs the whole graph (no halo)");
    }
    int depth = engine.layers().size();
    int[][] out = new int[depth][];
    int[][] in = new int[depth][];
    GraphBlock[] edges = new GraphBlock[depth];
    int[] rows = distinctSorted(targets);
    for (int k = depth - 1; k >= 0; k--) {
      out[k] = rows;
      edges[k] = sampledEdges(engine, k, g, rows);
      in[k] = localSources(edges[k], rows);
      rows = in[k];
    }
    return new ReceptiveField(out, in, edges);
  }

  /** Layer {@code k}'s sampled in-edges of only {@code rows} (ascending, distinct); other rows have none. */
  public static GraphBlock sampledEdges(LayerwiseInference engine, int k, GraphBlock g, int[] rows) {
    return NeighbourSampler.sampleRows(g, engine.layers().get(k).spec().fanout(), engine.seed(), k, rows);
  }

  /**
   * {@code rows} (ascending, distinct) and the local sources (slots below the node count) of their in-edges in
   * {@code edges}, ascending and distinct: the own rows whose messages a layer over those rows reads.
   */
  public static int[] localSources(GraphBlock edges, int[] rows) {
    int n = edges.numNodes();
    Csr c = edges.inEdges();
    boolean[] need = new boolean[n];
    int count = 0;
    for (int r : rows) {
      if (!need[r]) {
        need[r] = true;
        count++;
      }
      for (int e = c.rowPtr()[r]; e < c.rowPtr()[r + 1]; e++) {
        int s = c.colIdx()[e];
        if (s < n && !need[s]) {
          need[s] = true;
          count++;
        }
      }
    }
    return rowsOf(need, count);
  }

  /** The union of ascending, distinct row lists, ascending and distinct, for rows below {@code n}. */
  public static int[] union(int n, int[]... lists) {
    boolean[] mark = new boolean[n];
    int count = 0;
    for (int[] list : lists) {
      for (int r : list) {
        if (!mark[r]) {
          mark[r] = true;
          count++;
        }
      }
    }
    return rowsOf(mark, count);
  }

  /** {@code rows} sorted with duplicates removed. */
  public static int[] distinctSorted(int[] rows) {
    int[] s = rows.clone();
    Arrays.sort(s);
    int w = 0;
    for (int i = 0; i < s.length; i++) {
      if (i == 0 || s[i] != s[i - 1]) {
        s[w++] = s[i];
      }
    }
    return Arrays.copyOf(s, w);
  }

  private static int[] rowsOf(boolean[] mark, int count) {
    int[] out = new int[count];
    int w = 0;
    for (int i = 0; i < mark.length; i++) {
      if (mark[i]) {
        out[w++] = i;
      }
    }
    return out;
  }

  public int layers() {
    return outRows.length;
  }

  /** The rows layer {@code k} aggregates (outputs), ascending. */
  public int[] outRows(int k) {
    return outRows[k];
  }

  /** The rows whose layer-{@code k} messages (and self rows) are computed, ascending; a superset of outRows(k). */
  public int[] inRows(int k) {
    return inRows[k];
  }

  /** Layer {@code k}'s sampled in-edges of {@link #outRows}. */
  public GraphBlock edges(int k) {
    return edges[k];
  }

  /** Rows computed over all layers (transforms plus aggregations): the work next to the all-node job's. */
  public long rowsComputed() {
    long total = 0;
    for (int k = 0; k < outRows.length; k++) {
      total += outRows[k].length + inRows[k].length;
    }
    return total;
  }
}
