package org.yarngnn.app.graphworker;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.partition.NodeIndex;
import org.yarngnn.partition.Ownership;

/**
 * What construction hands the layers: the worker's partition (its nodes' in-edges, remote sources as halo slots),
 * the index of its node ids (to answer peers' halo requests), the ownership every worker routes by, and the first
 * layer's input rows ({@code fused}: already the first layer's linear products), and for training the nodes'
 * labels and splits (null for inference, or when the nodes table has none).
 */
public record WorkerPartition(GraphBlock graph, NodeIndex index, Ownership ownership, DenseMatrix rows,
    boolean fused, int[] labels, byte[] splits) {
  public WorkerPartition withoutRows() {
    return new WorkerPartition(graph, index, ownership, null, fused, labels, splits);
  }
}
