package org.yarngnn.app.infer;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WorkerSession;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.compute.infer.HaloExchangeHook;
import org.yarngnn.compute.infer.KernelWarmup;
import org.yarngnn.compute.infer.LayerwiseInference;
import org.yarngnn.compute.infer.RowNormalization;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.OutputCommit;

/**
 * A long-lived graph worker of inference (a YARN container, or a thread with {@code --local}): the role its
 * {@link WorkerSession} runs phase by phase. Its parts: {@link FeatureLoader} (node reading fused with the first
 * layer), {@link WorkerConstruction} (routing and the partition's CSR), {@link HaloPlan} (which rows move at each
 * layer), the layer step ({@link LayerwiseInference#layer} with a {@link HaloExchange} as its exchange hook) and
 * {@link PartWriter}. Each phase's result is a value the next phase takes; the fields below hold the latest one.
 * Every row is computed exactly once per layer across all workers.
 */
public final class GraphWorker implements WorkerSession.Role {
  public static final long PEER_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(10);
  /** Part files one worker may write in parallel; also the stride of part numbers between workers. */
  static final int PARTS_PER_WORKER = 8;
  private static final long WARM_UP_LIMIT_NANOS = TimeUnit.SECONDS.toNanos(3);
  private static final AtomicBoolean WARMED_UP = new AtomicBoolean();

  private final Configuration conf;
  private final InferOptions spec;
  private final int index;
  private final int workers;
  private final WorkerMesh mesh;
  private final WorkerFigures figures = new WorkerFigures();
  private List<Endpoint> endpoints;

  private Model model;
  private LayerwiseInference engine;
  private ConstructionPhases construction;
  private WorkerPartition partition;
  private HaloPlan plan;
  /** With {@code --targets}: the targets' receptive field (the layers compute only its rows); else null. */
  private TargetPlan targeted;
  /** The input of the next layer (after the last: the embeddings). */
  private DenseMatrix rows;
  private int layersDone;

  /**
   * A worker of the job {@code spec}; {@code model} is the job's model when this JVM already holds it
   * ({@code --local}), else null and the worker reads it once, in the job phase.
   */
  GraphWorker(Configuration conf, InferOptions spec, Model model, int index, JobTransport transport) throws Exception {
    this.conf = conf;
    this.spec = spec;
    this.model = model;
    this.index = index;
    this.workers = spec.workers();
    this.mesh = new WorkerMesh(index, workers, transport.options(InferenceCodec.CODEC, Participants.worker(index)));
  }

  /** Runs a graph worker's session with the driver; returns the process exit status. */
  public static int serve(Configuration conf, InferOptions spec, Model model, int index, String driverHost,
      int driverPort, JobTransport transport) {
    // --verbose reaches the workers as an option (job.xml on YARN), not as a key of the container's own conf.
    return new WorkerSession(index, driverHost, driverPort, transport, InferenceCodec.CODEC,
        spec.verbose() || conf.getBoolean("yarngnn.verbose", false))
        .run(() -> new GraphWorker(conf, spec, model, index, transport));
  }

  @Override
  public int peerPort() {
    return mesh.port();
  }

  @Override
  public void peers(List<Endpoint> endpoints) {
    this.endpoints = endpoints;
  }

  @Override
  public PhaseResult run(PhaseCommand c) throws Exception {
    if (spec.haltAt() != null && spec.haltAt().equals("stall:" + index + "@" + label(c.phase()))) {
      // Test hook: alive but silent, as a peer stuck in a deadlock or a GC spiral; the driver's round limit ends it.
      Thread.sleep(Long.MAX_VALUE);
    }
    if (spec.haltAt() != null && spec.haltAt().equals(index + "@" + label(c.phase()))) {
      // Test hook: in a container, die the way a killed container dies, without a word to anyone.
      if (System.getenv("CONTAINER_ID") != null) {
        Runtime.getRuntime().halt(137);
      }
      throw new IllegalStateException("worker " + index + " halted by yarngnn.test.halt-worker");
    }
    long t0 = System.nanoTime();
    PhaseResult result = construction == null ? null : construction.run(c);
    if (result == null) {
      result = PhaseResult.EMPTY;
      switch (c.phase()) {
        case JOB:
          job();
          break;
        case PLAN:
          partition = construction.take(c);
          plan = buildPlan(partition);
          rows = partition.rows();
          partition = partition.withoutRows();
          break;
        case LAYER:
          layer(c.layer(), require(plan, c));
          break;
        case WRITE:
          write(require(plan, c));
          break;
        case EXIT:
          return new PhaseResult.WorkerReport(figures.report(mesh));
        default:
          throw new IllegalStateException("graph workers do not run " + c.phase());
      }
    }
    figures.phase(label(c.phase()) + (c.phase() == Phase.LAYER ? c.layer() : ""), (System.nanoTime() - t0) / 1e9);
    return result;
  }

  /** The phase's name in progress lines, figures and the test hook. */
  static String label(Phase p) {
    return p.label();
  }

  private static <T> T require(T previous, PhaseCommand c) {
    return ConstructionPhases.require(previous, c);
  }

  private void job() throws Exception {
    if (model == null) {
      model = ModelFiles.read(conf, new Path(spec.model()));
    }
    engine = new LayerwiseInference(model, spec.seed());
    warmUp(engine);
    construction = new ConstructionPhases(conf, spec, model,
        new FeatureLoader(model, engine.layers().get(0), spec.fusion()), index, mesh, figures);
    if (endpoints == null) {
      throw new IllegalStateException("job before the peer table");
    }
    mesh.connect(endpoints, PEER_TIMEOUT_MS);
  }

  /**
   * Compiles the layers' kernels on a thread of their own while the reading phases leave cores idle, once per
   * JVM (the --local workers share one); the first layer then runs compiled code from its first row.
   */
  private static void warmUp(LayerwiseInference engine) {
    if (!WARMED_UP.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(() -> {
      try {
        KernelWarmup.run(engine.layers(), WARM_UP_LIMIT_NANOS);
      } catch (RuntimeException e) {
        // Only a head start is lost: the real layers run the same code and report what goes wrong there.
      }
    }, "kernel-warm-up");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }

  private void layer(int k, HaloPlan plan) throws Exception {
    if (k != layersDone || k >= plan.layers()) {
      throw new IllegalStateException("layer " + k + " after " + layersDone + " of " + plan.layers());
    }
    long t0 = System.nanoTime();
    try {
    boolean fused = k == 0 && partition.fused();
    HaloExchangeHook hook = (layer, edges, msg, aggregation) -> {
          figures.add("transformSeconds", (System.nanoTime() - t0) / 1e9);
          long t1 = System.nanoTime();
          HaloExchange ex = new HaloExchange(k, edges, msg, plan.sendRows(k), plan.recvSlots(k),
              spec.chunkRows());
          Background sender = new Background("halo-send-" + index, () -> ex.sendAll(mesh, index));
          if (spec.pipelining()) {
            ex.receiveAndAggregate(mesh, sender, aggregation::rows);
          } else {
            ex.receiveAll(mesh, sender);
            aggregation.range(0, edges.numNodes());
          }
          sender.join();
          figures.add("exchangeAggregateSeconds", (System.nanoTime() - t1) / 1e9);
        };
    rows = targeted == null ? engine.layer(k, partition.graph(), plan.edges(k), rows, fused, hook)
        : engine.layerRows(k, partition.graph(), plan.edges(k), rows, fused, targeted.inRows(k),
            targeted.outRows(k), hook);
    } catch (Exception e) {
      throw NumberChecks.asBadInput(e, spec.edges() != null ? spec.edges() : spec.graph());
    }
    layersDone++;
  }

  /**
   * Writes this worker's rows as part files, several in parallel: parts {@code index * PARTS_PER_WORKER + t}, so
   * part numbers never collide between workers.
   */
  private void write(HaloPlan plan) throws Exception {
    if (layersDone != plan.layers()) {
      throw new IllegalStateException("write after " + layersDone + " of " + plan.layers() + " layers");
    }
    // With --targets only the targets' rows are written (each once), else every own row.
    DenseMatrix h = targeted == null ? rows : targeted.targetRows(rows);
    long[] ids = targeted == null ? partition.graph().nodeIds() : targeted.targetIds(partition.graph());
    RowNormalization.applyOutput(model.spec().outputNormalize(), h);
    int[] pred = model.spec().predict() ? LayerwiseInference.predictions(h) : null;
    int parts = Math.max(1, Math.min(PARTS_PER_WORKER, Math.min(spec.threads(), (ids.length + 65535) / 65536)));
    new PartWriter(conf, spec.outputFormat(), plan.layers()).write(ids, h, pred, parts, parts,
        t -> new Path(spec.workDir(), OutputCommit.partName(index * PARTS_PER_WORKER + t, spec.outputFormat())));
  }

  /**
   * The exchange plan of the layers, built with the peers: the all-node one, or with {@code --targets} the plan of
   * the targets' receptive field (then {@link #targeted} is set).
   */
  private HaloPlan buildPlan(WorkerPartition part) throws Exception {
    if (spec.targets() == null) {
      return HaloPlan.build(part, engine, mesh, index);
    }
    targeted = planTargets(part);
    return targeted.halo();
  }

  /** Reads this worker's targets and builds their receptive field with the peers (see {@link TargetPlan}). */
  private TargetPlan planTargets(WorkerPartition part) throws Exception {
    TargetRows mine = TargetRows.read(conf, spec, part, index);
    TargetPlan p = TargetPlan.build(part, engine, mesh, index, mine.rows(), mine.unknown());
    figures.put("targetRows", p.targets().length);
    long field = 0;
    for (int k = 0; k < p.halo().layers(); k++) {
      field += p.outRows(k).length;
    }
    figures.put("fieldRows", field);
    // The first layer's inputs: on a power-law graph the widest part of the field, and what its transform costs.
    figures.put("fieldInputRows", p.inRows(0).length);
    return p;
  }

  @Override
  public void close() {
    mesh.close();
  }
}
