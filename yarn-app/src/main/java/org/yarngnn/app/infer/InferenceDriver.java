package org.yarngnn.app.infer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yarngnn.app.graphworker.ConstructionRounds;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.graphworker.GraphWorkerCodec;
import org.yarngnn.app.runtime.DriverSession;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.ReplaceableWorkers;
import org.yarngnn.app.runtime.WorkerLauncher;
import org.yarngnn.app.runtime.WorkerRecovery;
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
    try (DriverSession s = new DriverSession(GraphWorkerCodec.CODEC, transport, launcher,
        spec.get(GraphJobOptions.ROUND_TIMEOUT),
        progress, log)) {
      session = s;
      int p = spec.getInt(GraphJobOptions.WORKERS);
      if (continueAt >= 0 && adoption != null) {
        s.start(p, adoption);
      } else {
        s.start(p);
      }
      if (launcher instanceof ReplaceableWorkers r && spec.recovery().replacesWorkers()) {
        recovery = new WorkerRecovery(s, r, spec.recovery().maxWorkerFailures());
        resume = new LayerResume(layerCount, counts -> ConstructionRounds.ownership(spec.get(GraphJobOptions.OWNERSHIP),
            p, counts),
            spec.recovery().writesCheckpoints(), spec.get(GraphJobOptions.GRAPH) == null);
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
      } else if (spec.get(GraphJobOptions.GRAPH) != null) {
        // A partitioned graph: each worker loads its own partition's files; nothing is routed.
        sizes = round(new PhaseCommand(Phase.LOAD_PARTITION), 0.35f);
        ownershipText = "from " + spec.get(GraphJobOptions.GRAPH);
      } else {
        Ownership own = route(p);
        ownershipText = own.toString();
        sizes = round(new PhaseCommand(Phase.BUILD_EDGES), 0.35f);
      }
      ConstructionRounds.PartitionSummary sum = ConstructionRounds.PartitionSummary.of(sizes);
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
    return ConstructionRounds.route(spec.get(GraphJobOptions.OWNERSHIP), p, this::round);
  }

  private List<PhaseResult> round(PhaseCommand command, float after) throws Exception {
    String label = command.phase().label()
        + (command.phase() == Phase.LAYER ? " " + (command.layer() + 1) + "/" + layers : "");
    if (recovery != null) {
      resume.sent(command);
      return recovery.round(command, after, label, ConstructionRounds::expected, resume);
    }
    return session.round(command, after, label, ConstructionRounds::expected);
  }

  /** Graph workers lost and replaced during the job (0 when it does not replace them). */
  public int replacedWorkers() {
    return recovery == null ? 0 : recovery.failures();
  }
}
