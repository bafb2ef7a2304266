package org.yarngnn.app.train;

import static java.util.Map.entry;

import java.util.List;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.options.CommandOptions;
import org.yarngnn.app.options.Option;
import org.yarngnn.compute.link.LinkLoss;
import org.yarngnn.compute.link.LinkSplit;
import org.yarngnn.compute.link.NegativeSampler;

/**
 * The options of {@code train --task link} (docs/link-prediction.md), as the link code reads them
 * ({@link TrainOptions#link()}): held-out fractions when the edges table has no {@code split} column
 * ({@code --link-split VAL,TEST}), negatives per positive and their sampler, the loss and its temperature, and the
 * evaluation negatives of MRR and hits@K. Parsed and checked with the rest of the options; travels in job.xml under
 * the same {@code yarngnn.OPTION} keys, written only for a link job so a classification job's configuration
 * is unchanged.
 */
public record LinkOptions(double valFraction, double testFraction, int negatives, NegativeSampler.Kind sampler,
    LinkLoss.Kind loss, double temperature, int evalNegatives, String pairs, String pairsWorkDir) {
  public static final Option<Boolean> TASK = Option.choice("task", "classify|link", false,
      "node classification (default) or link prediction", entry("classify", false), entry("link", true));
  public static final Option<double[]> LINK_SPLIT = Option.of("link-split", "VAL,TEST", new double[] {0.05, 0.10},
      v -> {
    String[] f = v.split(",", -1);
    try {
      if (f.length != 2) {
        throw new NumberFormatException();
      }
      return new double[] {Double.parseDouble(f[0].trim()), Double.parseDouble(f[1].trim())};
    } catch (NumberFormatException e) {
      throw new UsageException("option --link-split needs two fractions VAL,TEST, not '" + v + "'");
    }
  }, v -> v[0] + "," + v[1], "link: without a split column in the edges table, the fractions of edge pairs held "
      + "out for validation and test (default 0.05,0.10; 0,0 trains on every edge)");
  public static final Option<Long> NEGATIVES = Option.whole("negatives", "K", 1L, 1, 10_000,
      "link: negative destinations per positive each epoch (default {default})");
  public static final Option<NegativeSampler.Kind> SAMPLER = Option.choice("negative-sampler", "uniform|degree",
      NegativeSampler.Kind.UNIFORM, "link: negatives uniform or proportional to in-degree^0.75 (default uniform)",
      entry("uniform", NegativeSampler.Kind.UNIFORM), entry("degree", NegativeSampler.Kind.DEGREE));
  public static final Option<LinkLoss.Kind> LOSS = Option.choice("loss", "bce|bpr|softmax", LinkLoss.Kind.BCE,
      "link: the loss (default bce)", entry("bce", LinkLoss.Kind.BCE), entry("bpr", LinkLoss.Kind.BPR),
      entry("softmax", LinkLoss.Kind.SOFTMAX));
  public static final Option<Double> TEMPERATURE = Option.number("temperature", "T", 1, v -> v > 0 && Double.isFinite(v)
      ? null : "option --temperature must be a positive number, not " + v,
      "link: scores are divided by T in the loss (default {default})");
  public static final Option<Long> EVAL_NEGATIVES = Option.whole("eval-negatives", "R", 100L, 1, 100_000, "link: "
      + "negatives each held-out edge is ranked among for mrr and hits@K (default {default})");
  public static final Option<String> PAIRS = Option.text("link-pairs", "DIR", null, "link: also write the evaluation "
      + "pairs as edges tables: DIR/train (the message graph), DIR/val, DIR/test (held-out edges) and "
      + "DIR/val-negatives, DIR/test-negatives (their AUC negatives, row for row)");
  /** job.xml: the work directory of {@code --link-pairs}'s commit (the client begins it, the driver commits it). */
  public static final Option<String> PAIRS_WORK_DIR = Option.text("job.link-pairs-work-dir", null, null, "").internal();
  /** The options that only a link job accepts. */
  static final List<Option<?>> LINK_ONLY = List.of(LINK_SPLIT, NEGATIVES, SAMPLER, LOSS, TEMPERATURE,
      EVAL_NEGATIVES, PAIRS);
  /** Every link option, in job.xml only for a link job ({@link TrainOptions#toConfiguration()}). */
  static final List<Option<?>> DECLARED = CommandOptions.concat(List.of(TASK), LINK_ONLY, List.of(PAIRS_WORK_DIR));

  /**
   * The tables {@code --link-pairs DIR} holds, each an edges table ({@code src}, {@code dst}; {@code train} with
   * {@code weight} when the edges have one): the message graph's directed edges, the held-out edges of each set,
   * and each held-out edge's AUC/AP negative (row for row, per worker part).
   */
  public static final String[] PAIR_TABLES = {"train", "val", "val-negatives", "test", "test-negatives"};

  /** Without {@code --link-pairs} (as a checkpoint keeps them). */
  public LinkOptions(double valFraction, double testFraction, int negatives, NegativeSampler.Kind sampler,
      LinkLoss.Kind loss, double temperature, int evalNegatives) {
    this(valFraction, testFraction, negatives, sampler, loss, temperature, evalNegatives, null, null);
  }

  static OptionSpec declare(OptionSpec spec) {
    return CommandOptions.declare(spec, CommandOptions.concat(List.of(TASK), LINK_ONLY));
  }

  /** Reads the link options of the command line; classification refuses them (exit 2). */
  static void read(CommandOptions.Builder<?> b, CommandLine cl) {
    if (!b.read(cl, List.of(TASK)).get(TASK)) {
      for (Option<?> o : LINK_ONLY) {
        if (cl.has(o.name())) {
          throw new UsageException("option --" + o.name() + " applies to --task link only");
        }
      }
      return;
    }
    b.read(cl, DECLARED);
  }

  /** The link options of a {@code --task link} job. */
  static LinkOptions of(TrainOptions o) {
    double[] split = o.get(LINK_SPLIT);
    return new LinkOptions(split[0], split[1], o.getInt(NEGATIVES), o.get(SAMPLER), o.get(LOSS), o.get(TEMPERATURE),
        o.getInt(EVAL_NEGATIVES), o.get(PAIRS), o.get(PAIRS_WORK_DIR));
  }

  /** Refuses (exit 2, naming the option) fractions no link job can run with. */
  void check() {
    String fractions = LinkSplit.checkFractions(valFraction, testFraction);
    if (fractions != null) {
      throw new UsageException("option --link-split: " + fractions);
    }
  }
}
