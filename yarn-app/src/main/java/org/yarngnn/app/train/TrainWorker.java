package org.yarngnn.app.train;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.graphworker.Background;
import org.yarngnn.app.graphworker.ConstructionPhases;
import org.yarngnn.app.graphworker.ContainerWorkers;
import org.yarngnn.app.graphworker.FeatureLoader;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.graphworker.HaloExchange;
import org.yarngnn.app.graphworker.HaloPlan;
import org.yarngnn.app.graphworker.WorkerFigures;
import org.yarngnn.app.graphworker.WorkerMesh;
import org.yarngnn.app.graphworker.WorkerPartition;
import org.yarngnn.app.runtime.FaultHooks;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.app.runtime.WorkerSession;
import org.yarngnn.app.tensor.PoolMessages;
import org.yarngnn.app.tensor.TensorClient;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Message;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.LayerType;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.sample.NeighbourSampler;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.compute.train.Dropout;
import org.yarngnn.compute.train.LayerStep;
import org.yarngnn.compute.train.Parameters;
import org.yarngnn.compute.train.SoftmaxCrossEntropy;
import org.yarngnn.compute.train.TrainLayer;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeSplit;

/**
 * A graph worker of training (Dorylus' graph server with the tensor work done in place: the local tensor
 * backend), the role its {@link WorkerSession} runs. Construction is the graph-worker core's, as inference's
 * ({@link FeatureLoader} without fusion, keeping labels and splits;
 * {@link org.yarngnn.app.graphworker.WorkerConstruction}); the {@link HaloPlan} covers each layer's whole in-edge
 * lists, so every epoch's sample is inside it. Per epoch, driven phase by phase:
 * <ul>
 *   <li>{@code FORWARD k}: dropout and transform of own rows ({@link LayerStep#forwardTransform}), the forward
 *   {@link HaloExchange} fills the halo message rows, rows aggregate as their inputs arrive;</li>
 *   <li>{@code BACKWARD k}: (the last layer first takes the loss of the partition's {@code train} rows, scaled by
 *   one over the global count) per-destination backward, halo message gradients first; those go back to their
 *   owners on the gradient streams ({@link HaloExchange#gradients}) while the own rows' are computed, and what
 *   peers send is added into the own rows ({@code LayerStep.addMessageGradient}'s sum); then the row-local
 *   backward gives weight gradients and the previous layer's output gradient;</li>
 *   <li>{@code GRADIENTS}: the loss sum and the weight gradients, tagged with the weights' version;</li>
 *   <li>{@link Weights} from the parameter server (the driver) load the next version;</li>
 *   <li>{@code EVALUATE k}: the same forward without dropout over inference's samples; the last layer answers
 *   the correct predictions per split.</li>
 * </ul>
 */
public final class TrainWorker implements WorkerSession.Role {
  /** A tensor task is sent again after this many times its kind's mean time, and never before this. */
  static final double TASK_TIMEOUT_FACTOR = 5;
  static final long TASK_TIMEOUT_MIN_MS = 2000;

  private final Configuration conf;
  private final FaultHooks faults;
  private final TrainOptions opts;
  private final GraphJobOptions graphSpec;
  private final ModelSpec spec;
  private final int index;
  private final int workers;
  private final WorkerMesh mesh;
  private final JobTransport transport;
  private final WorkerFigures figures = new WorkerFigures();
  private final Parameters layout;
  private List<Endpoint> endpoints;
  private Endpoint tensorPool;
  private TensorClient tensorClient;
  private RemoteTensorSteps remote;

  private ConstructionPhases construction;
  private WorkerPartition partition;
  private HaloPlan plan;
  private DenseMatrix x;
  private int[] labels;
  private boolean[][] masks;
  private long globalTrain;

  private TrainLayer[] layers;
  private LayerStep[] steps;
  private GraphBlock[] evalEdges;
  private float[] grads;
  private DenseMatrix dLogits;
  private long version = -1;
  /** Bounded asynchrony (null at staleness 0): the epoch-tagged exchange, the weights received, the epoch cap. */
  private StaleHalo stale;
  private final java.util.TreeMap<Long, float[]> versions = new java.util.TreeMap<>();
  private int epochLimit = Integer.MAX_VALUE;
  private int rowStaleness;
  /** After the asynchronous epochs: evaluations read exact rows. */
  private boolean asyncDone;
  private WorkerSession.DriverLink driver;
  private double lossSum;
  private int forwardDone;
  private int backwardNext;
  private long epoch;
  /** {@code --task link}: the held-out edges taken out in construction, then the link-prediction work; else null. */
  private HeldOutEdges heldOut;
  private LinkWorker link;

  TrainWorker(Configuration conf, TrainOptions opts, ModelSpec spec, int index, FaultHooks faults,
      JobTransport transport) throws Exception {
    this.conf = conf;
    this.faults = faults;
    this.opts = opts;
    this.graphSpec = opts.job();
    this.spec = spec;
    this.index = index;
    this.workers = opts.getInt(GraphJobOptions.WORKERS);
    this.layout = new Parameters(spec);
    this.transport = transport;
    this.mesh = new WorkerMesh(index, workers, transport.options(TrainCodec.CODEC, Participants.worker(index)));
  }

  /** Runs a training worker's session with the driver; returns the process exit status. */
  public static int serve(Configuration conf, TrainOptions opts, ModelSpec spec, int index, String driverHost,
      int driverPort, JobTransport transport) {
    FaultHooks faults = FaultHooks.of(conf);
    // Which set of workers this is (0 the first; a job restarted from its checkpoint starts another).
    String set = System.getenv(ContainerWorkers.ATTEMPT_ENV);
    return new WorkerSession(index, driverHost, driverPort, transport, TrainCodec.CODEC,
        conf.getBoolean("yarngnn.verbose", false))
        .faults(faults, set == null || set.isEmpty() ? 0 : Integer.parseInt(set))
        .run(() -> new TrainWorker(conf, opts, spec, index, faults, transport));
  }

  @Override
  public int peerPort() {
    return mesh.port();
  }

  @Override
  public boolean concurrent(PhaseCommand c) {
    return c.phase() == Phase.TRAIN_ASYNC;
  }

  @Override
  public void driver(WorkerSession.DriverLink link) {
    this.driver = link;
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
  public boolean accept(Message m) {
    if (m instanceof Weights w && opts.getInt(TrainOptions.STALENESS) > 0) {
      synchronized (versions) {
        long last = versions.isEmpty() ? version : Math.max(version, versions.lastKey());
        if (w.values().length != layout.size() || w.version() <= last) {
          throw new IllegalStateException("weights of version " + w.version() + " with " + w.values().length
              + " values after version " + last + " (the model has " + layout.size() + ")");
        }
        versions.put(w.version(), w.values());
        versions.notifyAll();
      }
      return true;
    }
    if (m instanceof AsyncMessages.EpochLimit l) {
      synchronized (versions) {
        epochLimit = Math.min(epochLimit, l.last());
      }
      return true;
    }
    if (m instanceof Weights w) {
      if (w.values().length != layout.size() || w.version() <= version) {
        throw new IllegalStateException("weights of version " + w.version() + " with " + w.values().length
            + " values after version " + version + " (the model has " + layout.size() + ")");
      }
      for (int k = 0; k < layers.length; k++) {
        layers[k].load(w.values(), layout.layerOffset(k));
      }
      version = w.version();
      return true;
    }
    if (m instanceof PoolMessages.PoolAddress a && tensorPool == null) {
      tensorPool = a.endpoint();
      return true;
    }
    if (m instanceof TrainRows t) {
      globalTrain = t.count();
      if (link != null) {
        link.globalPositives(t.count());
      }
      return true;
    }
    return false;
  }

  @Override
  public PhaseResult run(PhaseCommand c) throws Exception {
    long t0 = System.nanoTime();
    PhaseResult result = construction == null ? null : construction.run(c);
    if (result != null) {
      figures.add("t." + c.phase().label(), (System.nanoTime() - t0) / 1e9);
      return result;
    }
    result = PhaseResult.EMPTY;
    switch (c.phase()) {
      case JOB:
        construction = new ConstructionPhases(conf, graphSpec, new Parameters(spec).toModel(),
            new FeatureLoader(new Parameters(spec).toModel(), opts.get(TrainOptions.MODEL_SPEC), null, false, true),
            index, mesh, figures);
        if (opts.link() != null) {
          heldOut = new HeldOutEdges(opts.get(GraphJobOptions.SEED), opts.link().valFraction(), opts.link()
              .testFraction(),
              graphSpec.get(GraphJobOptions.UNDIRECTED), index);
          construction.filterEdges(heldOut);
        }
        if (endpoints == null) {
          throw new IllegalStateException("job before the peer table");
        }
        mesh.connect(endpoints, WorkerMesh.PEER_TIMEOUT_MS);
        break;
      case LABELS:
        partition = construction.take(c);
        if (heldOut != null) {
          link = new LinkWorker(opts.link(), opts.get(GraphJobOptions.SEED), index, workers, partition.graph(),
              partition.index(),
              partition.ownership(), heldOut.take(), new LinkExchange(mesh, index, staleWaitMillis()),
              "l2".equals(spec.outputNormalize()), spec.outputWidth(), graphSpec.get(GraphJobOptions.GRAPH) != null
              ? graphSpec.get(GraphJobOptions.GRAPH) : graphSpec.get(GraphJobOptions.EDGES));
          heldOut = null;
          result = link.counts();
        } else {
          result = labels(partition);
        }
        break;
      case PLAN:
        plan(require(partition, c));
        break;
      case FORWARD:
        forward(c.layer(), c.epoch(), true);
        break;
      case BACKWARD:
        backward(c.layer());
        break;
      case GRADIENTS:
        result = gradients();
        break;
      case EVALUATE:
        if (stale != null && c.layer() == 0) {
          // After asynchronous epochs: the exact evaluation of the weights just sent (the best epoch's).
          synchronized (versions) {
            load(versions.lastKey());
          }
        }
        result = forward(c.layer(), c.epoch(), false);
        break;
      case TRAIN_ASYNC:
        runEpochs(c.epoch());
        break;
      case LINK_PLAN:
        require(link, c).plan();
        if (opts.link().pairsWorkDir() != null) {
          link.writePairs(conf, new org.apache.hadoop.fs.Path(opts.link().pairsWorkDir()));
        }
        break;
      case LINK_LOSS:
        if (backwardNext != steps.length - 1 || epoch != c.epoch()) {
          throw new IllegalStateException("link loss of epoch " + c.epoch() + " before its forward");
        }
        require(link, c).loss(c.epoch(), steps[steps.length - 1].output(), dLogits);
        break;
      case LINK_EVALUATE:
        result = require(link, c).evaluate(steps[steps.length - 1].output());
        break;
      case EXIT:
        if (tensorClient != null) {
          figures.add("tasks.sent", remote.tasks());
          figures.add("tasks.resent", tensorClient.resent());
          figures.add("tasks.duplicates", tensorClient.duplicates());
          figures.add("intervals", remote.intervals());
        }
        return new PhaseResult.WorkerReport(figures.report(mesh));
      default:
        throw new IllegalStateException("training workers do not run " + c.phase());
    }
    figures.add("t." + c.phase().label(), (System.nanoTime() - t0) / 1e9);
    return result;
  }

  private static <T> T require(T previous, PhaseCommand c) {
    if (previous == null) {
      throw new IllegalStateException(c.phase() + " before the phase it follows");
    }
    return previous;
  }

  /** The nodes table's name in messages. */
  private String nodesTable() {
    return graphSpec.get(GraphJobOptions.NODES) != null ? graphSpec.get(GraphJobOptions.NODES)
        : graphSpec.get(GraphJobOptions.GRAPH);
  }

  /**
   * The partition's labels and split masks; refuses a label the model cannot predict (outside
   * {@code 0..width-1}, -1 meaning none) and a train, val or test row without a label.
   */
  private PhaseResult labels(WorkerPartition part) {
    int n = part.graph().numNodes();
    long[] ids = part.graph().nodeIds();
    int width = spec.outputWidth();
    labels = part.labels() != null ? part.labels() : new int[n];
    if (part.labels() == null) {
      java.util.Arrays.fill(labels, -1);
    }
    byte[] splits = part.splits();
    masks = new boolean[3][n];
    long[] counts = new long[3];
    for (int r = 0; r < n; r++) {
      int y = labels[r];
      if (y < -1 || y >= width) {
        throw new InputException(nodesTable() + ": node " + ids[r] + " has label " + y + ", outside the "
            + width + " classes the model predicts (0.." + (width - 1) + "; -1 for none)");
      }
      byte s = splits == null ? NodeSplit.NONE : splits[r];
      int m = s == NodeSplit.TRAIN ? 0 : s == NodeSplit.VAL ? 1 : s == NodeSplit.TEST ? 2 : -1;
      if (m >= 0) {
        if (y < 0) {
          throw new InputException(nodesTable() + ": node " + ids[r] + " is a " + NodeSplit.name(s)
              + " row without a label");
        }
        masks[m][r] = true;
        counts[m]++;
      }
    }
    return new PhaseResult.LabelCounts(counts[0], counts[1], counts[2]);
  }

  private void plan(WorkerPartition part) throws Exception {
    GraphBlock g = part.graph();
    int depth = spec.layers().size();
    plan = HaloPlan.build(part, depth, k -> g, mesh, index);
    if (opts.getInt(TrainOptions.STALENESS) == 0 && mesh.workers() > 1) {
      plan.buildUsersAhead();
    }
    x = part.rows();
    partition = part.withoutRows();
    layers = new TrainLayer[depth];
    evalEdges = new GraphBlock[depth];
    for (int k = 0; k < depth; k++) {
      LayerSpec l = spec.layers().get(k);
      double p = l.hasDropout() ? l.dropout() : opts.get(TrainOptions.DROPOUT);
      layers[k] = TrainLayer.create(l, k, p, l.type() == LayerType.GAT ? p : 0);
      evalEdges[k] = l.fanout() < 0 ? g : NeighbourSampler.sample(g, l.fanout(), opts.get(GraphJobOptions.SEED), k);
    }
    // One set of buffers shared by the layers where their lifetimes allow (LayerStep.chain).
    steps = LayerStep.chain(List.of(layers), g, opts.get(GraphJobOptions.SEED));
    grads = new float[layout.size()];
    if (opts.getInt(TrainOptions.STALENESS) > 0) {
      int[] widths = new int[depth];
      for (int k = 0; k < depth; k++) {
        widths[k] = steps[k].messages().cols();
      }
      stale = new StaleHalo(mesh, index, plan, widths, opts.getInt(TrainOptions.STALENESS),
          graphSpec.getInt(GraphJobOptions.CHUNK_ROWS));
      stale.start();
    }
    dLogits = new DenseMatrix(g.numNodes(), spec.outputWidth());
    if (opts.get(TrainOptions.TENSOR_BACKEND) == TrainOptions.TensorBackend.REMOTE) {
      if (tensorPool == null) {
        throw new IllegalStateException("the remote tensor backend without the pool's address");
      }
      tensorClient = new TensorClient(index, tensorPool, transport.options(TrainCodec.CODEC,
          Participants.worker(index)),
          TASK_TIMEOUT_MIN_MS, TASK_TIMEOUT_FACTOR);
      tensorClient.start();
      int widest = spec.outputWidth();
      for (TrainLayer l : layers) {
        widest = Math.max(widest, Math.max(l.inWidth(), l.linearWidth()));
      }
      remote = new RemoteTensorSteps(tensorClient, g.numNodes(), opts.getInt(TrainOptions.INTERVALS), widest);
    }
  }

  /**
   * Layer {@code k}'s forward: with {@code training}, dropout on and epoch {@code e}'s sample; else inference's
   * sample without dropout. The last layer of an evaluation answers the accuracy counts.
   */
  private PhaseResult forward(int k, int e, boolean training) throws Exception {
    if (plan == null || version < 0) {
      throw new IllegalStateException("forward before the plan and the first weights");
    }
    if (k != forwardDone || k >= steps.length) {
      throw new IllegalStateException("forward of layer " + k + " after " + forwardDone + " of " + steps.length);
    }
    if (training && k == 0) {
      if (e < 1 || version > e - 1 || version < e - 1 - opts.getInt(TrainOptions.STALENESS)) {
        throw new IllegalStateException("epoch " + e + " on weights of version " + version);
      }
      epoch = e;
    }
    LayerStep s = steps[k];
    GraphBlock g = partition.graph();
    int fanout = spec.layers().get(k).fanout();
    s.setEdges(!training ? evalEdges[k] : fanout < 0 ? g
        : NeighbourSampler.sample(g, fanout, Dropout.sampleSeed(opts.get(GraphJobOptions.SEED), e), k));
    DenseMatrix h = k == 0 ? x : steps[k - 1].output();
    // The exact evaluation after asynchronous epochs runs here: the best epoch's weights it evaluates are no
    // live version the tensor workers could fetch.
    if (remote != null && !asyncDone) {
      s.forwardDropout(h, training ? e : 0, training);
      remote.forward(s, k, version);
    } else {
      s.forwardTransform(h, training ? e : 0, training);
    }
    if (stale != null) {
      // Bounded asynchrony: the peers' newest rows within the window, then every row at once.
      int direction = training ? StaleHalo.FORWARD : StaleHalo.EVALUATE;
      int tag = training ? e : (int) version;
      int oldest = training || !asyncDone ? tag - opts.getInt(TrainOptions.STALENESS) : tag;
      Background sender = new Background("forward-send-" + index, () -> stale.send(direction, k, tag,
          s.messages()));
      int seen = stale.fill(direction, k, tag, oldest, s.messages(), staleWaitMillis());
      if (training) {
        rowStaleness = Math.max(rowStaleness, seen);
      }
      s.forwardAggregate(0, g.numNodes());
      sender.join();
    } else {
      HaloExchange ex = new HaloExchange(k, s.edges(), s.messages(), plan.sendRows(k), plan.recvSlots(k),
          graphSpec.getInt(GraphJobOptions.CHUNK_ROWS));
      Background sender = new Background("forward-send-" + index, () -> ex.sendAll(mesh, index));
      ex.receiveAndAggregate(mesh, sender, rows -> aggregateRuns(s, rows), plan.users(k, s.edges()));
      sender.join();
    }
    forwardDone = k + 1;
    if (k < steps.length - 1) {
      return PhaseResult.EMPTY;
    }
    forwardDone = 0;
    if (training) {
      backwardNext = k;
      return PhaseResult.EMPTY;
    }
    if (link != null) {
      return PhaseResult.EMPTY; // the held-out edges are scored by LINK_EVALUATE
    }
    DenseMatrix out = s.output();
    int n = g.numNodes();
    long[] correct = new long[3];
    long[] count = new long[3];
    for (int m = 0; m < 3; m++) {
      correct[m] = SoftmaxCrossEntropy.correct(out, labels, masks[m], 0, n);
      for (boolean b : masks[m]) {
        count[m] += b ? 1 : 0;
      }
    }
    return new PhaseResult.Accuracy(correct[0], count[0], correct[1], count[1], correct[2], count[2]);
  }

  /** How long an asynchronous gather waits for a peer's rows: the round timeout. */
  private long staleWaitMillis() {
    return java.util.concurrent.TimeUnit.SECONDS.toMillis(graphSpec.get(GraphJobOptions.ROUND_TIMEOUT));
  }

  /**
   * Bounded asynchrony ({@code --staleness S > 0}): this worker runs epochs {@code first..} by itself. Epoch
   * {@code e} starts once weights of version {@code e - 1 - S} or later are here (version {@code v} exists once
   * every worker finished epoch {@code v}, so no worker starts epoch {@code e} while another has not finished
   * {@code e - S - 1}) and runs on the newest version here; its gathers read the peers' newest rows of epochs
   * {@code e - S .. e} ({@link StaleHalo}). Its loss, gradients and the staleness it saw go to the driver
   * ({@link AsyncMessages.EpochDone}), whose parameter server steps once all workers' gradients of an epoch are
   * in. Before epoch {@code e} it evaluates version {@code e - 1 - S} (every worker the same version, dropout
   * off), reading the peers' evaluation rows of versions {@code e - 1 - 2S ..} as the training reads its rows:
   * exact rows would make every worker wait for the slowest at that point of each epoch, which is the
   * synchronisation asynchrony removes. After the last epoch it evaluates the versions left; the driver then
   * evaluates the best one exactly (synchronous {@code EVALUATE} rounds with exact rows).
   */
  private void runEpochs(int first) throws Exception {
    if (stale == null || driver == null) {
      throw new IllegalStateException("asynchronous epochs before the plan");
    }
    int s = opts.getInt(TrainOptions.STALENESS);
    long slowMillis = faults.epochDelayMillis(index);
    long nextEval = first;
    for (int e = first; e <= limit(); e++) {
      if (slowMillis > 0) {
        Thread.sleep(slowMillis);
      }
      while (nextEval <= e - 1 - s) {
        evaluate(nextEval++);
      }
      long v = awaitVersion(e - 1 - s);
      load(v);
      rowStaleness = 0;
      forwardDone = 0;
      for (int k = 0; k < steps.length; k++) {
        forward(k, e, true);
      }
      for (int k = steps.length - 1; k >= 0; k--) {
        backward(k);
      }
      PhaseResult.TrainStep t = (PhaseResult.TrainStep) gradients();
      driver.send(new AsyncMessages.EpochDone(e, t.lossSum(), rowStaleness, t.gradients()));
      backwardNext = -2;
    }
    int last = limit();
    while (nextEval <= last) {
      evaluate(nextEval++);
    }
    asyncDone = true;
  }

  private int limit() {
    synchronized (versions) {
      return Math.min(opts.getInt(TrainOptions.EPOCHS), epochLimit);
    }
  }

  /** Waits for weights of version {@code atLeast} or newer; returns the newest here, forgetting older ones. */
  private long awaitVersion(long atLeast) throws InterruptedException {
    long deadline = System.currentTimeMillis() + staleWaitMillis();
    synchronized (versions) {
      while (versions.isEmpty() || versions.lastKey() < atLeast) {
        long left = deadline - System.currentTimeMillis();
        if (left <= 0) {
          throw new IllegalStateException("no weights of version " + atLeast + " within "
              + graphSpec.get(GraphJobOptions.ROUND_TIMEOUT) + " s (--round-timeout)");
        }
        versions.wait(Math.min(left, 200));
      }
      return versions.lastKey();
    }
  }

  /** Loads version {@code v} (here) into the layers. */
  private void load(long v) {
    float[] w;
    synchronized (versions) {
      w = versions.get(v);
    }
    for (int k = 0; k < layers.length; k++) {
      layers[k].load(w, layout.layerOffset(k));
    }
    version = v;
  }

  /** Evaluates version {@code v} exactly (waiting for it) and reports the counts; versions before it are dropped. */
  private void evaluate(long v) throws Exception {
    awaitVersion(v);
    load(v);
    synchronized (versions) {
      versions.headMap(v).clear();
    }
    PhaseResult r = null;
    forwardDone = 0;
    for (int k = 0; k < steps.length; k++) {
      r = forward(k, 0, false);
    }
    driver.send(new AsyncMessages.VersionAccuracy(v, (PhaseResult.Accuracy) r));
  }

  /** Aggregates the sorted ready rows as runs of consecutive rows. */
  private static void aggregateRuns(LayerStep s, int[] rows) {
    for (int i = 0; i < rows.length; ) {
      int j = i + 1;
      while (j < rows.length && rows[j] == rows[j - 1] + 1) {
        j++;
      }
      s.forwardAggregate(rows[i], rows[j - 1] + 1);
      i = j;
    }
  }

  /** Layer {@code k}'s backward (the layers in reverse order after a training forward). */
  private void backward(int k) throws Exception {
    if (k != backwardNext || k < 0 || epoch == 0) {
      throw new IllegalStateException("backward of layer " + k + ", expected " + backwardNext);
    }
    LayerStep s = steps[k];
    GraphBlock g = partition.graph();
    int n = g.numNodes();
    DenseMatrix dOut;
    if (k == steps.length - 1) {
      if (globalTrain <= 0) {
        throw new IllegalStateException("backward before the driver gave the training row count");
      }
      java.util.Arrays.fill(grads, 0f);
      lossSum = link != null ? link.lossSum(epoch) // dLogits: LINK_LOSS's gradient of the output rows
          : remote != null
          ? remote.loss(s.output(), labels, masks[0], 1f / globalTrain, dLogits, k, version)
          : SoftmaxCrossEntropy.lossAndGradient(s.output(), labels, masks[0], 0, n, 1f / globalTrain, dLogits);
      dOut = dLogits;
    } else {
      dOut = steps[k + 1].inputGradient();
    }
    int base = layout.layerOffset(k);
    s.aggregateBackwardRows(dOut, grads, base);
    s.computeMessageGradients(n, g.numSlots());
    if (stale != null) {
      Background sender = new Background("gradient-send-" + index, () -> stale.send(StaleHalo.GRADIENT, k,
          (int) epoch, s.messageGradients()));
      s.computeMessageGradients(0, n);
      rowStaleness = Math.max(rowStaleness, stale.addGradients(k, (int) epoch, s.messageGradients(),
          staleWaitMillis()));
      sender.join();
    } else {
      HaloExchange ex = HaloExchange.gradients(k, s.messageGradients(), plan.sendRows(k), plan.recvSlots(k),
          graphSpec.getInt(GraphJobOptions.CHUNK_ROWS));
      Background sender = new Background("gradient-send-" + index, () -> ex.sendAll(mesh, index));
      s.computeMessageGradients(0, n);
      ex.receiveAll(mesh, sender);
      sender.join();
    }
    if (remote != null) {
      remote.backward(s, k, version, k > 0, grads, base);
    } else {
      s.backwardTransform(grads, base);
    }
    backwardNext = k - 1;
  }

  private PhaseResult gradients() {
    if (backwardNext != -1) {
      throw new IllegalStateException("gradients before the backward of layer " + backwardNext);
    }
    backwardNext = -2;
    // The wire refuses a non-finite loss: a diverged partition fails the worker with the driver's own reason,
    // which ends the run with exit 1 naming the epoch.
    TrainingDriver.requireFiniteLoss((int) epoch, lossSum);
    return new PhaseResult.TrainStep(lossSum, new WeightGradients(version, grads.clone()));
  }

  @Override
  public void close() {
    if (stale != null) {
      stale.close();
    }
    if (tensorClient != null) {
      tensorClient.close();
    }
    mesh.close();
  }
}
