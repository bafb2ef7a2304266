package org.yarngnn.app.train;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yarngnn.app.graphworker.ConstructionRounds;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.runtime.DriverSession;
import org.yarngnn.app.runtime.FaultHooks;
import org.yarngnn.app.runtime.JobTransport;
import org.yarngnn.app.runtime.Participants;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;
import org.yarngnn.app.runtime.WeightGradients;
import org.yarngnn.app.runtime.Weights;
import org.yarngnn.app.runtime.WorkerLauncher;
import org.yarngnn.app.tensor.PoolMessages;
import org.yarngnn.app.tensor.PoolOptions;
import org.yarngnn.app.tensor.TensorLauncher;
import org.yarngnn.app.tensor.TensorPool;
import org.yarngnn.compute.link.LinkMetrics;
import org.yarngnn.compute.link.LinkTrainer;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.train.Parameters;
import org.yarngnn.io.table.InputException;
import org.yarngnn.partition.Ownership;

/**
 * Drives a distributed training through a {@link DriverSession}: construction as inference's (read, route,
 * build, or load a partitioned graph), LABELS (the global training count, told to every worker), PLAN, the
 * parameter server's version-0 {@link Weights}; then per epoch FORWARD of every layer, BACKWARD of every layer
 * in reverse, GRADIENTS (every worker's loss sum and weight gradients), one {@link ParameterService#step} whose
 * new weights go to every worker, and EVALUATE of every layer (dropout off, after the step, as the single-JVM
 * trainer does). Prints one line per epoch, keeps the weights of the best validation epoch (the first on ties)
 * and stops after {@code --patience} epochs without a better one. Runs in the ApplicationMaster or, with
 * {@code --local}, in the client JVM.
 *
 * <p>Every {@code --checkpoint-every} epochs it writes a {@link Checkpoint}: the parameter server's
 * {@link ParameterService.OptimizerState}, the best epoch and its weights, every epoch's figures. With
 * {@code --resume} it reads the latest one first (refusing other options), checks the graph's size once the
 * workers built it, gives the workers the checkpoint's weights (version = the epoch) and continues at the next
 * epoch: since masks and samples are keyed by seed and epoch and the server sums in worker order, the epochs
 * that follow are those of a run that was never stopped.
 */
public final class TrainingDriver {
  /**
   * One epoch's figures: the training loss (before the step), the accuracies after it, its seconds, and with
   * {@code --staleness S > 0} how stale the epoch ran: the oldest neighbour rows any worker read (epochs behind)
   * and the oldest weights (versions behind the synchronous {@code epoch - 1}); both at most S, both 0 at S = 0.
   */
  public record Epoch(int epoch, double loss, double trainAccuracy, double valAccuracy, double testAccuracy,
      double seconds, int rowStaleness, int weightStaleness, LinkTrainer.Figures link) {
    /** An epoch of node classification. */
    public Epoch(int epoch, double loss, double trainAccuracy, double valAccuracy, double testAccuracy,
        double seconds, int rowStaleness, int weightStaleness) {
      this(epoch, loss, trainAccuracy, valAccuracy, testAccuracy, seconds, rowStaleness, weightStaleness, null);
    }

    /** A synchronous epoch of link prediction: the validation figures {@code val} of the weights after it. */
    static Epoch ofLink(int epoch, double loss, LinkTrainer.Figures val, double seconds) {
      return new Epoch(epoch, loss, 0, 0, 0, seconds, 0, 0, val);
    }

    /** What the best epoch is chosen by: validation accuracy, or for link prediction validation AUC. */
    double selection() {
      return link != null ? link.auc() : valAccuracy;
    }

    /** A synchronous epoch. */
    public Epoch(int epoch, double loss, double trainAccuracy, double valAccuracy, double testAccuracy,
        double seconds) {
      this(epoch, loss, trainAccuracy, valAccuracy, testAccuracy, seconds, 0, 0);
    }

    static Epoch of(int epoch, double loss, PhaseResult.Accuracy a, double seconds, int rowStaleness,
        int weightStaleness) {
      return new Epoch(epoch, loss, fraction(a.trainCorrect(), a.trainCount()), fraction(a.valCorrect(),
          a.valCount()), fraction(a.testCorrect(), a.testCount()), seconds, rowStaleness, weightStaleness);
    }

    /**
     * An epoch from its figures as metrics.json and the ApplicationMaster's status file carry them
     * ({@link TrainingDriver#epochFigures}): a number that is missing or null (a diverged loss: JSON has no NaN)
     * is NaN, a missing staleness 0 (a checkpoint's epochs have none).
     */
    public static Epoch fromFigures(Map<?, ?> f) {
      if (f.containsKey("val_auc")) {
        return new Epoch((int) figure(f, "epoch"), figure(f, "loss"), 0, 0, 0, figure(f, "seconds"),
            (int) staleness(f, "row_staleness"), (int) staleness(f, "weight_staleness"), linkFigures(f, "val_"));
      }
      return new Epoch((int) figure(f, "epoch"), figure(f, "loss"), figure(f, "train_accuracy"),
          figure(f, "val_accuracy"), figure(f, "test_accuracy"), figure(f, "seconds"),
          (int) staleness(f, "row_staleness"), (int) staleness(f, "weight_staleness"));
    }

    /** The link figures named {@code prefix}auc, ... in {@code f} (as {@link #linkFigures(String, Map,
     * LinkTrainer.Figures)} writes them). */
    static LinkTrainer.Figures linkFigures(Map<?, ?> f, String prefix) {
      return new LinkTrainer.Figures(figure(f, prefix + "auc"), figure(f, prefix + "ap"), figure(f, prefix + "mrr"),
          figure(f, prefix + "hits@10"), figure(f, prefix + "hits@50"), figure(f, prefix + "hits@100"));
    }

    private static double figure(Map<?, ?> f, String key) {
      return f.get(key) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static long staleness(Map<?, ?> f, String key) {
      return f.get(key) instanceof Number n ? n.longValue() : 0;
    }

    /** The epoch's line, as the driver's log and the client print it after {@code "yarn-gnn train: "}. */
    public String line() {
      if (link != null) {
        return String.format(Locale.ROOT, "epoch %d loss %.4f val auc %.4f ap %.4f mrr %.4f %.2f s", epoch, loss,
            link.auc(), link.ap(), link.mrr(), seconds);
      }
      return String.format(Locale.ROOT, "epoch %d loss %.4f train %.2f val %.2f test %.2f %.2f s%s", epoch, loss,
          trainAccuracy, valAccuracy, testAccuracy, seconds, rowStaleness + weightStaleness == 0 ? ""
              : String.format(Locale.ROOT, " (staleness: rows %d, weights %d)", rowStaleness, weightStaleness));
    }
  }

  /**
   * The epochs so far and the best of them (the first of the best validation accuracy): its weights, epoch and
   * accuracies; prints each epoch's line and tells when {@code --patience} stops the run.
   */
  static final class EpochLog {
    final List<Epoch> epochs = new ArrayList<>();
    private final int patience;
    private final PrintStream log;
    float[] best;
    int bestEpoch;
    double bestVal = -1;
    double bestTest;
    /** Link prediction: the best epoch's validation figures, and its test figures (taken only at a new best). */
    LinkTrainer.Figures bestLinkVal;
    LinkTrainer.Figures bestLinkTest;

    /** Called with every epoch recorded (the job page's chart); may be null. */
    private final java.util.function.Consumer<Epoch> onEpoch;

    EpochLog(int patience, PrintStream log, java.util.function.Consumer<Epoch> onEpoch) {
      this.patience = patience;
      this.log = log;
      this.onEpoch = onEpoch;
    }

    /** Continues after checkpoint {@code s}: its epochs, its best epoch (with link prediction, its figures). */
    void resume(Checkpoint.State s) {
      epochs.addAll(s.epochs());
      best = s.best();
      bestEpoch = s.bestEpoch();
      bestVal = s.bestVal();
      bestTest = s.bestTest();
      bestLinkVal = s.bestLinkVal();
      bestLinkTest = s.bestLinkTest();
    }

    /** The best epoch's accuracies measured again, exactly (after asynchronous epochs). */
    void exact(PhaseResult.Accuracy a) {
      double val = fraction(a.valCorrect(), a.valCount());
      double test = fraction(a.testCorrect(), a.testCount());
      log.printf(Locale.ROOT, "yarn-gnn train: best epoch %d evaluated with exact rows: val %.4f test %.4f (with "
          + "stale rows: val %.4f test %.4f)%n", bestEpoch, val, test, bestVal, bestTest);
      bestVal = val;
      bestTest = test;
    }

    /** Adds epoch {@code ep}, whose step gave {@code weights}; true when patience says stop. */
    boolean record(Epoch ep, float[] weights) {
      return record(ep, weights, null);
    }

    /**
     * As above; for link prediction {@code test} gives the epoch's test figures, asked only when the epoch is a
     * new best (so no test figure is computed for, or can influence, the choice). Without validation edges
     * (selection NaN) every epoch is the newest best and patience never stops the run.
     */
    boolean record(Epoch ep, float[] weights, java.util.function.Supplier<LinkTrainer.Figures> test) {
      log.println("yarn-gnn train: " + ep.line());
      requireFiniteLoss(ep.epoch(), ep.loss());
      epochs.add(ep);
      if (onEpoch != null) {
        onEpoch.accept(ep);
      }
      double selection = ep.selection();
      if (selection > bestVal || Double.isNaN(selection)) {
        bestVal = selection;
        bestTest = ep.testAccuracy();
        bestEpoch = ep.epoch();
        best = weights;
        if (ep.link() != null) {
          bestLinkVal = ep.link();
          bestLinkTest = test.get();
          bestTest = bestLinkTest.auc();
        }
      } else if (patience > 0 && ep.epoch() - bestEpoch >= patience) {
        log.printf(Locale.ROOT, "yarn-gnn train: no better validation %s for %d epochs: stopping%n",
            ep.link() != null ? "AUC" : "accuracy", patience);
        return true;
      }
      return false;
    }
  }

  /**
   * Stops the run at the first non-finite loss: Adam never recovers from non-finite weights, every later epoch
   * would be NaN too, and metrics.json cannot hold one. The output is then not committed.
   */
  static void requireFiniteLoss(int epoch, double loss) {
    if (!Double.isFinite(loss)) {
      throw new IllegalStateException("loss became " + (Double.isNaN(loss) ? "NaN" : "infinite") + " at epoch "
          + epoch + " (try a smaller --lr)");
    }
  }

  /** As {@link #requireFiniteLoss} for the weights a step gave, before anything is evaluated with them. */
  private static void requireFiniteWeights(int epoch, float[] weights) {
    for (float w : weights) {
      if (!Float.isFinite(w)) {
        throw new IllegalStateException("weights became non-finite in the step of epoch " + epoch
            + " (try a smaller --lr)");
      }
    }
  }

  /** The run: the best epoch's model, every epoch, per-worker figures, and the workers' seconds. */
  public record Result(Model model, int bestEpoch, double bestValAccuracy, double bestTestAccuracy,
      List<Epoch> epochs, List<Map<String, Double>> workers, double seconds, Pool pool, LinkTrainer.Figures bestLinkVal,
      LinkTrainer.Figures bestLinkTest) {
    /** Whether the run trained link prediction (its best figures are {@link #bestLinkVal}, {@link #bestLinkTest}). */
    public boolean link() {
      return bestLinkVal != null;
    }
  }

  /**
   * The remote tensor backend's figures (null with the local backend): the pool size over time, the tensor
   * workers' seconds, the workers lost and replaced, the parameter server's most and final live weight versions.
   */
  public record Pool(List<TensorPool.SizeAt> sizes, double tensorWorkerSeconds, int lostWorkers, int launches,
      int retired, int maxLiveVersions, int liveVersionsAtEnd) {}

  private final TrainOptions opts;
  private final ModelSpec spec;
  private final JobTransport transport;
  private final WorkerLauncher launcher;
  private final DriverSession.Progress progress;
  private final PrintStream log;
  private final Checkpoint checkpoints;
  private final TensorLauncher tensors;
  private FaultHooks faults = FaultHooks.NONE;
  private DriverSession session;

  /** {@code checkpoints}: where {@code --checkpoint-every} writes and {@code --resume} reads (null: neither). */
  public TrainingDriver(TrainOptions opts, ModelSpec spec, JobTransport transport, WorkerLauncher launcher,
      DriverSession.Progress progress, PrintStream log, Checkpoint checkpoints) {
    this(opts, spec, transport, launcher, progress, log, checkpoints, null);
  }

  /** {@code tensors}: where the remote backend's tensor workers come from (null: the local backend). */
  public TrainingDriver(TrainOptions opts, ModelSpec spec, JobTransport transport, WorkerLauncher launcher,
      DriverSession.Progress progress, PrintStream log, Checkpoint checkpoints, TensorLauncher tensors) {
    this.tensors = tensors;
    if ((tensors != null) != (opts.get(TrainOptions.TENSOR_BACKEND) == TrainOptions.TensorBackend.REMOTE)) {
      throw new IllegalArgumentException("the remote tensor backend, and only it, needs tensor workers");
    }
    this.opts = opts;
    this.spec = spec;
    this.transport = transport;
    this.launcher = launcher;
    this.progress = progress;
    this.log = log;
    this.checkpoints = checkpoints;
    if (checkpoints == null && (opts.get(TrainOptions.RESUME) != null
        || opts.getInt(TrainOptions.CHECKPOINT_EVERY) > 0)) {
      throw new IllegalArgumentException("--resume and --checkpoint-every need the checkpoints' place");
    }
  }

  /** The faults a test injects into this run (the job's {@link FaultHooks}). */
  public TrainingDriver faults(FaultHooks hooks) {
    this.faults = hooks;
    return this;
  }

  public Result run() throws Exception {
    long t0 = System.nanoTime();
    int layers = spec.layers().size();
    Checkpoint.State resumed = null;
    if (opts.get(TrainOptions.RESUME) != null) {
      resumed = checkpoints.read(spec);
      checkpoints.checkOptions(resumed, opts, spec);
    }
    ParameterServer ps = new ParameterServer(spec, opts.get(GraphJobOptions.SEED), opts.get(TrainOptions.LR),
        opts.get(TrainOptions.WEIGHT_DECAY));
    TensorPool pool = null;
    try (DriverSession s = new DriverSession(TrainCodec.CODEC, transport, launcher,
        opts.get(GraphJobOptions.ROUND_TIMEOUT),
        progress, log)) {
      session = s;
      int p = opts.getInt(GraphJobOptions.WORKERS);
      s.start(p);
      if (tensors != null) {
        pool = new TensorPool(new PoolOptions(opts.getInt(TrainOptions.TENSOR_WORKERS),
            opts.getInt(TrainOptions.TENSOR_WORKERS_MIN), opts.getInt(TrainOptions.TENSOR_WORKERS_MAX),
            opts.get(TrainOptions.GROW_AFTER), opts.get(TrainOptions.IDLE)),
            tensors, ps::weights, transport.options(TrainCodec.CODEC, Participants.TENSOR_POOL), transport.host(),
            log);
        pool.start();
        s.broadcast(new PoolMessages.PoolAddress(pool.address()));
        log.printf(Locale.ROOT, "yarn-gnn train: remote tensor backend: %d tensor workers (%d..%d), %d intervals "
            + "per partition%n", opts.getInt(TrainOptions.TENSOR_WORKERS), opts.getInt(TrainOptions.TENSOR_WORKERS_MIN),
            opts.getInt(TrainOptions.TENSOR_WORKERS_MAX),
            opts.getInt(TrainOptions.INTERVALS));
      }
      round(new PhaseCommand(Phase.JOB), 0.02f);
      List<PhaseResult> sizes;
      String ownershipText;
      if (opts.get(GraphJobOptions.GRAPH) != null) {
        sizes = round(new PhaseCommand(Phase.LOAD_PARTITION), 0.05f);
        ownershipText = "from " + opts.get(GraphJobOptions.GRAPH);
      } else {
        Ownership own = ConstructionRounds.route(opts.get(GraphJobOptions.OWNERSHIP), p, this::round);
        ownershipText = own.toString();
        sizes = round(new PhaseCommand(Phase.BUILD_EDGES), 0.05f);
      }
      ConstructionRounds.PartitionSummary summary = ConstructionRounds.PartitionSummary.of(sizes);
      log.print(summary.describe("train", p, ownershipText));
      long[] counts = new long[3];
      for (PhaseResult r : round(new PhaseCommand(Phase.LABELS), 0.06f)) {
        PhaseResult.LabelCounts c = (PhaseResult.LabelCounts) r;
        counts[0] += c.train();
        counts[1] += c.val();
        counts[2] += c.test();
      }
      String nodes = opts.get(GraphJobOptions.NODES) != null ? opts.get(GraphJobOptions.NODES)
          : opts.get(GraphJobOptions.GRAPH);
      boolean link = opts.link() != null;
      if (link && counts[0] == 0) {
        throw new InputException(opts.get(GraphJobOptions.EDGES) + ": no training edge is left (0 train, " + counts[1]
            + " val, " + counts[2] + " test edges, split by the table's split column or, without one, --link-split "
            + opts.link().valFraction() + "," + opts.link().testFraction() + "): nothing to train on");
      }
      if (counts[0] == 0) {
        throw new InputException(nodes + ": no labelled row has split 'train': nothing to train on (the nodes "
            + "table needs the label and split columns)");
      }
      log.printf(Locale.ROOT, "yarn-gnn train: %,d train, %,d val, %,d test %s%n", counts[0], counts[1],
          counts[2], link ? "edges" : "rows");
      Checkpoint.GraphSize graphSize = new Checkpoint.GraphSize(summary.nodes(), summary.edges(), counts[0],
          counts[1], counts[2]);
      if (resumed != null) {
        checkpoints.checkGraph(resumed, graphSize);
      }
      s.broadcast(new TrainRows(counts[0]));
      round(new PhaseCommand(Phase.PLAN), 0.08f);
      if (link) {
        round(new PhaseCommand(Phase.LINK_PLAN), 0.08f);
      }
      TensorPool tensorPool = pool;
      EpochLog run = new EpochLog(opts.getInt(TrainOptions.PATIENCE), log, progress == null ? null : ep -> {
        progress.epoch(epochFigures(ep)); // the job page's chart and pool size
        if (tensorPool != null) {
          progress.tensorPool(tensorPool.size(), poolSizes(tensorPool.timeline()));
        }
      });
      int first = 1;
      double secondsBefore = 0;
      if (resumed != null) {
        ps.restore(new ParameterService.OptimizerState(resumed.step(), resumed.weights(), resumed.adamM(),
            resumed.adamV()));
        run.resume(resumed);
        first = resumed.epoch() + 1;
        secondsBefore = resumed.seconds();
        boolean stopped = opts.getInt(TrainOptions.PATIENCE) > 0
            && resumed.epoch() - resumed.bestEpoch() >= opts.getInt(TrainOptions.PATIENCE);
        log.printf(Locale.ROOT, "yarn-gnn train: resuming after epoch %d from %s%s%n", resumed.epoch(),
            checkpoints.dir(), stopped ? " (its --patience had already stopped it)" : "");
        if (stopped) {
          first = opts.getInt(TrainOptions.EPOCHS) + 1;
        }
      }
      s.broadcast(ps.current());
      if (opts.getInt(TrainOptions.STALENESS) > 0) {
        StaleEpochs async = new StaleEpochs(ps, s, opts.getInt(TrainOptions.STALENESS), counts[0], first,
            opts.getInt(TrainOptions.EPOCHS), run);
        session.round(new PhaseCommand(Phase.TRAIN_ASYNC, 0, first, null), 0.1f,
            "epochs (--staleness " + opts.getInt(TrainOptions.STALENESS) + ")", TrainingDriver::expected, async);
        async.finish();
        // The epochs' accuracies read rows up to S epochs old: the model written is evaluated exactly once more.
        s.broadcast(new Weights(ps.version() + 1, run.best));
        run.exact(evaluate(layers, 0, 0.98f));
      }
      for (int e = first; e <= opts.getInt(TrainOptions.EPOCHS) && opts.getInt(TrainOptions.STALENESS) == 0; e++) {
        long te = System.nanoTime();
        float at = 0.08f + 0.9f * e / opts.getInt(TrainOptions.EPOCHS);
        long used = ps.version();
        ps.hold(used); // the epoch's forward and backward run on this version (weight stashing)
        for (int k = 0; k < layers; k++) {
          round(new PhaseCommand(Phase.FORWARD, k, e, null), at);
        }
        if (link) {
          round(new PhaseCommand(Phase.LINK_LOSS, 0, e, null), at);
        }
        for (int k = layers - 1; k >= 0; k--) {
          round(new PhaseCommand(Phase.BACKWARD, k, e, null), at);
        }
        double lossSum = 0;
        List<WeightGradients> grads = new ArrayList<>();
        for (PhaseResult r : round(new PhaseCommand(Phase.GRADIENTS, 0, e, null), at)) {
          PhaseResult.TrainStep t = (PhaseResult.TrainStep) r;
          lossSum += t.lossSum();
          grads.add(t.gradients());
        }
        requireFiniteLoss(e, lossSum / counts[0]);
        Weights next = ps.step(grads);
        requireFiniteWeights(e, next.values());
        ps.release(used);
        s.broadcast(next);
        boolean stop;
        if (link) {
          evaluate(layers, e, at);
          LinkScores scores = LinkScores.of(round(new PhaseCommand(Phase.LINK_EVALUATE, 0, e, null), at));
          stop = run.record(Epoch.ofLink(e, lossSum / counts[0], scores.val(), (System.nanoTime() - te) / 1e9),
              next.values(), scores::test);
        } else {
          PhaseResult.Accuracy acc = evaluate(layers, e, at);
          stop = run.record(Epoch.of(e, lossSum / counts[0], acc, (System.nanoTime() - te) / 1e9, 0, 0),
              next.values());
        }
        if (opts.getInt(TrainOptions.CHECKPOINT_EVERY) > 0 && e % opts.getInt(TrainOptions.CHECKPOINT_EVERY) == 0
            && !stop && e < opts.getInt(TrainOptions.EPOCHS)) {
          ParameterService.OptimizerState st = ps.state();
          checkpoints.write(new Checkpoint.State(Checkpoint.RunOptions.of(opts), graphSize, e, st.step(),
              st.weights(), st.firstMoments(), st.secondMoments(), run.bestEpoch, run.bestVal, run.bestTest,
              run.best, List.copyOf(run.epochs), secondsBefore + (System.nanoTime() - t0) / 1e9, run.bestLinkVal,
              run.bestLinkTest));
          log.printf(Locale.ROOT, "yarn-gnn train: checkpoint of epoch %d in %s%n", e, checkpoints.dir());
        }
        faults.afterEpoch(e);
        if (stop) {
          break;
        }
      }
      List<Map<String, Double>> stats = new ArrayList<>();
      for (PhaseResult r : round(new PhaseCommand(Phase.EXIT), 1f)) {
        stats.add(((PhaseResult.WorkerReport) r).figures());
      }
      Pool figures = null;
      if (pool != null) {
        if (pool.failure() != null) {
          throw new IllegalStateException(pool.failure());
        }
        pool.close();
        figures = new Pool(pool.timeline(), pool.workerSeconds(), pool.lost(), pool.launches(), pool.retired(),
            ps.maxLiveVersions(), ps.liveVersions());
      }
      return new Result(Parameters.toModel(spec, run.best), run.bestEpoch, run.bestVal, run.bestTest,
          List.copyOf(run.epochs), stats,
          secondsBefore + (System.nanoTime() - t0) / 1e9, figures, run.bestLinkVal, run.bestLinkTest);
    } finally {
      if (pool != null) {
        pool.close();
      }
    }
  }

  /** The pool's sizes over time as metrics.json lists them. */
  static List<Map<String, Object>> poolSizes(List<TensorPool.SizeAt> timeline) {
    List<Map<String, Object>> sizes = new ArrayList<>();
    for (TensorPool.SizeAt s : timeline) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("seconds", s.seconds());
      x.put("size", (long) s.size());
      sizes.add(x);
    }
    return sizes;
  }

  private static double fraction(long correct, long count) {
    return count == 0 ? 0 : (double) correct / count;
  }

  /** EVALUATE rounds of every layer (of epoch {@code e}); the last layer's correct counts, summed. */
  private PhaseResult.Accuracy evaluate(int layers, int e, float at) throws Exception {
    List<PhaseResult> rs = null;
    for (int k = 0; k < layers; k++) {
      rs = round(new PhaseCommand(Phase.EVALUATE, k, e, null), at);
    }
    return opts.link() != null ? null : sum(rs);
  }

  /**
   * The workers' held-out scores of one evaluation, concatenated in worker order (AUC and AP are not sums), their
   * rank sums added; validation figures at once, test figures on demand.
   */
  record LinkScores(LinkTrainer.Figures val, float[] testPositive, float[] testNegative,
      LinkMetrics.RankSums testRanks) {
    static LinkScores of(List<PhaseResult> rs) {
      List<PhaseResult.LinkScores> ls = new ArrayList<>();
      for (PhaseResult r : rs) {
        ls.add((PhaseResult.LinkScores) r);
      }
      float[] vp = concat(ls, PhaseResult.LinkScores::valPositive);
      float[] vn = concat(ls, PhaseResult.LinkScores::valNegative);
      LinkMetrics.RankSums vr = LinkMetrics.RankSums.EMPTY;
      LinkMetrics.RankSums tr = LinkMetrics.RankSums.EMPTY;
      for (PhaseResult.LinkScores l : ls) {
        vr = vr.plus(l.valRanks());
        tr = tr.plus(l.testRanks());
      }
      return new LinkScores(figures(vp, vn, vr), concat(ls, PhaseResult.LinkScores::testPositive),
          concat(ls, PhaseResult.LinkScores::testNegative), tr);
    }

    LinkTrainer.Figures test() {
      return figures(testPositive, testNegative, testRanks);
    }

    /** The figures of one set; NaN throughout for an empty set (written as null: JSON has no NaN). */
    static LinkTrainer.Figures figures(float[] pos, float[] neg, LinkMetrics.RankSums ranks) {
      if (pos.length == 0) {
        return new LinkTrainer.Figures(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
      }
      return new LinkTrainer.Figures(LinkMetrics.auc(pos, neg), LinkMetrics.averagePrecision(pos, neg),
          ranks.mrr(), ranks.hits(10), ranks.hits(50), ranks.hits(100));
    }

    private static float[] concat(List<PhaseResult.LinkScores> ls,
        java.util.function.Function<PhaseResult.LinkScores, float[]> part) {
      int n = 0;
      for (PhaseResult.LinkScores l : ls) {
        n += part.apply(l).length;
      }
      float[] out = new float[n];
      int at = 0;
      for (PhaseResult.LinkScores l : ls) {
        float[] p = part.apply(l);
        System.arraycopy(p, 0, out, at, p.length);
        at += p.length;
      }
      return out;
    }
  }

  private static PhaseResult.Accuracy sum(List<PhaseResult> rs) {
    long[] v = new long[6];
    for (PhaseResult r : rs) {
      PhaseResult.Accuracy a = (PhaseResult.Accuracy) r;
      v[0] += a.trainCorrect();
      v[1] += a.trainCount();
      v[2] += a.valCorrect();
      v[3] += a.valCount();
      v[4] += a.testCorrect();
      v[5] += a.testCount();
    }
    return new PhaseResult.Accuracy(v[0], v[1], v[2], v[3], v[4], v[5]);
  }

  private List<PhaseResult> round(PhaseCommand c, float after) throws Exception {
    String label = c.phase().label() + (c.epoch() > 0 ? " epoch " + c.epoch() : "")
        + (PhaseCommand.perLayer(c.phase()) ? " layer " + (c.layer() + 1) : "");
    return session.round(c, after, label, TrainingDriver::expected);
  }

  /** The result kind each phase answers with. */
  static boolean expected(PhaseCommand c, PhaseResult r) {
    switch (c.phase()) {
      case LABELS: return r instanceof PhaseResult.LabelCounts;
      case GRADIENTS: return r instanceof PhaseResult.TrainStep;
      case EVALUATE: return r instanceof PhaseResult.Accuracy || r instanceof PhaseResult.Empty;
      case LINK_EVALUATE: return r instanceof PhaseResult.LinkScores;
      default: return ConstructionRounds.expected(c, r);
    }
  }

  /** One epoch's entry of metrics.json; the job page shows the same. */
  public static Map<String, Object> epochFigures(Epoch e) {
    Map<String, Object> x;
    if (e.link() != null) {
      x = Checkpoint.linkEpochFigures(e);
    } else {
      x = Checkpoint.epochFigures(e);
    }
    x.put("max_staleness", (long) Math.max(e.rowStaleness(), e.weightStaleness()));
    x.put("row_staleness", (long) e.rowStaleness());
    x.put("weight_staleness", (long) e.weightStaleness());
    return x;
  }

  /** The link figures of one set (docs/link-prediction.md), named {@code prefix}auc, ap, mrr, hits@10, hits@50, hits@100. */
  static void linkFigures(String prefix, LinkTrainer.Figures f, Map<String, Object> into) {
    double[] v = {f.auc(), f.ap(), f.mrr(), f.hits10(), f.hits50(), f.hits100()};
    String[] names = {"auc", "ap", "mrr", "hits@10", "hits@50", "hits@100"};
    for (int i = 0; i < v.length; i++) {
      // An empty set (--link-split 0,0 has no validation edges) has no figures: null, as JSON has no NaN.
      into.put(prefix + names[i], Double.isFinite(v[i]) ? v[i] : null);
    }
  }

  /**
   * metrics.json (docs/formats.md, "Model directory written by train"): every epoch, the best one, tasks sent
   * again, the containers' seconds and their cost at {@code prices} (USD per hour: graph worker, tensor worker, parameter server); with the
   * remote backend also the pool size over time and the parameter server's live weight versions. The parameter
   * server runs in the ApplicationMaster (or the --local JVM) with either backend: its seconds are the run's, so
   * the backends' costs compare like for like.
   */
  public static Map<String, Object> metrics(Result r, double graphWorkerSeconds, double[] prices) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", 1L);
    m.put("best_epoch", (long) r.bestEpoch());
    Map<String, Object> best = new LinkedHashMap<>();
    if (r.link()) {
      linkFigures("val_", r.bestLinkVal(), best);
      linkFigures("test_", r.bestLinkTest(), best);
    } else {
      best.put("val_accuracy", r.bestValAccuracy());
      best.put("test_accuracy", r.bestTestAccuracy());
    }
    m.put("best", best);
    List<Object> epochs = new ArrayList<>();
    for (Epoch e : r.epochs()) {
      epochs.add(epochFigures(e));
    }
    m.put("epochs", epochs);
    long resent = 0;
    for (Map<String, Double> w : r.workers()) {
      resent += Math.round(w.getOrDefault("tasks.resent", 0.0));
    }
    m.put("relaunched_tasks", resent);
    Pool pool = r.pool();
    double tensorSeconds = pool == null ? 0 : pool.tensorWorkerSeconds();
    double psSeconds = r.seconds(); // the parameter server lives in the AM (or the --local JVM), either backend
    Map<String, Object> cs = new LinkedHashMap<>();
    cs.put("graph_workers", graphWorkerSeconds);
    cs.put("tensor_workers", tensorSeconds);
    cs.put("parameter_servers", psSeconds);
    m.put("container_seconds", cs);
    Map<String, Object> cost = new LinkedHashMap<>();
    double[] parts = {graphWorkerSeconds * prices[0] / 3600, tensorSeconds * prices[1] / 3600,
        psSeconds * prices[2] / 3600};
    cost.put("graph_workers", parts[0]);
    cost.put("tensor_workers", parts[1]);
    cost.put("parameter_servers", parts[2]);
    cost.put("total", parts[0] + parts[1] + parts[2]);
    cost.put("per_epoch", r.epochs().isEmpty() ? 0.0 : (parts[0] + parts[1] + parts[2]) / r.epochs().size());
    Map<String, Object> price = new LinkedHashMap<>();
    price.put("graph_worker_hour", prices[0]);
    price.put("tensor_worker_hour", prices[1]);
    price.put("parameter_server_hour", prices[2]);
    cost.put("prices_usd", price);
    m.put("cost_usd", cost);
    if (pool != null) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("sizes", poolSizes(pool.sizes()));
      p.put("launched", (long) pool.launches());
      p.put("lost", (long) pool.lostWorkers());
      p.put("retired", (long) pool.retired());
      p.put("max_live_weight_versions", (long) pool.maxLiveVersions());
      p.put("live_weight_versions_at_end", (long) pool.liveVersionsAtEnd());
      m.put("tensor_pool", p);
    }
    return m;
  }
}
