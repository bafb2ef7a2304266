package org.yarngnn.app.train;

import static java.util.Map.entry;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.app.options.Option;
import org.yarngnn.app.options.OptionValues;
import org.yarngnn.compute.link.LinkLoss;
import org.yarngnn.compute.link.LinkSplit;
import org.yarngnn.compute.link.NegativeSampler;

/**
 * The options of {@code train --task link} (docs/link-prediction.md), kept together so {@link TrainOptions}
 * gains one field rather than seven: held-out fractions when the edges table has no {@code split} column
 * ({@code --link-split VAL,TEST}), negatives per positive and their sampler, the loss and its temperature, and the
 * evaluation negatives of MRR and hits@K. Parsed and checked with the rest of the options; travels in job.xml under
 * the same {@code yarngnn.OPTION} keys, written only for a link job so a classification job's configuration
 * is unchanged.
 */
public record LinkOptions(double valFraction, double testFraction, int negatives, NegativeSampler.Kind sampler,
    LinkLoss.Kind loss, double temperature, int evalNegatives, String pairs, String pairsWorkDir) {
  static final Option<Boolean> TASK = Option.choice("task", "classify|link", false,
      "node classification (default) or link prediction", entry("classify", false), entry("link", true));
  static final Option<double[]> LINK_SPLIT = Option.of("link-split", "VAL,TEST", new double[] {0.05, 0.10}, v -> {
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
  static final Option<Long> NEGATIVES = Option.whole("negatives", "K", 1L, 1, 10_000,
      "link: negative destinations per positive each epoch (default {default})");
  static final Option<NegativeSampler.Kind> SAMPLER = Option.choice("negative-sampler", "uniform|degree",
      NegativeSampler.Kind.UNIFORM, "link: negatives uniform or proportional to in-degree^0.75 (default uniform)",
      entry("uniform", NegativeSampler.Kind.UNIFORM), entry("degree", NegativeSampler.Kind.DEGREE));
  static final Option<LinkLoss.Kind> LOSS = Option.choice("loss", "bce|bpr|softmax", LinkLoss.Kind.BCE,
      "link: the loss (default bce)", entry("bce", LinkLoss.Kind.BCE), entry("bpr", LinkLoss.Kind.BPR),
      entry("softmax", LinkLoss.Kind.SOFTMAX));
  static final Option<Double> TEMPERATURE = Option.number("temperature", "T", 1, v -> v > 0 && Double.isFinite(v)
      ? null : "option --temperature must be a positive number, not " + v,
      "link: scores are divided by T in the loss (default {default})");
  static final Option<Long> EVAL_NEGATIVES = Option.whole("eval-negatives", "R", 100L, 1, 100_000, "link: "
      + "negatives each held-out edge is ranked among for mrr and hits@K (default {default})");
  static final Option<String> PAIRS = Option.text("link-pairs", "DIR", null, "link: also write the evaluation "
      + "pairs as edges tables: DIR/train (the message graph), DIR/val, DIR/test (held-out edges) and "
      + "DIR/val-negatives, DIR/test-negatives (their AUC negatives, row for row)");
  /** job.xml: the work directory of {@code --link-pairs}'s commit (the client begins it, the driver commits it). */
  static final Option<String> PAIRS_WORK_DIR = Option.text("job.link-pairs-work-dir", null, null, "").internal();
  /** The options that only a link job accepts. */
  static final List<Option<?>> LINK_ONLY = List.of(LINK_SPLIT, NEGATIVES, SAMPLER, LOSS, TEMPERATURE,
      EVAL_NEGATIVES, PAIRS);

  /**
   * The tables {@code --link-pairs DIR} holds, each an edges table ({@code src}, {@code dst}; {@code train} with
   * {@code weight} when the edges have one): the message graph's directed edges, the held-out edges of each set,
   * and each held-out edge's AUC/AP negative (row for row, per worker part).
   */
  public static final String[] PAIR_TABLES = {"train", "val", "val-negatives", "test", "test-negatives"};

  /** Without {@code --link-pairs}. */
  public LinkOptions(double valFraction, double testFraction, int negatives, NegativeSampler.Kind sampler,
      LinkLoss.Kind loss, double temperature, int evalNegatives) {
    this(valFraction, testFraction, negatives, sampler, loss, temperature, evalNegatives, null, null);
  }

  public static LinkOptions defaults() {
    return new LinkOptions(LINK_SPLIT.defaultValue()[0], LINK_SPLIT.defaultValue()[1],
        NEGATIVES.defaultValue().intValue(), SAMPLER.defaultValue(), LOSS.defaultValue(),
        TEMPERATURE.defaultValue(), EVAL_NEGATIVES.defaultValue().intValue());
  }

  static OptionSpec declare(OptionSpec spec) {
    return OptionValues.declare(spec, OptionValues.concat(List.of(TASK), LINK_ONLY));
  }

  /** The link options of the command line, or null for classification, which refuses them (exit 2). */
  static LinkOptions parse(CommandLine cl) {
    if (!TASK.read(cl)) {
      for (Option<?> o : LINK_ONLY) {
        if (cl.has(o.name())) {
          throw new UsageException("option --" + o.name() + " applies to --task link only");
        }
      }
      return null;
    }
    double[] split = LINK_SPLIT.read(cl);
    return new LinkOptions(split[0], split[1], NEGATIVES.read(cl).intValue(), SAMPLER.read(cl), LOSS.read(cl),
        TEMPERATURE.read(cl), EVAL_NEGATIVES.read(cl).intValue(), PAIRS.read(cl), PAIRS_WORK_DIR.read(cl));
  }

  /** Refuses (exit 2, naming the option) what no link job can run with. */
  void check() {
    String fractions = LinkSplit.checkFractions(valFraction, testFraction);
    if (fractions != null) {
      throw new UsageException("option --link-split: " + fractions);
    }
    NEGATIVES.check((long) negatives);
    TEMPERATURE.check(temperature);
    EVAL_NEGATIVES.check((long) evalNegatives);
  }

  /** Writes every field under its option's key (read back by {@link #parse}). */
  void writeTo(Configuration c) {
    TASK.write(c, true);
    LINK_SPLIT.write(c, new double[] {valFraction, testFraction});
    NEGATIVES.write(c, (long) negatives);
    SAMPLER.write(c, sampler);
    LOSS.write(c, loss);
    TEMPERATURE.write(c, temperature);
    EVAL_NEGATIVES.write(c, (long) evalNegatives);
    PAIRS.write(c, pairs);
    PAIRS_WORK_DIR.write(c, pairsWorkDir);
  }
}
