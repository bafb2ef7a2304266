package org.yarngnn.compute.train;

import java.util.Arrays;
import java.util.Locale;

/**
 * scripts/bench/accuracy: every Planetoid setting over ten seeds (the single-JVM trainer the distributed one is
 * checked against), mean, standard deviation and range of the best-validation model's test accuracy, side by side
 * with the published figure. Usage: {@code AccuracySeeds [SEEDS] [SETUP...]}.
 */
public final class AccuracySeeds {
  private AccuracySeeds() {}

  public static void main(String[] args) throws Exception {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    PlanetoidSetups[] setups = args.length > 1
        ? Arrays.stream(args, 1, args.length).map(PlanetoidSetups::valueOf).toArray(PlanetoidSetups[]::new)
        : PlanetoidSetups.values();
    System.out.println("setup          seeds  test mean   std     min     max    floor  published  s/epoch");
    for (PlanetoidSetups s : setups) {
      Planetoid d = Planetoid.load(s.dataset);
      double[] acc = new double[seeds];
      double seconds = 0;
      for (int i = 0; i < seeds; i++) {
        FullGraphTrainer.Result r = s.train(d, i + 1);
        acc[i] = r.bestTestAccuracy();
        seconds += FullGraphTrainer.medianSeconds(r.epochs());
      }
      double mean = Arrays.stream(acc).average().orElse(0);
      double var = Arrays.stream(acc).map(a -> (a - mean) * (a - mean)).sum() / Math.max(1, seeds - 1);
      System.out.printf(Locale.ROOT, "%-14s %5d  %8.4f  %6.4f  %6.4f  %6.4f  %6.3f  %9s  %7.4f%n", s, seeds, mean,
          Math.sqrt(var), Arrays.stream(acc).min().orElse(0), Arrays.stream(acc).max().orElse(0),
          s.published - PlanetoidSetups.MARGIN, published(s), seconds / seeds);
    }
  }

  private static String published(PlanetoidSetups s) {
    switch (s) {
      case CORA_GCN: return "0.815";
      case CITESEER_GCN: return "0.703";
      case CORA_GAT: return "0.830";
      default: return "0.79-0.80";
    }
  }
}
