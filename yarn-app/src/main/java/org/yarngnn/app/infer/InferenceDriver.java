package org.yarngnn.app.infer;

import org.yarngnn.app.graphworker.GraphJobOptions;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yarngnn.app.runtime.DriverSession;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.ReplaceableWorkers;
import org.yarngnn.app.runtime.WorkerRecovery;
import org.yarngnn.app.runtime.WorkerLauncher;
import org.yarngnn.io.table.InputException;
import org.yarngnn.partition.Ownership;

/**
 * Drives a distributed inference through a {@link DriverSession} (registration, peer table, barrier rounds):
 * read nodes, route nodes, route edges and build, plan the exchange, one round per layer, write. The same code
 * runs inside the ApplicationMaster and, with {@code --local}, in the client JVM.
 */
public final class InferenceDriver {
  /** Progress of the job (0..1) with a short status, for the client's progress line or YARN's. */
  @FunctionalInterface
  public interface Progress extends DriverSession.Progress {}

  /** What the job did: per-worker figures (from their exit reports) and totals. */
  public record Result(long nodes, long edges, long halo, List<Map<String, Double>> workers, double seconds) {
    /** Rows written: with {@code --targets} the targets' (each worker's {@code targetRows}), else every node's. */
    public long written() {
      if (workers.isEmpty() || !workers.get(0).containsKey("targetRows")) {
        return nodes;
      }
      long n = 0;
      for (Map<String, Double> w : workers) {
        n += w.getOrDefault("targetRows", 0.0).longValue();
      }
      return n;
    }
  }

  private final InferOptions spec;
  private final JobTransport transport;
  private final WorkerLauncher launcher;
  private final DriverSession.Progress progress;
  private final PrintStream log;
  private DriverSession session;
  /** In a job that replaces lost workers (YARN, --max-worker-failures above 0): how its rounds survive a loss. */
  private WorkerRecovery recovery;
  /** With {@link #recovery}: where a round with a lost worker resumes. */
  private LayerResume resume;
  private int layers;
  /** Where a second ApplicationMaster attempt continues from the first one's checkpoints; -1: from the start. */
  private int continueAt = -1;
  /** With {@link #continueAt}: how the earlier attempt's surviving workers are taken over; null: none are. */
  private DriverSession.Adoption adoption;

  /** A driver listening on {@code transport}'s host, with the job's secret. */
  public InferenceDriver(InferOptions spec, JobTransport transport, WorkerLauncher launcher,
      DriverSession.Progress progress, PrintStream log) {
    this.spec = spec;
    this.transport = transport;
    this.launcher = launcher;
    this.progress = progress;
    this.log = log;
  }

  /**
   * Continues at layer {@code layer} (0-based) instead of building the graph: every worker (no job round)
   * loads its partition and layer {@code layer - 1}'s checkpointed rows as a replacement does (a
   * {@link Phase#REJOIN}), builds the plan, and the layers from {@code layer} on run. Only for a job that replaces
   * lost workers (its checkpoints); see {@link CheckpointResume}.
   */
  public InferenceDriver continueAt(int layer) {
    this.continueAt = layer;
    return this;
  }

  /**
   * With {@link #continueAt}: takes over the workers the earlier attempt left running as {@code adoption} says,
   * launching only the missing ones; every worker then goes straight to the {@link Phase#REJOIN} (an adopted
   * worker's mesh would refuse new peers at its old generation), adopted ones keeping their partition and rows.
   */
  public InferenceDriver adopting(DriverSession.Adoption adoption) {
    this.adoption = adoption;
    return this;
  }

  /**
   * Runs the job to the point where every worker wrote its part file. Bad input found by a worker throws
   * {@link InputException}; any other failure an exception with the worker's reason.
   */
  public Result run(int layerCount) throws Exception {
    long t0 = System.nanoTime();
    this.layers = layerCount;
    try (DriverSession s = new DriverSession(InferenceCodec.CODEC, transport, launcher, spec.job()
        .roundTimeoutSeconds(),
        progress, log)) {
      session = s;
      int p = spec.job().workers();
      if (continueAt >= 0 && adoption != null) {
        s.start(p, adoption);
      } else {
        s.start(p);
      }
      if (launcher instanceof ReplaceableWorkers r && spec.recovery().replacesWorkers()) {
        recovery = new WorkerRecovery(s, r, spec.recovery().maxWorkerFailures());
        resume = new LayerResume(layerCount, counts -> ownership(spec.job(), p, counts),
            spec.recovery().writesCheckpoints(), spec.job().graph() == null);
      }
      if (continueAt >= 0 && recovery == null) {
        throw new IllegalStateException("only a job that replaces lost workers continues from checkpoints");
      }
      if (continueAt < 0) {
        // A continued job's workers connect their mesh in the REJOIN below, as replacements do.
        round(new PhaseCommand(Phase.JOB), 0.02f);
      }
      List<PhaseResult> sizes;
      String ownershipText;
      if (continueAt >= 0) {
        sizes = recovery.rejoinAll(LayerResume.atLayer(continueAt), 0.40f,
            "loading the checkpoints (continuing at layer " + (continueAt + 1) + "/" + layers + ")");
        ownershipText = "as the previous attempt built it";
      } else if (spec.job().graph() != null) {
        // A partitioned graph: each worker loads its own partition's files; nothing is routed.
        sizes = round(new PhaseCommand(Phase.LOAD_PARTITION), 0.35f);
        ownershipText = "from " + spec.job().graph();
      } else {
        Ownership own = route(p);
        ownershipText = own.toString();
        sizes = round(new PhaseCommand(Phase.BUILD_EDGES), 0.35f);
      }
      PartitionSummary sum = PartitionSummary.of(sizes);
      log.print(sum.describe("infer", p, ownershipText));
      if (continueAt < 0) {
        round(new PhaseCommand(Phase.PLAN), 0.40f);
      }
      for (int k = Math.max(0, continueAt); k < layers; k++) {
        round(new PhaseCommand(Phase.LAYER, k, null), 0.40f + 0.5f * (k + 1) / layers);
      }
      round(new PhaseCommand(Phase.WRITE), 0.95f);
      List<Map<String, Double>> stats = new ArrayList<>();
      for (PhaseResult r : round(new PhaseCommand(Phase.EXIT), 1f)) {
        stats.add(((PhaseResult.WorkerReport) r).figures());
      }
      return new Result(sum.nodes(), sum.edges(), sum.halo(), stats, (System.nanoTime() - t0) / 1e9);
    }
  }

  /** Reads the node files, chooses the ownership from the ids, and routes node rows to their owners. */
  private Ownership route(int p) throws Exception {
    return route(session, spec.job(), p, this::round);
  }

  /** A round of a driver: the command and the progress fraction once it is done. */
  @FunctionalInterface
  public interface Rounds {
    List<PhaseResult> round(PhaseCommand command, float after) throws Exception;
  }

  /**
   * READ_NODES, then the ownership chosen from the ids every worker read, then ROUTE_NODES under it: the node
   * side of construction, the same for every graph job.
   */
  public static Ownership route(DriverSession session, GraphJobOptions spec, int p, Rounds rounds) throws Exception {
    Ownership own = ownership(spec, p, rounds.round(new PhaseCommand(Phase.READ_NODES), 0.10f));
    rounds.round(new PhaseCommand(Phase.ROUTE_NODES, 0, own), 0.20f);
    return own;
  }

  /**
   * The ownership chosen from the ids the workers read (their READ_NODES answers): a function of the node tables
   * alone, so a read-nodes run again after a lost worker comes to the same one.
   */
  static Ownership ownership(GraphJobOptions spec, int p, List<PhaseResult> counts) {
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
    return Ownership.choose(Ownership.Kind.byName(spec.ownership()), p, nodes, min, max);
  }

  private List<PhaseResult> round(PhaseCommand command, float after) throws Exception {
    String label = command.phase().label()
        + (command.phase() == Phase.LAYER ? " " + (command.layer() + 1) + "/" + layers : "");
    if (recovery != null) {
      resume.sent(command);
      return recovery.round(command, after, label, InferenceDriver::expected, resume);
    }
    return session.round(command, after, label, InferenceDriver::expected);
  }

  /** Graph workers lost and replaced during the job (0 when it does not replace them). */
  public int replacedWorkers() {
    return recovery == null ? 0 : recovery.failures();
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
