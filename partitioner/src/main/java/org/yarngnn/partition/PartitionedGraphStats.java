package org.yarngnn.partition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Figures of a graph built as P partitions: each partition's {@link PartitionStats}, the edge balance and the
 * build's times (a graph built whole has {@link GraphStats}).
 */
public record PartitionedGraphStats(Ownership ownership, List<PartitionStats> partitions, double readSeconds,
    double buildSeconds) {

  public long nodes() {
    return partitions.stream().mapToLong(PartitionStats::nodes).sum();
  }

  public long edges() {
    return partitions.stream().mapToLong(PartitionStats::edges).sum();
  }

  public long csrBytes() {
    return partitions.stream().mapToLong(PartitionStats::csrBytes).sum();
  }

  public double bytesPerEdge() {
    long e = edges();
    return e == 0 ? 0 : (double) csrBytes() / e;
  }

  /** Max over mean of the partitions' edge counts: 1 is perfect balance. */
  public double edgeBalance() {
    long max = partitions.stream().mapToLong(PartitionStats::edges).max().orElse(0);
    double mean = (double) edges() / Math.max(1, partitions.size());
    return mean == 0 ? 1 : max / mean;
  }

  /** One line for the whole build, then one per partition. */
  public String summary() {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "%d partitions (%s): %,d nodes, %,d edges, edge balance max/mean %.3f, CSR %.2f bytes/edge, "
            + "read %.2fs, build %.2fs", partitions.size(), ownership, nodes(), edges(), edgeBalance(),
        bytesPerEdge(), readSeconds, buildSeconds));
    for (PartitionStats p : partitions) {
      sb.append(String.format(Locale.ROOT, "%n  partition %d: %,d nodes, %,d edges, halo %,d nodes per layer, "
          + "max in-degree %,d", p.partition(), p.nodes(), p.edges(), p.haloNodes(), p.maxInDegree()));
    }
    return sb.toString();
  }

  /** The stats as JSON-ready maps (for the manifest and stats file). */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ownership", ownership.toString());
    m.put("nodes", nodes());
    m.put("edges", edges());
    m.put("edge_balance", edgeBalance());
    m.put("csr_bytes_per_edge", bytesPerEdge());
    m.put("read_seconds", readSeconds);
    m.put("build_seconds", buildSeconds);
    List<Object> parts = new ArrayList<>();
    for (PartitionStats p : partitions) {
      Map<String, Object> q = new LinkedHashMap<>();
      q.put("partition", p.partition());
      q.put("nodes", p.nodes());
      q.put("edges", p.edges());
      q.put("halo_nodes", p.haloNodes());
      q.put("max_in_degree", p.maxInDegree());
      q.put("csr_bytes", p.csrBytes());
      parts.add(q);
    }
    m.put("partitions", parts);
    return m;
  }
}
