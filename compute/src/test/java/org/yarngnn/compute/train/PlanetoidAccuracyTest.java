package org.yarngnn.compute.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.infer.LayerwiseInference;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

class PlanetoidAccuracyTest {
  private static ModelSpec gcn(Planetoid d) {
    return new ModelSpec("row", List.of(LayerSpec.gcn(d.features().cols(), 16, Activation.RELU, true),
        LayerSpec.gcn(16, d.classes(), Activation.NONE, true)), "none", true);
  }

  private static FullGraphTrainer.Result run(String what, ModelSpec spec, Planetoid d, FullGraphTrainer.Options o) {
    FullGraphTrainer.Result r = FullGraphTrainer.train(spec, d.graph(), d.features(), d.labels(), d.train(),
        d.val(), d.test(), o);
    FullGraphTrainer.Epoch last = r.epochs().get(r.epochs().size() - 1);
    System.out.printf("%s: best epoch %d val %.4f test %.4f; last loss %.4f; median epoch %.4f s%n", what,
        r.bestEpoch(), r.bestValAccuracy(), r.bestTestAccuracy(), last.loss(),
        FullGraphTrainer.medianSeconds(r.epochs()));
    return r;
  }

  /** Kipf and Welling's setting; the best-validation model, run again through LayerwiseInference. */
  @Test
  void coraGcn() throws Exception {
    Planetoid d = Planetoid.load("cora");
    ModelSpec spec = gcn(d);
    FullGraphTrainer.Options o = FullGraphTrainer.Options.defaults().withEpochs(200).withLr(0.01)
        .withWeightDecay(5e-4, true).withDropout(0.5).withSeed(1);
    FullGraphTrainer.Result r = run("cora gcn", spec, d, o);
    assertEquals(200, r.epochs().size());
    assertTrue(r.epochs().get(199).loss() < r.epochs().get(0).loss() / 2, "loss falls");
    assertTrue(r.bestTestAccuracy() >= 0.810, "Cora gcn test accuracy " + r.bestTestAccuracy());
    assertInferenceReproduces(r, d);
  }

  /** The kept model is a model directory's model: inference, unchanged, reproduces the reported accuracies. */
  private static void assertInferenceReproduces(FullGraphTrainer.Result r, Planetoid d) {
    DenseMatrix out = new LayerwiseInference(r.model(), 1).run(d.graph(), d.features().copy(), null);
    assertEquals(r.bestTestAccuracy(), SoftmaxCrossEntropy.accuracy(out, d.labels(), d.test()), 1e-9);
    assertEquals(r.bestValAccuracy(), SoftmaxCrossEntropy.accuracy(out, d.labels(), d.val()), 1e-9);
  }

  @Test
  void citeseerGcn() throws Exception {
    Planetoid d = Planetoid.load("citeseer");
    FullGraphTrainer.Result r = run("citeseer gcn", gcn(d), d, FullGraphTrainer.Options.defaults().withEpochs(200)
        .withLr(0.01).withWeightDecay(5e-4, true).withDropout(0.5).withSeed(1));
    assertTrue(r.bestTestAccuracy() >= 0.700, "Citeseer gcn test accuracy " + r.bestTestAccuracy());
  }

  /** Velickovic et al.'s Cora GAT: 8 heads x 8 hidden (elu), one output head, dropout 0.6 (inputs, attention). */
  @Test
  void coraGat() throws Exception {
    Planetoid d = Planetoid.load("cora");
    ModelSpec spec = new ModelSpec("row", List.of(
        LayerSpec.gat(d.features().cols(), 8, 8, true, 0.2f, Activation.ELU, true),
        LayerSpec.gat(64, d.classes(), 1, false, 0.2f, Activation.NONE, true)), "none", true);
    FullGraphTrainer.Result r = run("cora gat", spec, d, FullGraphTrainer.Options.defaults().withEpochs(200)
        .withLr(0.005).withWeightDecay(5e-4, false).withDropout(0.6).withSeed(1));
    assertTrue(r.bestTestAccuracy() >= 0.825, "Cora gat test accuracy " + r.bestTestAccuracy());
    assertInferenceReproduces(r, d);
  }

  @Test
  void coraSageMean() throws Exception {
    Planetoid d = Planetoid.load("cora");
    ModelSpec spec = new ModelSpec("row", List.of(
        LayerSpec.sage(d.features().cols(), 16, Activation.RELU, true, -1),
        LayerSpec.sage(16, d.classes(), Activation.NONE, true, -1)), "none", true);
    FullGraphTrainer.Result r = run("cora sage", spec, d, FullGraphTrainer.Options.defaults().withEpochs(200)
        .withLr(0.01).withWeightDecay(5e-4, false).withDropout(0.5).withSeed(1));
    assertTrue(r.bestTestAccuracy() >= 0.790, "Cora sage test accuracy " + r.bestTestAccuracy());
    assertInferenceReproduces(r, d);
  }
}
