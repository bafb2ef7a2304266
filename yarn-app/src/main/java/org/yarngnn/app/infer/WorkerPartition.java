package org.yarngnn.app.infer;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.partition.NodeIndex;
import org.yarngnn.partition.Ownership;

/**
 * What construction hands the layers: the worker's partition (its nodes' in-edges, remote sources as halo slots),
 * the index of its node ids (to answer peers' halo requests), the ownership every worker routes by, and the first
 * layer's input rows ({@code fused}: already the first layer's linear products).
 */
record WorkerPartition(GraphBlock graph, NodeIndex index, Ownership ownership, DenseMatrix rows, boolean fused) {
  WorkerPartition withoutRows() {
    return new WorkerPartition(graph, index, ownership, null, fused);
  }
}
