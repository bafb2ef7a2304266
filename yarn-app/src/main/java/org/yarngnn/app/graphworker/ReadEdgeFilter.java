package org.yarngnn.app.graphworker;

import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.partition.Ownership;

/**
 * Sees every edge row a graph worker reads before its ownership filter does: link prediction's held-out edges are
 * taken out here, so they never reach the message graph. {@link #wrap} is called once per reading thread (the sink
 * it returns is that thread's alone).
 */
public interface ReadEdgeFilter {
  /** A sink that passes the rows that carry messages on to {@code next}; {@code ownership}: the job's. */
  EdgeSink wrap(EdgeSink next, Ownership ownership);
}
