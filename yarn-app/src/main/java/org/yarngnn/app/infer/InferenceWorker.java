package org.yarngnn.app.infer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.graphworker.Background;
import org.yarngnn.app.graphworker.ConstructionPhases;
import org.yarngnn.app.graphworker.FeatureLoader;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.graphworker.GraphWorkerCodec;
import org.yarngnn.app.graphworker.HaloExchange;
import org.yarngnn.app.graphworker.HaloPlan;
import org.yarngnn.app.graphworker.HaloUsers;
import org.yarngnn.app.graphworker.TargetPlan;
import org.yarngnn.app.graphworker.ThreadWorkers;
import org.yarngnn.app.graphworker.WorkerConstruction;
import org.yarngnn.app.graphworker.WorkerFigures;
import org.yarngnn.app.graphworker.WorkerMesh;
import org.yarngnn.app.graphworker.WorkerPartition;
import org.yarngnn.app.runtime.FaultHooks;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WorkerSession;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.compute.infer.HaloExchangeHook;
import org.yarngnn.compute.infer.KernelWarmup;
import org.yarngnn.compute.infer.LayerwiseInference;
import org.yarngnn.compute.infer.RowNormalization;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.io.table.OutputCommit;

/**
 * A long-lived graph worker of inference (a YARN container, or a thread with {@code --local}): the role its
 * {@link WorkerSession} runs phase by phase. Its parts: {@link FeatureLoader} (node reading fused with the first
 * layer), {@link WorkerConstruction} (routing and the partition's CSR), {@link HaloPlan} (which rows move at each
 * layer), the layer step ({@link LayerwiseInference#layer} with a {@link HaloExchange} as its exchange hook) and
 * {@link PartWriter}. Each phase's result is a value the next phase takes; the fields below hold the latest one.
 * Every row is computed exactly once per layer across all workers.
 */
public final class InferenceWorker implements WorkerSession.Role {
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
  /** Which start of this worker's index this process is (0 the first; a replacement's is higher). */
  private final int attempt;
  private final FaultHooks faults;
  /** Where finished layers are checkpointed, in a job that replaces lost workers; else null. */
  private final LayerCheckpoints checkpoints;
  /** The model being read ahead when this JVM does not hold it yet (a container); else null. */
  private java.util.concurrent.FutureTask<Model> modelRead;
  private List<Endpoint> endpoints;
  /** The mesh generation this worker last connected at ({@link Phase#REJOIN}). */
  private int generation;
  private boolean connected;
  /** The phase being run (a loss while rejoining is not survived: the driver ends the job). */
  private Phase running;
  /** The input of the last layer run, kept until the next one starts: a layer lost elsewhere is run again. */
  private DenseMatrix rowsBefore;
  /** A replacement's partition, loaded when it rejoined before the plan. */
  private WorkerPartition loaded;

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
   * Start {@code attempt} of worker {@code index} (a replacement's is above 0) of the job {@code spec};
   * {@code model} is the job's model when this JVM already holds it ({@code --local}), else null and the worker
   * reads it once, in the job phase.
   */
  InferenceWorker(Configuration conf, InferOptions spec, Model model, int index, int attempt, FaultHooks faults,
      JobTransport transport) throws Exception {
    this.attempt = attempt;
    this.faults = faults;
    this.checkpoints = spec.recovery().writesCheckpoints()
        ? new LayerCheckpoints(conf, new Path(spec.recovery().dir())) : null;
    this.conf = conf;
    this.spec = spec;
    this.model = model;
    this.index = index;
    this.workers = spec.getInt(GraphJobOptions.WORKERS);
    this.mesh = new WorkerMesh(index, workers, transport.options(GraphWorkerCodec.CODEC, Participants.worker(index)));
    String container = System.getenv("CONTAINER_ID");
    if (model == null) {
      // A container's cold JVM reads the model (its first HDFS client, Jackson, safetensors: about a second of
      // class loading and reading) while it registers and waits for the job round, not after.
      modelRead = new java.util.concurrent.FutureTask<>(() -> ModelFiles.read(conf,
          new Path(spec.get(InferOptions.MODEL))));
      Thread t = new Thread(modelRead, "model-read");
      t.setDaemon(true);
      t.start();
    }
    if (container != null) {
      // How long the container's JVM took from its start to this worker (class loading, JIT): part of what a job
      // on YARN pays before its first phase, beside the container's allocation and localization.
      figures.phase("start", java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
      // Which ApplicationMaster attempt started this container, in its report: an adopted one keeps its first.
      try {
        figures.put("containerAttempt",
            org.apache.hadoop.yarn.api.records.ContainerId.fromString(container).getApplicationAttemptId()
                .getAttemptId());
      } catch (IllegalArgumentException e) {
        // not a YARN container id: nothing to report
      }
    }
  }

  /**
   * {@code --local}: the job's workers as threads of this JVM, sharing its {@code model} (read-only) instead of
   * reading it, and the driver's {@code transport} (its in-memory secret, loopback).
   */
  public static ThreadWorkers threads(Configuration conf, InferOptions spec, Model model, JobTransport transport) {
    return new ThreadWorkers((index, host, port) -> serve(conf, spec, model, index, host, port, transport));
  }

  /** Runs a graph worker's session with the driver; returns the process exit status. */
  public static int serve(Configuration conf, InferOptions spec, Model model, int index, String driverHost,
      int driverPort, JobTransport transport) {
    return serve(conf, spec, model, index, 0, driverHost, driverPort, transport);
  }

  /** As above, for start {@code attempt} of the worker (a replacement's is above 0). */
  public static int serve(Configuration conf, InferOptions spec, Model model, int index, int attempt,
      String driverHost, int driverPort, JobTransport transport) {
    return serve(conf, spec, model, index, attempt, driverHost, driverPort, transport, null);
  }

  /**
   * As above; with {@code reconnect} (a container of a job that replaces lost workers) the worker outlives a dead
   * ApplicationMaster attempt's driver and may be adopted by the next attempt's.
   */
  public static int serve(Configuration conf, InferOptions spec, Model model, int index, int attempt,
      String driverHost, int driverPort, JobTransport transport, WorkerSession.Reconnect reconnect) {
    // --verbose reaches the workers as an option (job.xml on YARN), not as a key of the container's own conf.
    FaultHooks faults = FaultHooks.of(conf);
    WorkerSession session = new WorkerSession(index, driverHost, driverPort, transport, GraphWorkerCodec.CODEC,
        spec.get(GraphJobOptions.VERBOSE) || conf.getBoolean("yarngnn.verbose", false)).faults(faults, attempt);
    if (reconnect != null) {
      session.reconnecting(reconnect);
    }
    return session.run(() -> new InferenceWorker(conf, spec, model, index, attempt, faults, transport));
  }

  @Override
  public int generation() {
    return generation;
  }

  @Override
  public int peerPort() {
    return mesh.port();
  }

  @Override
  public Map<String, Double> gauges() {
    return WorkerFigures.gauges(mesh);
  }

  @Override
  public void peers(List<Endpoint> endpoints) {
    this.endpoints = endpoints;
  }

  @Override
  public PhaseResult run(PhaseCommand c) throws Exception {
    running = c.phase();
    long t0 = System.nanoTime();
    PhaseResult result = construction == null ? null : construction.run(c);
    if (c.phase() == Phase.BUILD_EDGES && checkpoints != null) {
      // A replacement reads this instead of the tables, which only all workers together can route.
      checkpoints.writePartition(index, construction.partition());
    }
    if (result == null) {
      result = PhaseResult.EMPTY;
      switch (c.phase()) {
        case JOB:
          job();
          break;
        case PLAN:
          if (partition == null) {
            // Once: a PLAN run again after a loss keeps the partition and the first layer's input.
            WorkerPartition p = loaded != null ? loaded : construction.take(c);
            loaded = null;
            rows = p.rows();
            partition = p.withoutRows();
          }
          plan = buildPlan(partition);
          break;
        case LAYER:
          layer(c.layer(), require(plan, c));
          if (checkpoints != null && c.layer() < plan.layers() - 1) {
            // The last layer's output is not kept: a loss while writing runs the last layer again.
            checkpoints.writeRows(c.layer(), index, rows);
          }
          break;
        case REJOIN:
          result = rejoin(c.layer(), c.epoch());
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

  /** The phase's name in progress lines and figures. */
  static String label(Phase p) {
    return p.label();
  }

  private static <T> T require(T previous, PhaseCommand c) {
    return ConstructionPhases.require(previous, c);
  }

  private void job() throws Exception {
    prepare();
    if (!connected) {
      mesh.connect(endpoints, WorkerMesh.PEER_TIMEOUT_MS);
      connected = true;
    }
  }

  /** The model, the layers and the construction phases, once (a rejoining worker may have them already). */
  private void prepare() throws Exception {
    if (model == null) {
      try {
        model = modelRead.get();
      } catch (java.util.concurrent.ExecutionException e) {
        throw e.getCause() instanceof Exception x ? x : e;
      }
    }
    if (engine == null) {
      engine = new LayerwiseInference(model, spec.get(GraphJobOptions.SEED));
      warmUp(engine);
    }
    if (construction == null) {
      construction = new ConstructionPhases(conf, spec.job(), model,
          new FeatureLoader(model, spec.get(InferOptions.MODEL), engine.layers().get(0), spec.get(InferOptions.FUSION)),
          index, mesh, figures);
      if (spec.get(InferOptions.TARGETS) == null && checkpoints == null) {
        // A worker's message slots (its nodes and its halo) are known early in its partition's build: its first
        // layer's message matrix is allocated (zeroed and faulted in on a thread of its own) while the build
        // sorts its columns, rather than at the start of the layer, where first touch is one core's work (the
        // host serves a VM's faults one at a time) while the other waits. Only the reusing layer run takes it
        // (no targets, no recovery).
        construction.onSlotsKnown(engine::reserveFirstMessages);
      }
    }
    if (endpoints == null) {
      throw new IllegalStateException("job before the peer table");
    }
  }

  /**
   * {@link Phase#REJOIN}: connects to every peer anew at {@code generation} and gets ready to resume at
   * {@code resume} ({@link LayerResume}). Before construction (a loss while the graph was built from the tables)
   * every worker drops what it had read, routed or built, its routing threads stopped first, and builds again.
   * Else a survivor keeps its partition and rows (going back to the input of a
   * layer it had finished, if that layer is run again); a replacement loads its partition (the {@code --graph}
   * files, or the partition checkpoint) and, past the first layer, the checkpointed rows of the last finished
   * layer. From the first layer on every worker builds the plan again (the replacement's requests and answers
   * are needed, and the samples are the same on every run). Answers the sizes of a partition it loaded and took
   * up here (as construction answers them: a second ApplicationMaster attempt's workers all load theirs), else
   * nothing.
   */
  private PhaseResult rejoin(int resume, int generation) throws Exception {
    if (generation <= this.generation) {
      throw new IllegalStateException("rejoin at generation " + generation + " after " + this.generation);
    }
    if (resume == LayerResume.BEFORE_CONSTRUCTION) {
      if (construction != null) {
        // Its threads stopped before the mesh is made anew, so none sends an abandoned block on a new connection.
        construction.stop();
        construction = null;
      }
      // A job recomputed after a loss past construction: everything built or computed goes, the graph is built
      // again and the layers run again from the inputs.
      partition = null;
      loaded = null;
      rows = null;
      rowsBefore = null;
      if (plan != null) {
        plan.releaseUsers();
        plan = null;
      }
      layersDone = 0;
    }
    prepare();
    mesh.reconnect(endpoints, generation, WorkerMesh.PEER_TIMEOUT_MS);
    this.generation = generation;
    connected = true;
    if (resume == LayerResume.AFTER_JOB || resume == LayerResume.BEFORE_CONSTRUCTION) {
      return PhaseResult.EMPTY;
    }
    boolean replacement = partition == null && construction.partition() == null && loaded == null;
    if (replacement) {
      loaded = loadPartition();
    }
    if (resume == LayerResume.BEFORE_PLAN) {
      return PhaseResult.EMPTY;
    }
    int k = LayerResume.layerOf(resume);
    PhaseResult result = PhaseResult.EMPTY;
    if (partition == null) {
      WorkerPartition p = loaded != null ? loaded : construction.take(new PhaseCommand(Phase.PLAN));
      loaded = null;
      partition = p.withoutRows();
      rows = k == 0 ? p.rows() : readRows(k - 1);
      rowsBefore = null;
      layersDone = k;
      org.yarngnn.compute.graph.GraphBlock g = partition.graph();
      result = new PhaseResult.PartitionSizes(g.numNodes(), g.inEdges().numEdges(), g.haloIds().length);
    } else if (layersDone == k + 1 && rowsBefore != null) {
      rows = rowsBefore;
      rowsBefore = null;
      layersDone = k;
    } else if (layersDone != k) {
      throw new IllegalStateException("rejoin at layer " + k + " after " + layersDone + " layers");
    }
    if (result == PhaseResult.EMPTY) {
      // A worker that kept its partition answers its sizes too: a driver taking it over from an earlier
      // ApplicationMaster attempt prints them as construction would.
      org.yarngnn.compute.graph.GraphBlock g = partition.graph();
      result = new PhaseResult.PartitionSizes(g.numNodes(), g.inEdges().numEdges(), g.haloIds().length);
      figures.put("keptPartition", 1);
    }
    plan = buildPlan(partition);
    return result;
  }

  /** A replacement's partition: its files of {@code --graph}, or the checkpoint construction wrote. */
  private WorkerPartition loadPartition() throws Exception {
    if (spec.get(GraphJobOptions.GRAPH) != null) {
      construction.run(new PhaseCommand(Phase.LOAD_PARTITION));
      return construction.take(new PhaseCommand(Phase.LOAD_PARTITION));
    }
    if (checkpoints == null) {
      throw new IllegalStateException("worker " + index + " cannot rebuild its partition: no checkpoints");
    }
    return checkpoints.readPartition(index);
  }

  /** This partition's checkpointed output of layer {@code k}. */
  private DenseMatrix readRows(int k) throws Exception {
    if (checkpoints == null) {
      throw new IllegalStateException("worker " + index + " cannot resume after layer " + k + ": no checkpoints");
    }
    return checkpoints.readRows(k, index, partition.graph().numNodes(), engine.layers().get(k).outWidth());
  }

  /**
   * A worker of a job that replaces lost workers outlives a lost peer (or a connection failure caused by one): it
   * stops exchanging (its peer connections closed, so every peer still waiting on it stops as well) and waits for
   * the driver's {@link Phase#REJOIN}.
   */
  @Override
  public boolean survives(Exception e) {
    if (!spec.recovery().replacesWorkers() || running == Phase.REJOIN) {
      return false;
    }
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof org.yarngnn.app.transport.TransportException) {
        mesh.closePeers();
        return true;
      }
    }
    return false;
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
    // Without recovery nothing redoes a layer from its input: the output may take the input's array instead.
    boolean reuse = checkpoints == null;
    rowsBefore = reuse ? null : rows;
    try {
      rows = haloLayer(k, plan, k == 0 && partition.fused(), reuse, t0);
    } catch (Exception | Error e) {
      if (e instanceof Error err) {
        throw err;
      }
      throw NumberChecks.asBadInput((Exception) e, spec.get(GraphJobOptions.EDGES) != null
          ? spec.get(GraphJobOptions.EDGES) : spec.job()
          .get(GraphJobOptions.GRAPH));
    }
    layerDone(plan);
  }

  private void layerDone(HaloPlan plan) {
    layersDone++;
    if (layersDone == plan.layers()) {
      engine.releaseScratch();
      plan.releaseUsers();
    }
  }

  /**
   * Layer {@code k} with a halo: its rows sent and received through the mesh (pipelined or not).
   */
  private DenseMatrix haloLayer(int k, HaloPlan plan, boolean fused, boolean reuse, long t0) throws Exception {
    HaloExchangeHook hook = (layer, edges, msg, aggregation) -> {
      figures.add("transformSeconds", (System.nanoTime() - t0) / 1e9);
      long t1 = System.nanoTime();
      HaloExchange ex = new HaloExchange(k, edges, msg, plan.sendRows(k), plan.recvSlots(k),
          spec.getInt(GraphJobOptions.CHUNK_ROWS));
      WorkerMesh m = mesh;
      Background sender = new Background("halo-send-" + index, () -> ex.sendAll(m, index));
      faults.inLayer(index, attempt, k);
      if (spec.get(InferOptions.PIPELINING)) {
        long t2 = System.nanoTime();
        HaloUsers users = plan.users(k, edges);
        figures.add("haloUsersSeconds", (System.nanoTime() - t2) / 1e9);
        ex.receiveAndAggregate(mesh, sender, aggregation::rows, users);
      } else {
        ex.receiveAll(mesh, sender);
        aggregation.range(0, edges.numNodes());
      }
      sender.join();
      figures.add("exchangeAggregateSeconds", (System.nanoTime() - t1) / 1e9);
    };
    return targeted == null ? engine.layer(k, partition.graph(), plan.edges(k), rows, fused, hook, reuse)
        : engine.layerRows(k, partition.graph(), plan.edges(k), rows, fused, targeted.inRows(k),
            targeted.outRows(k), hook);
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
    int parts = Math.max(1, Math.min(PARTS_PER_WORKER, Math.min(spec.job().threads(), (ids.length + 65535) / 65536)));
    if (generation > 0) {
      // Written again after a loss: this worker's parts of the interrupted attempt go first.
      org.apache.hadoop.fs.FileSystem fs = new Path(spec.get(GraphJobOptions.WORK_DIR)).getFileSystem(conf);
      for (int t = 0; t < PARTS_PER_WORKER; t++) {
        fs.delete(new Path(spec.get(GraphJobOptions.WORK_DIR), OutputCommit.partName(index * PARTS_PER_WORKER + t,
            spec.job()
            .get(GraphJobOptions.OUTPUT_FORMAT))),
            false);
      }
    }
    new PartWriter(conf, spec.get(GraphJobOptions.OUTPUT_FORMAT), plan.layers()).write(ids, h, pred, parts, parts,
        t -> new Path(spec.get(GraphJobOptions.WORK_DIR), OutputCommit.partName(index * PARTS_PER_WORKER + t, spec.job()
            .get(GraphJobOptions.OUTPUT_FORMAT))));
  }

  /**
   * The exchange plan of the layers, built with the peers: the all-node one, or with {@code --targets} the plan of
   * the targets' receptive field (then {@link #targeted} is set).
   */
  private HaloPlan buildPlan(WorkerPartition part) throws Exception {
    HaloPlan p;
    if (spec.get(InferOptions.TARGETS) == null) {
      p = HaloPlan.build(part, engine, mesh, index);
    } else {
      targeted = planTargets(part);
      p = targeted.halo();
    }
    if (spec.get(InferOptions.PIPELINING) && mesh.workers() > 1) {
      p.buildUsersAhead();
    }
    return p;
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
