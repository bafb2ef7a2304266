package org.yarngnn.compute.train;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.infer.RowNormalization;
import org.yarngnn.compute.model.LayerType;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Full-batch training in one JVM: every epoch one training forward (dropout on) over the whole graph, softmax
 * cross-entropy over the {@code train} rows (mean), backward, one Adam step, then an evaluation forward (dropout
 * off) giving train/val/test accuracy; the weights of the epoch with the best validation accuracy (the first
 * such epoch on ties) are kept. The result's {@link Result#model()} runs unchanged in
 * {@link org.yarngnn.compute.infer.LayerwiseInference}. The input is row-normalised as the spec says (on a
 * copy); the output normalisation does not change the argmax and is ignored by the loss.
 */
public final class FullGraphTrainer {
  /**
   * Training options: {@code dropout} on every layer's input and on gat attention, unless
   * {@code layerDropout[k] >= 0}; {@code weightDecay} as Adam's L2, on every layer, or on the first layer only
   * when {@code decayFirstLayerOnly} (Kipf's GCN); {@code patience} epochs without a better validation accuracy
   * stop the run (0: never).
   */
  public record Options(int epochs, double lr, double weightDecay, boolean decayFirstLayerOnly, double dropout,
      double[] layerDropout, long seed, int patience) {
    public static Options defaults() {
      return new Options(200, 0.01, 0, false, 0.5, null, 0, 0);
    }

    public Options withEpochs(int e) {
      return new Options(e, lr, weightDecay, decayFirstLayerOnly, dropout, layerDropout, seed, patience);
    }

    public Options withLr(double v) {
      return new Options(epochs, v, weightDecay, decayFirstLayerOnly, dropout, layerDropout, seed, patience);
    }

    public Options withWeightDecay(double v, boolean firstLayerOnly) {
      return new Options(epochs, lr, v, firstLayerOnly, dropout, layerDropout, seed, patience);
    }

    public Options withDropout(double v) {
      return new Options(epochs, lr, weightDecay, decayFirstLayerOnly, v, layerDropout, seed, patience);
    }

    public Options withSeed(long v) {
      return new Options(epochs, lr, weightDecay, decayFirstLayerOnly, dropout, layerDropout, v, patience);
    }

    public Options withPatience(int v) {
      return new Options(epochs, lr, weightDecay, decayFirstLayerOnly, dropout, layerDropout, seed, v);
    }

    double dropoutOf(int k) {
      return layerDropout != null && k < layerDropout.length && layerDropout[k] >= 0 ? layerDropout[k] : dropout;
    }
  }

  /** One epoch's figures; {@code loss} is the training forward's (with dropout), before the step. */
  public record Epoch(int epoch, double loss, double trainAccuracy, double valAccuracy, double testAccuracy,
      double seconds) {}

  public record Result(Model model, int bestEpoch, double bestValAccuracy, double bestTestAccuracy,
      List<Epoch> epochs) {}

  private FullGraphTrainer() {}

  /**
   * Trains {@code spec} from Glorot weights seeded by {@code o.seed()} on the whole graph {@code g}: row r of
   * {@code features} and {@code labels[r]} belong to local node r; the masks select the splits.
   */
  public static Result train(ModelSpec spec, GraphBlock g, DenseMatrix features, int[] labels, boolean[] train,
      boolean[] val, boolean[] test, Options o) {
    return train(Parameters.glorot(spec, o.seed()), g, features, labels, train, val, test, o);
  }

  /** As {@link #train(ModelSpec, GraphBlock, DenseMatrix, int[], boolean[], boolean[], boolean[], Options)} from
   * given starting parameters (updated in place; the result holds the best epoch's copy). */
  public static Result train(Parameters params, GraphBlock g, DenseMatrix features, int[] labels, boolean[] train,
      boolean[] val, boolean[] test, Options o) {
    ModelSpec spec = params.spec();
    int layers = spec.layers().size();
    int n = g.numNodes();
    if (features.rows() != n || features.cols() != spec.inputWidth()) {
      throw new IllegalArgumentException("features " + features + " for " + n + " nodes of width "
          + spec.inputWidth());
    }
    DenseMatrix x = features.copy();
    RowNormalization.applyInput(spec.inputNormalize(), x);
    double[] drop = new double[layers];
    double[] attn = new double[layers];
    for (int k = 0; k < layers; k++) {
      drop[k] = o.dropoutOf(k);
      attn[k] = spec.layers().get(k).type() == LayerType.GAT ? drop[k] : 0;
    }
    Network net = new Network(params, g, o.seed(), drop, attn);
    float[] values = params.values();
    float[] grads = new float[values.length];
    Adam adam = new Adam(values.length, o.lr());
    DenseMatrix dLogits = new DenseMatrix(n, spec.outputWidth());
    int numTrain = SoftmaxCrossEntropy.count(train);
    if (numTrain == 0) {
      throw new IllegalArgumentException("no training rows");
    }
    int decayEnd = o.decayFirstLayerOnly() ? params.layerOffset(1 <= layers ? 1 : 0) : values.length;
    List<Epoch> epochs = new ArrayList<>();
    float[] best = values.clone();
    int bestEpoch = 0;
    double bestVal = -1;
    double bestTest = 0;
    for (int epoch = 1; epoch <= o.epochs(); epoch++) {
      long t0 = System.nanoTime();
      DenseMatrix logits = net.forward(x, epoch, true);
      double loss = SoftmaxCrossEntropy.lossAndGradient(logits, labels, train, 0, n, 1f / numTrain, dLogits)
          / numTrain;
      net.backward(dLogits, grads);
      adam.beginStep();
      adam.update(values, grads, 0, decayEnd, o.weightDecay());
      adam.update(values, grads, decayEnd, values.length, 0);
      net.load();
      DenseMatrix eval = net.forward(x, epoch, false);
      double trainAcc = SoftmaxCrossEntropy.accuracy(eval, labels, train);
      double valAcc = SoftmaxCrossEntropy.accuracy(eval, labels, val);
      double testAcc = SoftmaxCrossEntropy.accuracy(eval, labels, test);
      double seconds = (System.nanoTime() - t0) / 1e9;
      epochs.add(new Epoch(epoch, loss, trainAcc, valAcc, testAcc, seconds));
      if (valAcc > bestVal) {
        bestVal = valAcc;
        bestTest = testAcc;
        bestEpoch = epoch;
        System.arraycopy(values, 0, best, 0, values.length);
      } else if (o.patience() > 0 && epoch - bestEpoch >= o.patience()) {
        break;
      }
    }
    return new Result(Parameters.toModel(spec, best), bestEpoch, bestVal, bestTest, List.copyOf(epochs));
  }

  /** The median of the epochs' seconds. */
  public static double medianSeconds(List<Epoch> epochs) {
    double[] s = epochs.stream().mapToDouble(Epoch::seconds).toArray();
    Arrays.sort(s);
    return s.length == 0 ? 0 : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
