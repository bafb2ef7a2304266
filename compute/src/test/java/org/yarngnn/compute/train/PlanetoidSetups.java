package org.yarngnn.compute.train;

import java.util.List;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelSpec;

/**
 * The published Planetoid settings, one place for the accuracy tests and scripts/bench/accuracy (ten seeds):
 * Kipf and Welling's gcn, Velickovic et al.'s gat, and a true mean-aggregator sage.
 */
enum PlanetoidSetups {
  CORA_GCN("cora", "gcn", 0.815),
  CITESEER_GCN("citeseer", "gcn", 0.703),
  CORA_GAT("cora", "gat", 0.830),
  // PyG's and DGL's sage-mean examples report 0.79-0.80; the lower end.
  CORA_SAGE("cora", "sage", 0.790);

  /**
   * How far under the published figure the mean over {@link #SEEDS} seeds may fall. The ten-seed standard deviations
   * are 0.005-0.012 (docs/benchmarks.md), so a five-seed mean moves by about 0.005 with a change of float order: two
   * points is 2.6 of those under gat's own mean (0.823) and more for the others, and a real two-point regression
   * fails.
   */
  static final double MARGIN = 0.02;
  /** One seed's floor in the default run: only gross breakage (a layer or an optimizer step gone wrong) is under it. */
  static final double SMOKE_MARGIN = 0.05;
  static final int SEEDS = 5;

  final String dataset;
  final String model;
  /** The published test accuracy. */
  final double published;

  PlanetoidSetups(String dataset, String model, double published) {
    this.dataset = dataset;
    this.model = model;
    this.published = published;
  }

  ModelSpec spec(Planetoid d) {
    int in = d.features().cols();
    switch (model) {
      case "gcn":
        return new ModelSpec("row", List.of(LayerSpec.gcn(in, 16, Activation.RELU, true),
            LayerSpec.gcn(16, d.classes(), Activation.NONE, true)), "none", true);
      case "gat":
        // 8 heads x 8 hidden (elu), one output head; dropout 0.6 on inputs and attention.
        return new ModelSpec("row", List.of(LayerSpec.gat(in, 8, 8, true, 0.2f, Activation.ELU, true),
            LayerSpec.gat(64, d.classes(), 1, false, 0.2f, Activation.NONE, true)), "none", true);
      default:
        return new ModelSpec("row", List.of(LayerSpec.sage(in, 16, Activation.RELU, true, -1),
            LayerSpec.sage(16, d.classes(), Activation.NONE, true, -1)), "none", true);
    }
  }

  /** 200 epochs, Adam; gcn decays its first layer only (Kipf), gat and sage every layer. */
  FullGraphTrainer.Options options(long seed) {
    FullGraphTrainer.Options o = FullGraphTrainer.Options.defaults().withEpochs(200).withSeed(seed);
    switch (model) {
      case "gcn":
        return o.withLr(0.01).withWeightDecay(5e-4, true).withDropout(0.5);
      case "gat":
        return o.withLr(0.005).withWeightDecay(5e-4, false).withDropout(0.6);
      default:
        return o.withLr(0.01).withWeightDecay(5e-4, false).withDropout(0.5);
    }
  }

  FullGraphTrainer.Result train(Planetoid d, long seed) {
    return FullGraphTrainer.train(spec(d), d.graph(), d.features(), d.labels(), d.train(), d.val(), d.test(),
        options(seed));
  }
}
