package org.yarngnn.partition;

import org.yarngnn.compute.graph.GraphBlock;

/**
 * Figures of one partition. {@code haloNodes} is the number of distinct remote source nodes whose rows the
 * partition needs from peers for one layer over full neighbourhoods (every such layer needs the same set; a
 * sampled layer needs a subset of it).
 */
public record PartitionStats(int partition, long nodes, long edges, long haloNodes, int maxInDegree,
    long csrBytes) {

  public static PartitionStats of(int partition, GraphBlock block) {
    int maxDeg = 0;
    for (int r = 0; r < block.numNodes(); r++) {
      maxDeg = Math.max(maxDeg, block.inEdges().degree(r));
    }
    return new PartitionStats(partition, block.numNodes(), block.inEdges().numEdges(), block.haloIds().length,
        maxDeg, block.inEdges().sizeInBytes());
  }

  public double bytesPerEdge() {
    return edges == 0 ? 0 : (double) csrBytes / edges;
  }
}
