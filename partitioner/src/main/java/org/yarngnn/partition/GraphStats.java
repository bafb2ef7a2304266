package org.yarngnn.partition;

/**
 * Figures of a graph built whole, in one JVM ({@link LocalGraph}); one of the stats family named by what each
 * describes, with {@link PartitionStats} (one partition) and {@link PartitionedGraphStats} (a graph built as P
 * partitions).
 */
public record GraphStats(long nodes, long edges, long isolatedNodes, int maxInDegree, long csrBytes,
    double readSeconds, double buildSeconds) {

  public double bytesPerEdge() {
    return edges == 0 ? 0 : (double) csrBytes / edges;
  }

  public String summary() {
    return String.format("%,d nodes, %,d edges (max in-degree %,d, %,d isolated), CSR %.1f bytes/edge, "
        + "read %.2fs, build %.2fs", nodes, edges, maxInDegree, isolatedNodes, bytesPerEdge(), readSeconds,
        buildSeconds);
  }
}
