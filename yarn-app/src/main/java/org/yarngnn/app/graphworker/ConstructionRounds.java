package org.yarngnn.app.graphworker;

import java.util.List;
import java.util.Locale;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.partition.Ownership;

/**
 * The driver's side of graph construction, the same for every role: the node rounds that choose and apply the
 * ownership, which answers the graph phases expect, and the partition lines a job prints once its graph is built.
 */
public final class ConstructionRounds {
  private ConstructionRounds() {}

  /** A round of a driver: the command and the progress fraction once it is done. */
  @FunctionalInterface
  public interface Rounds {
    List<PhaseResult> round(PhaseCommand command, float after) throws Exception;
  }

  /**
   * READ_NODES, then the ownership chosen ({@code ownershipKind}, an {@link Ownership.Kind} name) from the ids
   * every worker read, then ROUTE_NODES under it.
   */
  public static Ownership route(Ownership.Kind ownershipKind, int p, Rounds rounds) throws Exception {
    Ownership own = ownership(ownershipKind, p, rounds.round(new PhaseCommand(Phase.READ_NODES), 0.10f));
    rounds.round(new PhaseCommand(Phase.ROUTE_NODES, 0, own), 0.20f);
    return own;
  }

  /**
   * The ownership chosen from the ids the workers read (their READ_NODES answers): a function of the node tables
   * alone, so a read-nodes run again after a lost worker comes to the same one.
   */
  public static Ownership ownership(Ownership.Kind ownershipKind, int p, List<PhaseResult> counts) {
    long nodes = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (PhaseResult r : counts) {
      PhaseResult.NodeCounts c = (PhaseResult.NodeCounts) r;
      nodes += c.count();
      if (c.count() > 0) {
        min = Math.min(min, c.minId());
        max = Math.max(max, c.maxId());
      }
    }
    return Ownership.choose(ownershipKind, p, nodes, min, max);
  }

  /** Whether {@code r} is the kind of result the graph phases of {@code c} answer with. */
  public static boolean expected(PhaseCommand c, PhaseResult r) {
    switch (c.phase()) {
      case READ_NODES: return r instanceof PhaseResult.NodeCounts;
      case BUILD_EDGES:
      case LOAD_PARTITION: return r instanceof PhaseResult.PartitionSizes;
      case EXIT: return r instanceof PhaseResult.WorkerReport;
      default: return r instanceof PhaseResult.Empty;
    }
  }

  /** The partitions' sizes, summed, and the lines the job prints about them. */
  public record PartitionSummary(long nodes, long edges, long halo, long maxEdges, List<PhaseResult> sizes) {
    public static PartitionSummary of(List<PhaseResult> sizes) {
      long nodes = 0;
      long edges = 0;
      long halo = 0;
      long maxEdges = 0;
      for (PhaseResult r : sizes) {
        PhaseResult.PartitionSizes s = (PhaseResult.PartitionSizes) r;
        nodes += s.nodes();
        edges += s.edges();
        halo += s.halo();
        maxEdges = Math.max(maxEdges, s.edges());
      }
      return new PartitionSummary(nodes, edges, halo, maxEdges, sizes);
    }

    /** The job's partition lines ({@code yarn-gnn COMMAND: ...}), each ending with a newline. */
    public String describe(String command, int p, String ownershipText) {
      StringBuilder perPartition = new StringBuilder();
      for (int w = 0; w < sizes.size(); w++) {
        PhaseResult.PartitionSizes s = (PhaseResult.PartitionSizes) sizes.get(w);
        perPartition.append(String.format(Locale.ROOT,
            "yarn-gnn %s:   partition %d: %,d nodes, %,d edges, halo %,d nodes per layer%n", command, w, s.nodes(),
            s.edges(), s.halo()));
      }
      double mean = (double) edges / Math.max(1, sizes.size());
      return String.format(Locale.ROOT, "yarn-gnn %s: %d workers, ownership %s: %,d nodes, %,d edges, %,d halo rows, "
          + "edge balance max/mean %.3f%n%s", command, p, ownershipText, nodes, edges, halo,
          mean == 0 ? 1.0 : maxEdges / mean, perPartition);
    }
  }
}
