package org.yarngnn.compute.layer;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * One GNN layer split the way Deal computes it, so the same code serves one JVM and many workers:
 * <ol>
 *   <li>{@link #transform}: row-local, per node: the layer input row of a node becomes its <em>message</em>
 *   row (what the owners of its out-neighbours need; e.g. gcn's {@code H_j W / sqrt(d_j)}, gat's {@code Z_j}
 *   and per-head source scores) and its <em>self</em> row (kept by the owner; e.g. sage's {@code H_i W_self}).
 *   Because it is row-local it can run as feature rows are read (fusion with loading).</li>
 *   <li>{@link #aggregate}: per destination, over its in-edges: reads message rows of source slots (local
 *   nodes first, then halo rows received from peers) and the node's own self row; writes the output row,
 *   bias and activation included.</li>
 * </ol>
 * Implementations are immutable and thread-safe; callers run disjoint row ranges on many threads.
 */
public interface Layer {
  LayerSpec spec();

  int inWidth();

  int outWidth();

  /** Width of a message row (one per source slot). */
  int messageWidth();

  /** Width of a self row (one per local node); 0 when the layer keeps none. */
  int selfWidth();

  /**
   * Transforms layer-input rows of local nodes {@code [from, to)}: row r of {@code h} is node r's input; writes
   * message row r of {@code msg} and (when {@link #selfWidth()} > 0) self row r of {@code self}.
   */
  void transform(GraphBlock g, DenseMatrix h, int from, int to, DenseMatrix msg, DenseMatrix self);

  /**
   * Same as {@link #transform} for a batch of rows in arbitrary node order: row r of {@code h} ({@code r <
   * count}) is the input of local node {@code nodes[r]}; results go to rows {@code nodes[r]} of msg and self.
   */
  void transformRows(GraphBlock g, DenseMatrix h, int[] nodes, int count, DenseMatrix msg, DenseMatrix self);

  /**
   * Width of the graph-independent part of {@link #transform} ({@code H W} for each weight the layer applies to
   * its input), which fusion with feature loading computes where a feature row is read, so only these narrow
   * rows, never raw features, travel to the node's owner.
   */
  int linearWidth();

  /** Rows {@code [from, to)} of {@code lin} = the graph-independent part of transforming rows of {@code h}. */
  void linear(DenseMatrix h, int from, int to, DenseMatrix lin);

  /**
   * Finishes {@link #transform} for local nodes {@code [from, to)} from their {@link #linear} rows (row r of
   * {@code lin} is node r's): {@code complete(linear(h))} equals {@code transform(h)}.
   */
  void completeTransform(GraphBlock g, DenseMatrix lin, int from, int to, DenseMatrix msg, DenseMatrix self);

  /**
   * Output rows of local nodes {@code [from, to)}: {@code g}'s in-edges are the ones this layer uses (the full
   * graph, or its per-layer sample for a sage fanout); {@code msg} has one row per source slot of {@code g}.
   */
  void aggregate(GraphBlock g, DenseMatrix msg, DenseMatrix self, int from, int to, DenseMatrix out);

  /**
   * Whether the self rows may live in the input's array, then the output's: {@link #transform} with
   * {@code self == h} writes each self row over its input row (the row is read whole first), and
   * {@link #aggregate} with {@code self == out} adds the neighbours' part into it, with the same values as with
   * three matrices. A layer run whose output takes its input's array then needs no self matrix of its own (on 1M
   * rows of 128, 512 MB of memory touched for the first time saved).
   */
  default boolean selfOverInput() {
    return false;
  }
}
