package org.yarngnn.compute.link;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.infer.RowNormalization;
import org.yarngnn.compute.model.LayerType;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.train.Adam;
import org.yarngnn.compute.train.Network;
import org.yarngnn.compute.train.Parameters;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Full-batch link-prediction training in one JVM (the reference the distributed trainer must equal, as
 * {@link org.yarngnn.compute.train.FullGraphTrainer} is for classification). Every epoch: a training forward
 * over the message graph (the {@code train} and {@code none} edges), the scores of every positive (a
 * {@code train} edge) and of its K negatives ({@link NegativeSampler}, keyed by the epoch), the mean loss over
 * the positives ({@link LinkLoss}), backward through the scores into the output rows and through the network, one
 * Adam step; then an evaluation forward (no dropout) scoring the {@code val} edges against their fixed evaluation
 * negatives. The weights of the epoch with the best validation AUC (the first on ties) are kept, and the
 * {@code test} edges are evaluated with them (test figures are taken only at a new best, so no test figure
 * influences the choice).
 */
public final class LinkTrainer {
  /** Training options; {@code patience} epochs without a better validation AUC stop the run (0: never). */
  public record Options(int epochs, double lr, double weightDecay, double dropout, long seed, int patience,
      int negatives, NegativeSampler.Kind sampler, LinkLoss.Kind loss, double temperature, int evalNegatives) {
    /** GAE's protocol: 200 epochs, Adam 0.01, no dropout, one uniform negative, bce, 100 ranking negatives. */
    public static Options gae(long seed) {
      return new Options(200, 0.01, 0, 0, seed, 0, 1, NegativeSampler.Kind.UNIFORM, LinkLoss.Kind.BCE, 1, 100);
    }
  }

  /** Evaluation figures of one set of held-out edges. */
  public record Figures(double auc, double ap, double mrr, double hits10, double hits50, double hits100) {}

  /** One epoch: the training loss (before the step) and the validation figures of the weights after it. */
  public record Epoch(int epoch, double loss, Figures val, double seconds) {}

  public record Result(Model model, int bestEpoch, Figures bestVal, Figures test, List<Epoch> epochs) {}

  /** Edges as local rows of the graph: {@code src[i] -> dst[i]}. */
  public record Edges(int[] src, int[] dst) {
    public Edges {
      if (src.length != dst.length) {
        throw new IllegalArgumentException(src.length + " sources for " + dst.length + " destinations");
      }
    }

    public int size() {
      return src.length;
    }
  }

  private LinkTrainer() {}

  /**
   * Trains from {@code params} (updated in place) on the message graph {@code g} (no halo; row r has id
   * {@code g.nodeIds()[r]}), with positives {@code train}, held-out {@code val} and {@code test} edges;
   * {@code allEdges} tells evaluation negatives from edges of any split.
   */
  public static Result train(Parameters params, GraphBlock g, DenseMatrix features, Edges train, Edges val,
      Edges test, NegativeSampler.EdgeTest allEdges, Options o) {
    int n = g.numNodes();
    int layers = params.spec().layers().size();
    if (train.size() == 0) {
      throw new IllegalArgumentException("no training edges");
    }
    DenseMatrix x = features.copy();
    RowNormalization.applyInput(params.spec().inputNormalize(), x);
    double[] drop = new double[layers];
    double[] attn = new double[layers];
    for (int k = 0; k < layers; k++) {
      drop[k] = o.dropout();
      attn[k] = params.spec().layers().get(k).type() == LayerType.GAT ? o.dropout() : 0;
    }
    Network net = new Network(params, g, o.seed(), drop, attn);
    long[] ids = g.nodeIds();
    RowsById rows = new RowsById(ids);
    NegativeSampler sampler = NegativeSampler.of(o.sampler(), rows.sortedIds(), rows.sorted(inDegrees(g)));
    HeldOut valSet = HeldOut.of(val, ids, rows, sampler, allEdges, o);
    HeldOut testSet = HeldOut.of(test, ids, rows, sampler, allEdges, o);
    boolean l2 = "l2".equals(params.spec().outputNormalize());

    float[] values = params.values();
    float[] grads = new float[values.length];
    Adam adam = new Adam(values.length, o.lr());
    int p = train.size();
    int k = o.negatives();
    float[] pos = new float[p];
    float[] neg = new float[p * k];
    float[] dPos = new float[p];
    float[] dNeg = new float[p * k];
    int[] negRow = new int[p * k];
    long[] negIds = new long[k];
    int width = params.spec().outputWidth();
    DenseMatrix unit = new DenseMatrix(n, width);
    float[] norms = new float[n];
    DenseMatrix dZ = new DenseMatrix(n, width);

    List<Epoch> epochs = new ArrayList<>();
    float[] best = values.clone();
    int bestEpoch = 0;
    Figures bestVal = null;
    Figures bestTest = null;
    for (int epoch = 1; epoch <= o.epochs(); epoch++) {
      long t0 = System.nanoTime();
      DenseMatrix z = scored(net.forward(x, epoch, true), l2, unit, norms);
      for (int i = 0; i < p; i++) {
        sampler.negatives(o.seed(), epoch, ids[train.src()[i]], ids[train.dst()[i]], k, negIds, 0);
        for (int j = 0; j < k; j++) {
          negRow[i * k + j] = rows.rowOf(negIds[j]);
        }
      }
      dZ.zero();
      double loss = PairScores.lossAndGradient(z, train.src(), train.dst(), negRow, k, o.loss(), o.temperature(),
          1f / p, pos, neg, dPos, dNeg, dZ) / p;
      if (l2) {
        PairScores.normalizeBackward(unit, norms, dZ, 0, n);
      }
      net.backward(dZ, grads);
      adam.beginStep();
      adam.update(values, grads, 0, values.length, o.weightDecay());
      net.load();
      DenseMatrix eval = scored(net.forward(x, epoch, false), l2, unit, norms);
      Figures v = valSet.figures(eval);
      epochs.add(new Epoch(epoch, loss, v, (System.nanoTime() - t0) / 1e9));
      if (bestVal == null || v.auc() > bestVal.auc()) {
        bestVal = v;
        bestTest = testSet.figures(eval);
        bestEpoch = epoch;
        System.arraycopy(values, 0, best, 0, values.length);
      } else if (o.patience() > 0 && epoch - bestEpoch >= o.patience()) {
        break;
      }
    }
    return new Result(Parameters.toModel(params.spec(), best), bestEpoch, bestVal, bestTest, List.copyOf(epochs));
  }

  /**
   * The figures of {@code edges} (rows of {@code z}, whose row r has id {@code ids[r]}) against their evaluation
   * negatives, as the trainer computes them each epoch: for checking embeddings written by {@code infer}.
   */
  public static Figures evaluate(DenseMatrix z, long[] ids, Edges edges, NegativeSampler.EdgeTest allEdges,
      Options o) {
    RowsById rows = new RowsById(ids);
    NegativeSampler uniform = NegativeSampler.of(NegativeSampler.Kind.UNIFORM, rows.sortedIds(), null);
    return HeldOut.of(edges, ids, rows, uniform, allEdges, o).figures(z);
  }

  /** The rows pairs are scored from: {@code z} itself, or its unit rows (into {@code unit}) for {@code l2}. */
  private static DenseMatrix scored(DenseMatrix z, boolean l2, DenseMatrix unit, float[] norms) {
    if (!l2) {
      return z;
    }
    PairScores.normalize(z, unit, norms, 0, z.rows());
    return unit;
  }

  /** In-degree of every row of {@code g} in its message graph. */
  static long[] inDegrees(GraphBlock g) {
    long[] d = new long[g.numNodes()];
    int[] ptr = g.inEdges().rowPtr();
    for (int r = 0; r < d.length; r++) {
      d[r] = ptr[r + 1] - ptr[r];
    }
    return d;
  }

  /** Local rows by node id: the ids in ascending order, and the row of each. */
  static final class RowsById {
    private final long[] sortedIds;
    private final int[] rowOfSorted;

    RowsById(long[] ids) {
      Integer[] order = new Integer[ids.length];
      for (int i = 0; i < ids.length; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(ids[a], ids[b]));
      sortedIds = new long[ids.length];
      rowOfSorted = new int[ids.length];
      for (int i = 0; i < ids.length; i++) {
        sortedIds[i] = ids[order[i]];
        rowOfSorted[i] = order[i];
      }
    }

    long[] sortedIds() {
      return sortedIds;
    }

    /** {@code perRow} reordered by ascending id. */
    long[] sorted(long[] perRow) {
      long[] out = new long[perRow.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = perRow[rowOfSorted[i]];
      }
      return out;
    }

    int rowOf(long id) {
      int i = Arrays.binarySearch(sortedIds, id);
      if (i < 0) {
        throw new IllegalArgumentException("no node " + id);
      }
      return rowOfSorted[i];
    }
  }

  /** Held-out edges with their fixed evaluation negatives (negative 0 for AUC and AP; 0..R-1 for ranking). */
  private record HeldOut(Edges edges, int[] negRows, int r) {
    static HeldOut of(Edges e, long[] ids, RowsById rows, NegativeSampler sampler,
        NegativeSampler.EdgeTest allEdges, Options o) {
      int r = Math.max(1, o.evalNegatives());
      int[] neg = new int[e.size() * r];
      for (int i = 0; i < e.size(); i++) {
        long s = ids[e.src()[i]];
        long d = ids[e.dst()[i]];
        for (int j = 0; j < r; j++) {
          neg[i * r + j] = rows.rowOf(sampler.evaluationNegative(o.seed(), s, d, j, allEdges));
        }
      }
      return new HeldOut(e, neg, r);
    }

    Figures figures(DenseMatrix z) {
      int m = edges.size();
      float[] pos = new float[m];
      float[] first = new float[m];
      float[] all = new float[m * r];
      for (int i = 0; i < m; i++) {
        int s = edges.src()[i];
        pos[i] = PairScores.dot(z, s, z, edges.dst()[i]);
        for (int j = 0; j < r; j++) {
          all[i * r + j] = PairScores.dot(z, s, z, negRows[i * r + j]);
        }
        first[i] = all[i * r];
      }
      LinkMetrics.RankSums ranks = LinkMetrics.rankSums(pos, all, r);
      return new Figures(LinkMetrics.auc(pos, first), LinkMetrics.averagePrecision(pos, first), ranks.mrr(),
          ranks.hits(10), ranks.hits(50), ranks.hits(100));
    }
  }
}
