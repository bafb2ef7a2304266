package org.yarngnn.compute.infer;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * What happens between a layer's transform and its aggregation: the message rows of halo slots (sources owned by
 * peers) are filled in, and every own row is aggregated exactly once through {@link Aggregation}, as soon as its
 * inputs are complete. In one JVM there is no halo and everything aggregates at once ({@link #NONE}); distributed
 * workers stream rows from their peers and aggregate as chunks arrive.
 */
@FunctionalInterface
public interface HaloExchangeHook {
  /** Aggregates own destination rows of the current layer. Thread-safe for disjoint rows. */
  interface Aggregation {
    /** Aggregates rows {@code [from, to)}, in parallel. */
    void range(int from, int to);

    /** Aggregates the given rows (ascending, distinct), contiguous runs at a time, in parallel. */
    void rows(int[] sorted);
  }

  /** Layer {@code k}: fill the halo rows of {@code msg} and aggregate every row of {@code edges}' nodes once. */
  void exchange(int k, GraphBlock edges, DenseMatrix msg, Aggregation aggregation) throws Exception;

  /** No halo: every row aggregates at once. */
  HaloExchangeHook NONE = (k, edges, msg, aggregation) -> aggregation.range(0, edges.numNodes());
}
