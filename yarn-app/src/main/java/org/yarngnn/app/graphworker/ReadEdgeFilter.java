package org.yarngnn.app.graphworker;

import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.partition.Ownership;

/**
 * Sees every edge row a graph worker reads before its ownership filter does (or, from a partitioned graph, every
 * in-edge of its partition): link prediction's held-out edges are taken out here, so they never reach the message
 * graph. {@link #wrap} is called once per reading thread (the sink
 * it returns is that thread's alone).
 */
public interface ReadEdgeFilter {
  /**
   * A sink that passes the rows that carry messages on to {@code next}; {@code ownership}: the job's. A row it
   * holds back gives each endpoint this worker owns to {@code endpoints}, so that the endpoint is still a node: checked
   * against the nodes table (its finding names the row) or, under --missing-features zero, added without a row.
   */
  EdgeSink wrap(EdgeSink next, Ownership ownership, Endpoints endpoints);

  /**
   * A partition of a pre-partitioned graph ({@code --graph}), whose in-edges are no table rows: the same filter
   * applied to them, the partition rebuilt of the edges that carry messages.
   */
  WorkerPartition filterPartition(WorkerPartition p);

  /** Where a held-back row's owned endpoints go. */
  @FunctionalInterface
  interface Endpoints {
    /** Node {@code id}, this worker's, in {@code column} (0 source, 1 destination) of table row {@code row}. */
    void endpoint(long id, int column, long row);
  }
}
