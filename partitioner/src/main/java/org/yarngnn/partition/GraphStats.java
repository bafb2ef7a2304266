package org.yarngnn.partition;

/** Figures of one graph construction, printed by the CLI and kept with partitioned graphs. */
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
