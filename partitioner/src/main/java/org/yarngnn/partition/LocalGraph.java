package org.yarngnn.partition;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * A whole graph built in one JVM: nodes in table order (local index = row of {@code features}), their in-edge
 * CSR with rows ordered by source id, and the optional label and split columns (null when the table has none).
 */
public record LocalGraph(GraphBlock block, DenseMatrix features, int[] labels, byte[] splits,
    GraphStats stats) {}
