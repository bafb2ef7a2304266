package org.yarngnn.app.train;

import static java.util.Map.entry;

import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.JobOptions;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.options.Option;

/**
 * Immutable options of a {@code train} job (docs/commands.md "train"): the graph job's ({@link #job()}: tables or
 * partitioned graph, construction, workers, containers, the round timeout) and training's own (the spec, epochs,
 * Adam, dropout, patience, checkpoints, the tensor backend and its pool, staleness, prices, link prediction).
 * Parsed once ({@link #fromCommandLine}), validated once ({@code build()}), handed as this object to the
 * local run and staged as {@code job.xml} on YARN ({@link #toConfiguration()}, {@link #fromConfiguration}), each
 * option under {@code yarngnn.OPTION}; the spec's text travels in {@link #SPEC_JSON}.
 */
public final class TrainOptions extends CommandOptions<TrainOptions> {
  private static final long INT = Integer.MAX_VALUE;

  /** Where the tensor work runs. */
  public enum TensorBackend { LOCAL, REMOTE }

  public static final Option<String> MODEL_SPEC = Option.text("model-spec", "FILE", null, "the model to train: a "
      + "model.json without weights (output.predict true), or a directory holding only one");
  public static final Option<Long> EPOCHS = Option.whole("epochs", "N", 200L, 1, INT, "epochs (default {default})");
  public static final Option<Double> LR = Option.number("lr", "RATE", 0.01,
      v -> v > 0 && Double.isFinite(v) ? null : "option --lr must be a positive number, not " + v,
      "Adam's learning rate (default {default})");
  public static final Option<Double> WEIGHT_DECAY = Option.number("weight-decay", "L2", 0, atLeastZero("weight-decay"),
      "L2 penalty added to every weight's gradient, as torch.optim.Adam (default 0)");
  public static final Option<Double> DROPOUT = Option.number("dropout", "P", 0.5, v -> v >= 0 && v < 1 ? null
      : "option --dropout must be at least 0 and below 1, not " + v, "dropout of every layer's input and of gat "
      + "attention (default {default}); a layer's \"dropout\" in the spec wins");
  public static final Option<Long> PATIENCE = Option.whole("patience", "P", 0L, 0, INT,
      "stop when the validation accuracy has not improved for P epochs (default: never)");
  public static final Option<Long> CHECKPOINT_EVERY = Option.whole("checkpoint-every", "K", 0L, 0, INT,
      "checkpoint every "
      + "K epochs into .MODEL_DIR.yarn-gnn-checkpoint beside the output (default {default} = never)");
  public static final Option<String> RESUME = Option.text("resume", "MODEL_DIR", null, "continue the stopped run whose "
      + "output is MODEL_DIR from its last checkpoint (the same options; --epochs may grow; --output may be left out)");
  public static final Option<TensorBackend> TENSOR_BACKEND = Option.choice("tensor-backend", "local|remote",
      TensorBackend.LOCAL, "tensor work in the graph workers (local, default) or on an elastic pool of stateless "
      + "tensor workers (remote)", entry("local", TensorBackend.LOCAL), entry("remote", TensorBackend.REMOTE));
  public static final Option<Long> TENSOR_WORKERS = Option.whole("tensor-workers", "M", 2L, 1, 10_000,
      "tensor workers the remote pool starts with (default {default})");
  public static final Option<Long> TENSOR_WORKERS_MIN = Option.whole("tensor-workers-min", "M", 1L, 1, 10_000,
      "the pool shrinks to no fewer (default {default})");
  /** Not given: twice {@link #TENSOR_WORKERS}, resolved by {@code build()}. */
  public static final Option<Long> TENSOR_WORKERS_MAX = Option.whole("tensor-workers-max", "M", null, 1, 10_000,
      "the pool grows to no more (default 2 x --tensor-workers)");
  public static final Option<Long> TENSOR_WORKER_MEMORY = Option.whole("tensor-worker-memory", "MB", 1024L, 256,
      1 << 20,
      "memory of a tensor-worker container (default {default})");
  public static final Option<Long> TENSOR_WORKER_VCORES = Option.whole("tensor-worker-vcores", "N", 1L, 1, 1024,
      "vcores of a tensor-worker container, and its compute threads (default {default})");
  public static final Option<Long> PARAMETER_SERVERS = Option.whole("parameter-servers", "K", 1L, Long.MIN_VALUE,
      Long.MAX_VALUE, "parameter servers (only 1: it runs in the ApplicationMaster)").checked(v -> v == 1 ? null
      : "option --parameter-servers " + v + ": only 1 (the parameter server runs in the ApplicationMaster, or in "
      + "the client's JVM with --local)");
  public static final Option<Double> PRICE_GRAPH_WORKER = price("price-graph-worker-hour", 0.17,
      "price of a graph-worker container hour in metrics.json's cost (default {default})");
  public static final Option<Double> PRICE_TENSOR_WORKER = price("price-tensor-worker-hour", 0.06,
      "price of a tensor-worker container hour (default {default})");
  public static final Option<Double> PRICE_PARAMETER_SERVER = price("price-parameter-server-hour", 0.17,
      "price of a parameter-server hour (default {default})");
  public static final Option<Long> STALENESS = Option.whole("staleness", "S", 0L, 0, INT,
      "bounded asynchrony: epochs may "
      + "overlap by S, neighbour rows up to S epochs old (0: synchronous)");
  public static final Option<Long> INTERVALS = Option.whole("intervals", "I", 4L, 1, 1 << 20, "vertex intervals each "
      + "partition's rows are cut into, the tensor tasks of the remote backend (default {default}; more when an "
      + "interval would exceed 8 MB)");

  /** Internal: the model spec's JSON text (workers and the AM read no spec file). */
  public static final Option<String> SPEC_JSON = Option.text("job.model-spec-json", null, null, "").internal();
  /** Advanced: the tensor pool grows while a task waits longer than this many ms. */
  public static final Option<Long> GROW_AFTER = poolTiming("tensor-pool.grow-after-ms", 500);
  /** Advanced: a tensor worker idle this many ms is retired, down to --tensor-workers-min. */
  public static final Option<Long> IDLE = poolTiming("tensor-pool.idle-ms", 30_000);

  /** Training's own options, beside {@link GraphJobOptions#DECLARED} and {@link LinkOptions}. */
  static final List<Option<?>> DECLARED = List.of(MODEL_SPEC, EPOCHS, LR, WEIGHT_DECAY, DROPOUT, PATIENCE,
      CHECKPOINT_EVERY, RESUME, TENSOR_BACKEND, TENSOR_WORKERS, TENSOR_WORKERS_MIN, TENSOR_WORKERS_MAX,
      TENSOR_WORKER_MEMORY, TENSOR_WORKER_VCORES, PARAMETER_SERVERS, PRICE_GRAPH_WORKER, PRICE_TENSOR_WORKER,
      PRICE_PARAMETER_SERVER, STALENESS, INTERVALS, SPEC_JSON, GROW_AFTER, IDLE);

  private static Function<Double, String> atLeastZero(String name) {
    return v -> v >= 0 && Double.isFinite(v) ? null : "option --" + name + " must be at least 0, not " + v;
  }

  private static Option<Double> price(String name, double dflt, String help) {
    return Option.number(name, "USD", dflt, atLeastZero(name), help);
  }

  private static Option<Long> poolTiming(String name, long dflt) {
    return Option.whole(name, null, dflt, Long.MIN_VALUE, Long.MAX_VALUE, "").internal().checked(v -> v >= 0 ? null
        : "-D yarngnn.tensor-pool.grow-after-ms and -D yarngnn.tensor-pool.idle-ms must be at least 0");
  }

  private TrainOptions(Builder<TrainOptions> b) {
    super(b);
  }

  public static Builder<TrainOptions> builder() {
    return new Builder<>("train", CommandOptions.concat(GraphJobOptions.DECLARED, DECLARED, LinkOptions.DECLARED),
        TrainOptions::finish);
  }

  // ---- the command line --------------------------------------------------------------------------------------

  public static OptionSpec optionSpec() {
    OptionSpec spec = GraphJobOptions.declare(JobOptions.kerberos(new OptionSpec("train",
        "(--edges PATH --nodes PATH | --graph DIR) --model-spec model.json --output MODEL_DIR [--local] [--workers N]")),
        "the model directory written: model.json, weights.safetensors, metrics.json");
    return LinkOptions.declare(CommandOptions.declare(spec, DECLARED));
  }

  public static TrainOptions fromCommandLine(CommandLine cl) {
    return parse(cl).set(GraphJobOptions.LOCAL, JobOptions.runLocally(cl)).build();
  }

  private static Builder<TrainOptions> parse(CommandLine cl) {
    Builder<TrainOptions> b = builder().read(cl, CommandOptions.concat(GraphJobOptions.DECLARED, DECLARED));
    LinkOptions.read(b, cl);
    return b;
  }

  /** Every option as {@code yarngnn.OPTION}; the link options only for a link job (classification's as before). */
  @Override
  public Configuration toConfiguration() {
    Configuration c = super.toConfiguration();
    if (link() == null) {
      LinkOptions.DECLARED.forEach(o -> c.unset(o.key()));
    }
    return c;
  }

  /** The options {@link #toConfiguration()} wrote, parsed and validated as the command line is. */
  public static TrainOptions fromConfiguration(Configuration conf) {
    return parse(CommandLine.parse(optionSpec(), new String[0], conf)).build();
  }

  /** The graph side of the job, as the shared construction code takes it. */
  public GraphJobOptions job() {
    return GraphJobOptions.of(this);
  }

  /** Prices per container hour of a graph worker, a tensor worker and a parameter server (USD). */
  public double[] prices() {
    return new double[] {get(PRICE_GRAPH_WORKER), get(PRICE_TENSOR_WORKER), get(PRICE_PARAMETER_SERVER)};
  }

  /** The link-prediction options of {@code --task link}; null for node classification (the default task). */
  public LinkOptions link() {
    return get(LinkOptions.TASK) ? LinkOptions.of(this) : null;
  }

  private static TrainOptions finish(Builder<TrainOptions> b) {
    if (b.get(MODEL_SPEC) == null) {
      throw new UsageException("train needs --model-spec (a model.json without weights)");
    }
    if (b.get(RESUME) != null && b.get(GraphJobOptions.OUTPUT) == null) {
      b.set(GraphJobOptions.OUTPUT, b.get(RESUME)); // --resume MODEL_DIR continues the run whose output is MODEL_DIR
    }
    GraphJobOptions.check(b);
    b.require(GraphJobOptions.OUTPUT);
    if (b.get(TENSOR_WORKERS_MAX) == null) {
      b.set(TENSOR_WORKERS_MAX, 2 * b.get(TENSOR_WORKERS));
    }
    TrainOptions o = new TrainOptions(b);
    long workers = o.get(TENSOR_WORKERS);
    if (o.get(TENSOR_WORKERS_MIN) > workers) {
      throw new UsageException("option --tensor-workers-min must be between 1 and " + workers + ", not "
          + o.get(TENSOR_WORKERS_MIN));
    }
    if (o.get(TENSOR_WORKERS_MAX) < workers) {
      throw new UsageException("option --tensor-workers-max must be between " + workers + " and 10000, not "
          + o.get(TENSOR_WORKERS_MAX));
    }
    long staleness = o.get(STALENESS);
    boolean resume = o.get(RESUME) != null;
    long checkpointEvery = o.get(CHECKPOINT_EVERY);
    if (staleness > 0 && (resume || checkpointEvery > 0)) {
      throw new UsageException("--staleness " + staleness + " with " + (resume ? "--resume"
          : "--checkpoint-every") + ": checkpoints are "
          + "synchronous only (an asynchronous run's epochs overlap, so no epoch ends with all state in one place)");
    }
    if (o.link() != null) {
      o.link().check();
      String unsupported = staleness > 0 ? "--staleness " + staleness
          : o.get(TENSOR_BACKEND) == TensorBackend.REMOTE ? "--tensor-backend remote" : null;
      if (unsupported != null) {
        // Not built yet for link prediction (docs/link-prediction.md): refused rather than run wrongly.
        throw new UsageException("train --task link does not support " + unsupported + " yet (it trains "
            + "synchronously, with the local tensor backend)");
      }
    }
    return o;
  }
}
