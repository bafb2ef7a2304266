package org.yarngnn.app.train;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.yarngnn.app.cli.CommandLine;
import org.yarngnn.app.cli.OptionSpec;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.compute.link.LinkLoss;
import org.yarngnn.compute.link.LinkSplit;
import org.yarngnn.compute.link.NegativeSampler;

/**
 * The options of {@code train --task link} (CONTRACT.md "Link prediction"), kept together so {@link TrainOptions}
 * gains one field rather than seven: held-out fractions when the edges table has no {@code split} column
 * ({@code --link-split VAL,TEST}), negatives per positive and their sampler, the loss and its temperature, and the
 * evaluation negatives of MRR and hits@K. Parsed and checked with the rest of the options; travels in job.xml under
 * the same {@code yarngnn.OPTION} keys, written only for a link job so a classification job's configuration
 * is unchanged.
 */
public record LinkOptions(double valFraction, double testFraction, int negatives, NegativeSampler.Kind sampler,
    LinkLoss.Kind loss, double temperature, int evalNegatives, String pairs, String pairsWorkDir) {
  /** The options that only a link job accepts. */
  static final String[] NAMES = {"link-split", "negatives", "negative-sampler", "loss", "temperature",
      "eval-negatives", "link-pairs"};
  /** job.xml: the work directory of {@code --link-pairs}'s commit (the client begins it, the driver commits it). */
  static final String PAIRS_WORK_DIR_KEY = CommandLine.KEY_PREFIX + "job.link-pairs-work-dir";
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
    return new LinkOptions(0.05, 0.10, 1, NegativeSampler.Kind.UNIFORM, LinkLoss.Kind.BCE, 1, 100);
  }


  static OptionSpec declare(OptionSpec spec) {
    return spec
        .value("task", "classify|link", "node classification (default) or link prediction")
        .value("link-split", "VAL,TEST", "link: without a split column in the edges table, the fractions of edge "
            + "pairs held out for validation and test (default 0.05,0.10; 0,0 trains on every edge)")
        .value("negatives", "K", "link: negative destinations per positive each epoch (default 1)")
        .value("negative-sampler", "uniform|degree", "link: negatives uniform or proportional to in-degree^0.75 "
            + "(default uniform)")
        .value("loss", "bce|bpr|softmax", "link: the loss (default bce)")
        .value("temperature", "T", "link: scores are divided by T in the loss (default 1)")
        .value("eval-negatives", "R", "link: negatives each held-out edge is ranked among for mrr and hits@K "
            + "(default 100)")
        .value("link-pairs", "DIR", "link: also write the evaluation pairs as edges tables: DIR/train (the message "
            + "graph), DIR/val, DIR/test (held-out edges) and DIR/val-negatives, DIR/test-negatives (their AUC "
            + "negatives, row for row)");
  }

  /** The link options of the command line; refuses them (exit 2) when the task is not link. */
  static LinkOptions parse(CommandLine cl, boolean link) {
    if (!link) {
      for (String name : NAMES) {
        if (cl.has(name)) {
          throw new UsageException("option --" + name + " applies to --task link only");
        }
      }
      return null;
    }
    LinkOptions d = defaults();
    double val = d.valFraction();
    double test = d.testFraction();
    String split = cl.get("link-split");
    if (split != null) {
      String[] f = split.split(",", -1);
      try {
        if (f.length != 2) {
          throw new NumberFormatException();
        }
        val = Double.parseDouble(f[0].trim());
        test = Double.parseDouble(f[1].trim());
      } catch (NumberFormatException e) {
        throw new UsageException("option --link-split needs two fractions VAL,TEST, not '" + split + "'");
      }
    }
    return new LinkOptions(val, test, cl.getInt("negatives", d.negatives(), 1),
        word(cl, "negative-sampler", NegativeSampler.Kind.class, d.sampler()),
        word(cl, "loss", LinkLoss.Kind.class, d.loss()), cl.getDouble("temperature", d.temperature()),
        cl.getInt("eval-negatives", d.evalNegatives(), 1), cl.get("link-pairs"),
        cl.conf().getTrimmed(PAIRS_WORK_DIR_KEY));
  }

  private static <E extends Enum<E>> E word(CommandLine cl, String option, Class<E> kinds, E dflt) {
    String v = cl.get(option);
    if (v == null) {
      return dflt;
    }
    for (E e : kinds.getEnumConstants()) {
      if (e.name().toLowerCase(Locale.ROOT).equals(v)) {
        return e;
      }
    }
    StringBuilder words = new StringBuilder();
    for (E e : kinds.getEnumConstants()) {
      words.append(words.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
    }
    throw new UsageException("option --" + option + " must be one of " + words + ", not '" + v + "'");
  }

  /** Refuses (exit 2, naming the option) what no link job can run with. */
  void check() {
    String fractions = LinkSplit.checkFractions(valFraction, testFraction);
    if (fractions != null) {
      throw new UsageException("option --link-split: " + fractions);
    }
    if (negatives < 1 || negatives > 10_000) {
      throw new UsageException("option --negatives must be between 1 and 10000, not " + negatives);
    }
    if (!(temperature > 0) || !Double.isFinite(temperature)) {
      throw new UsageException("option --temperature must be a positive number, not " + temperature);
    }
    if (evalNegatives < 1 || evalNegatives > 100_000) {
      throw new UsageException("option --eval-negatives must be between 1 and 100000, not " + evalNegatives);
    }
  }

  /** Writes every field under its option's key (read back by {@link #parse}). */
  void writeTo(Configuration c) {
    String p = CommandLine.KEY_PREFIX;
    c.set(p + "task", "link");
    c.set(p + "link-split", valFraction + "," + testFraction);
    c.set(p + "negatives", Integer.toString(negatives));
    c.set(p + "negative-sampler", sampler.name().toLowerCase(Locale.ROOT));
    c.set(p + "loss", loss.name().toLowerCase(Locale.ROOT));
    c.set(p + "temperature", Double.toString(temperature));
    c.set(p + "eval-negatives", Integer.toString(evalNegatives));
    if (pairs != null) {
      c.set(p + "link-pairs", pairs);
    }
    if (pairsWorkDir != null) {
      c.set(PAIRS_WORK_DIR_KEY, pairsWorkDir);
    }
  }
}
