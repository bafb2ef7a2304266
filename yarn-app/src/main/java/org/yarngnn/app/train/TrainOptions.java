package org.yarngnn.app.train;

import static java.util.Map.entry;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.JobOptions;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.graphworker.GraphJobOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.app.options.OptionValues;
import org.yarngnn.partition.MissingFeatures;

/**
 * Immutable options of a {@code train} job (docs/commands.md "train"): the graph job's ({@link #job()}: tables or
 * partitioned graph, construction, workers, containers, the round timeout) and training's own (the spec, epochs,
 * Adam, dropout, patience, checkpoints, the tensor backend and its pool, staleness, prices, link prediction).
 * Parsed once ({@link #fromCommandLine}), validated once ({@link Builder#build()}), handed as this object to the
 * local run and staged as {@code job.xml} on YARN ({@link #toConfiguration()}, {@link #fromConfiguration}), each
 * option under {@code yarngnn.OPTION}; the spec's text travels in {@link #SPEC_JSON_KEY}.
 */
public final class TrainOptions {
  private static final long INT = Integer.MAX_VALUE;

  /** Where the tensor work runs. */
  public enum TensorBackend { LOCAL, REMOTE }

  static final Option<String> MODEL_SPEC = Option.text("model-spec", "FILE", null, "the model to train: a "
      + "model.json without weights (output.predict true), or a directory holding only one");
  static final Option<Long> EPOCHS = Option.whole("epochs", "N", 200L, 1, INT, "epochs (default {default})");
  static final Option<Double> LR = Option.number("lr", "RATE", 0.01,
      v -> v > 0 && Double.isFinite(v) ? null : "option --lr must be a positive number, not " + v,
      "Adam's learning rate (default {default})");
  static final Option<Double> WEIGHT_DECAY = Option.number("weight-decay", "L2", 0, atLeastZero("weight-decay"),
      "L2 penalty added to every weight's gradient, as torch.optim.Adam (default 0)");
  static final Option<Double> DROPOUT = Option.number("dropout", "P", 0.5, v -> v >= 0 && v < 1 ? null
      : "option --dropout must be at least 0 and below 1, not " + v, "dropout of every layer's input and of gat "
      + "attention (default {default}); a layer's \"dropout\" in the spec wins");
  static final Option<Long> PATIENCE = Option.whole("patience", "P", 0L, 0, INT,
      "stop when the validation accuracy has not improved for P epochs (default: never)");
  static final Option<Long> CHECKPOINT_EVERY = Option.whole("checkpoint-every", "K", 0L, 0, INT, "checkpoint every "
      + "K epochs into .MODEL_DIR.yarn-gnn-checkpoint beside the output (default {default} = never)");
  static final Option<String> RESUME = Option.text("resume", "MODEL_DIR", null, "continue the stopped run whose "
      + "output is MODEL_DIR from its last checkpoint (the same options; --epochs may grow; --output may be left out)");
  static final Option<TensorBackend> TENSOR_BACKEND = Option.choice("tensor-backend", "local|remote",
      TensorBackend.LOCAL, "tensor work in the graph workers (local, default) or on an elastic pool of stateless "
      + "tensor workers (remote)", entry("local", TensorBackend.LOCAL), entry("remote", TensorBackend.REMOTE));
  static final Option<Long> TENSOR_WORKERS = Option.whole("tensor-workers", "M", 2L, 1, 10_000,
      "tensor workers the remote pool starts with (default {default})");
  static final Option<Long> TENSOR_WORKERS_MIN = Option.whole("tensor-workers-min", "M", 1L, 1, 10_000,
      "the pool shrinks to no fewer (default {default})");
  /** Not given: twice {@link #TENSOR_WORKERS}, resolved by {@link Builder#build()}. */
  static final Option<Long> TENSOR_WORKERS_MAX = Option.whole("tensor-workers-max", "M", null, 1, 10_000,
      "the pool grows to no more (default 2 x --tensor-workers)");
  static final Option<Long> TENSOR_WORKER_MEMORY = Option.whole("tensor-worker-memory", "MB", 1024L, 256, 1 << 20,
      "memory of a tensor-worker container (default {default})");
  static final Option<Long> TENSOR_WORKER_VCORES = Option.whole("tensor-worker-vcores", "N", 1L, 1, 1024,
      "vcores of a tensor-worker container, and its compute threads (default {default})");
  static final Option<Long> PARAMETER_SERVERS = Option.whole("parameter-servers", "K", 1L, Long.MIN_VALUE,
      Long.MAX_VALUE, "parameter servers (only 1: it runs in the ApplicationMaster)").checked(v -> v == 1 ? null
      : "option --parameter-servers " + v + ": only 1 (the parameter server runs in the ApplicationMaster, or in "
      + "the client's JVM with --local)");
  static final Option<Double> PRICE_GRAPH_WORKER = price("price-graph-worker-hour", 0.17,
      "price of a graph-worker container hour in metrics.json's cost (default {default})");
  static final Option<Double> PRICE_TENSOR_WORKER = price("price-tensor-worker-hour", 0.06,
      "price of a tensor-worker container hour (default {default})");
  static final Option<Double> PRICE_PARAMETER_SERVER = price("price-parameter-server-hour", 0.17,
      "price of a parameter-server hour (default {default})");
  static final Option<Long> STALENESS = Option.whole("staleness", "S", 0L, 0, INT, "bounded asynchrony: epochs may "
      + "overlap by S, neighbour rows up to S epochs old (0: synchronous)");
  static final Option<Long> INTERVALS = Option.whole("intervals", "I", 4L, 1, 1 << 20, "vertex intervals each "
      + "partition's rows are cut into, the tensor tasks of the remote backend (default {default}; more when an "
      + "interval would exceed 8 MB)");

  /** Internal: the model spec's JSON text (workers and the AM read no spec file). */
  static final Option<String> SPEC_JSON = Option.text("job.model-spec-json", null, null, "").internal();
  public static final String SPEC_JSON_KEY = SPEC_JSON.key();
  /** Advanced: the tensor pool grows while a task waits longer than this many ms. */
  static final Option<Long> GROW_AFTER = poolTiming("tensor-pool.grow-after-ms", 500);
  /** Advanced: a tensor worker idle this many ms is retired, down to --tensor-workers-min. */
  static final Option<Long> IDLE = poolTiming("tensor-pool.idle-ms", 30_000);
  public static final String GROW_AFTER_KEY = GROW_AFTER.key();
  public static final String IDLE_KEY = IDLE.key();

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

  private final GraphJobOptions job;
  private final OptionValues values;
  /** {@code --task link}: the link-prediction options; null for node classification. */
  private final LinkOptions link;

  private TrainOptions(GraphJobOptions job, OptionValues values, LinkOptions link) {
    this.job = job;
    this.values = values;
    this.link = link;
  }

  public static Builder builder(GraphJobOptions.Builder job) {
    return new Builder(job, OptionValues.builder(DECLARED), null);
  }

  public Builder toBuilder() {
    return new Builder(job.toBuilder(), values.toBuilder(), link);
  }

  // ---- the command line --------------------------------------------------------------------------------------

  public static OptionSpec optionSpec() {
    OptionSpec spec = GraphJobOptions.declare(JobOptions.kerberos(new OptionSpec("train",
        "(--edges PATH --nodes PATH | --graph DIR) --model-spec model.json --output MODEL_DIR [--local] [--workers N]")),
        "the model directory written: model.json, weights.safetensors, metrics.json");
    return LinkOptions.declare(OptionValues.declare(spec, DECLARED));
  }

  public static TrainOptions fromCommandLine(CommandLine cl) {
    return parse(cl, JobOptions.runLocally(cl));
  }

  private static TrainOptions parse(CommandLine cl, boolean local) {
    Builder b = new Builder(GraphJobOptions.read("train", cl).set(GraphJobOptions.LOCAL, local),
        OptionValues.read(DECLARED, cl), null);
    return b.link(LinkOptions.parse(cl)).build();
  }

  /** Every option as {@code yarngnn.OPTION}, internal fields under {@code job.*}. */
  public Configuration toConfiguration() {
    Configuration c = new Configuration(false);
    job.write(c);
    values.write(c);
    if (link != null) {
      link.writeTo(c);
    }
    return c;
  }

  /** The options {@link #toConfiguration()} wrote, parsed and validated as the command line is. */
  public static TrainOptions fromConfiguration(Configuration conf) {
    CommandLine cl = CommandLine.parse(optionSpec(), new String[0], conf);
    return parse(cl, cl.flag("local"));
  }

  // ---- accessors ---------------------------------------------------------------------------------------------

  /** The graph side of the job, as the shared construction code takes it. */
  public GraphJobOptions job() {
    return job;
  }

  public String modelSpec() {
    return values.get(MODEL_SPEC);
  }

  /** The spec's JSON text, once the client read it (null before). */
  public String specJson() {
    return values.get(SPEC_JSON);
  }

  public int epochs() {
    return values.get(EPOCHS).intValue();
  }

  public double lr() {
    return values.get(LR);
  }

  public double weightDecay() {
    return values.get(WEIGHT_DECAY);
  }

  public double dropout() {
    return values.get(DROPOUT);
  }

  /** Epochs without a better validation accuracy that stop the run; 0: never. */
  public int patience() {
    return values.get(PATIENCE).intValue();
  }

  /** Lost graph workers a job on YARN survives in total (restarting its workers from the last checkpoint). */
  public int maxWorkerFailures() {
    return job.maxWorkerFailures();
  }

  public int checkpointEvery() {
    return values.get(CHECKPOINT_EVERY).intValue();
  }

  /** The output of the stopped run to continue (the same as {@link #output()}), or null. */
  public String resume() {
    return values.get(RESUME);
  }

  public TensorBackend tensorBackend() {
    return values.get(TENSOR_BACKEND);
  }

  public int tensorWorkers() {
    return values.get(TENSOR_WORKERS).intValue();
  }

  public int staleness() {
    return values.get(STALENESS).intValue();
  }

  public int intervals() {
    return values.get(INTERVALS).intValue();
  }

  public int tensorWorkersMin() {
    return values.get(TENSOR_WORKERS_MIN).intValue();
  }

  public int tensorWorkersMax() {
    return values.get(TENSOR_WORKERS_MAX).intValue();
  }

  public int tensorWorkerMemoryMb() {
    return values.get(TENSOR_WORKER_MEMORY).intValue();
  }

  public int tensorWorkerVcores() {
    return values.get(TENSOR_WORKER_VCORES).intValue();
  }

  public int parameterServers() {
    return values.get(PARAMETER_SERVERS).intValue();
  }

  public long growAfterMs() {
    return values.get(GROW_AFTER);
  }

  public long idleMs() {
    return values.get(IDLE);
  }

  /** Prices per container hour of a graph worker, a tensor worker and a parameter server (USD). */
  public double[] prices() {
    return new double[] {values.get(PRICE_GRAPH_WORKER), values.get(PRICE_TENSOR_WORKER),
        values.get(PRICE_PARAMETER_SERVER)};
  }

  /** The link-prediction options of {@code --task link}; null for node classification (the default task). */
  public LinkOptions link() {
    return link;
  }

  public String output() {
    return job.output();
  }

  public int workers() {
    return job.workers();
  }

  public long seed() {
    return job.seed();
  }

  public boolean local() {
    return job.local();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TrainOptions other && job.equals(other.job) && values.equals(other.values)
        && Objects.equals(link, other.link);
  }

  @Override
  public int hashCode() {
    return Objects.hash(job, values, link);
  }

  @Override
  public String toString() {
    Map<String, String> keys = new TreeMap<>();
    toConfiguration().forEach(e -> keys.put(e.getKey(), e.getValue()));
    return "TrainOptions" + keys;
  }

  /** Builds {@link TrainOptions}; {@link #build()} checks every value and throws {@link UsageException}. */
  public static final class Builder {
    private GraphJobOptions.Builder job;
    private final OptionValues.Builder values;
    private LinkOptions link;

    private Builder(GraphJobOptions.Builder job, OptionValues.Builder values, LinkOptions link) {
      this.job = job;
      this.values = values;
      this.link = link;
    }

    /** The graph side, to change in place. */
    public GraphJobOptions.Builder job() {
      return job;
    }

    /** Another graph side (e.g. with the workers resolved or qualified paths). */
    public Builder job(GraphJobOptions.Builder v) {
      job = v;
      return this;
    }

    /** Changes the graph job's options in a chain: {@code .job(j -> j.set(GraphJobOptions.WORKERS, 2))}. */
    public Builder job(java.util.function.Consumer<GraphJobOptions.Builder> change) {
      change.accept(job);
      return this;
    }

    public <T> Builder set(Option<T> option, T value) {
      values.set(option, value);
      return this;
    }

    public Builder modelSpec(String v) {
      return set(MODEL_SPEC, v == null || v.isEmpty() ? null : v);
    }

    public Builder specJson(String v) {
      return set(SPEC_JSON, v);
    }

    public Builder epochs(long v) {
      return set(EPOCHS, v);
    }

    public Builder lr(double v) {
      return set(LR, v);
    }

    public Builder weightDecay(double v) {
      return set(WEIGHT_DECAY, v);
    }

    public Builder resume(String v) {
      return set(RESUME, v == null || v.isEmpty() ? null : v);
    }

    /** {@code --task link} with these options; null: node classification. */
    public Builder link(LinkOptions v) {
      link = v;
      return this;
    }

    public TrainOptions build() {
      if (values.get(MODEL_SPEC) == null) {
        throw new UsageException("train needs --model-spec (a model.json without weights)");
      }
      if (values.get(RESUME) != null && job.get(GraphJobOptions.OUTPUT) == null) {
        job.set(GraphJobOptions.OUTPUT,
            values.get(RESUME)); // --resume MODEL_DIR continues the run whose output is MODEL_DIR
      }
      GraphJobOptions g = job.build();
      job.require(GraphJobOptions.OUTPUT, g.output());
      if (values.get(TENSOR_WORKERS_MAX) == null) {
        values.set(TENSOR_WORKERS_MAX, 2 * values.get(TENSOR_WORKERS));
      }
      OptionValues v = values.build();
      long workers = v.get(TENSOR_WORKERS);
      if (v.get(TENSOR_WORKERS_MIN) > workers) {
        throw new UsageException("option --tensor-workers-min must be between 1 and " + workers + ", not "
            + v.get(TENSOR_WORKERS_MIN));
      }
      if (v.get(TENSOR_WORKERS_MAX) < workers) {
        throw new UsageException("option --tensor-workers-max must be between " + workers + " and 10000, not "
            + v.get(TENSOR_WORKERS_MAX));
      }
      long staleness = v.get(STALENESS);
      boolean resume = v.get(RESUME) != null;
      long checkpointEvery = v.get(CHECKPOINT_EVERY);
      if (staleness > 0 && (resume || checkpointEvery > 0)) {
        throw new UsageException("--staleness " + staleness + " with " + (resume ? "--resume"
            : "--checkpoint-every") + ": checkpoints are "
            + "synchronous only (an asynchronous run's epochs overlap, so no epoch ends with all state in one place)");
      }
      if (link != null) {
        link.check();
        String unsupported = staleness > 0 ? "--staleness " + staleness
            : v.get(TENSOR_BACKEND) == TensorBackend.REMOTE ? "--tensor-backend remote"
            : g.graph() != null ? "--graph" : g.missingFeatures() == MissingFeatures.ZERO
                ? "--missing-features zero" : null;
        if (unsupported != null) {
          // Not built yet for link prediction (docs/link-prediction.md): refused rather than run wrongly.
          throw new UsageException("train --task link does not support " + unsupported + " yet (it reads --edges "
              + "and --nodes tables, synchronously, with the local tensor backend)");
        }
      }
      return new TrainOptions(g, v, link);
    }
  }
}
