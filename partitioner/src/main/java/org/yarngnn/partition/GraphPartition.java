package org.yarngnn.partition;

import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * One owner's share of a graph: partition {@code index} of {@code parts} under {@code ownership}; its nodes
 * (local index = row of {@code features}, in ascending id order), their in-edges with remote sources as halo
 * slots, and the optional labels and splits (null when the nodes table has none).
 */
public record GraphPartition(int index, int parts, Ownership ownership, GraphBlock block, DenseMatrix features,
    int[] labels, byte[] splits, PartitionStats stats) {}
