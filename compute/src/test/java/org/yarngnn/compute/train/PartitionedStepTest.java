package org.yarngnn.compute.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.kernel.SparseTestGraphs;
import org.yarngnn.compute.kernel.SparseTestGraphs.Edge;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.sample.NeighbourSampler;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The distributed step in miniature: a graph cut into three owners' blocks with halo slots; every owner runs the
 * same {@link LayerStep}s, message rows travel to the blocks that need them, halo message gradients travel back
 * to their owners and are summed there. Outputs, input gradients (by node) and the sum of the owners' weight
 * gradients equal the whole-graph run, with input and attention dropout on and a sampled sage layer.
 */
class PartitionedStepTest {
  private static final long SEED = 21;
  private static final long EPOCH = 8;
  private static final int K = 1;

  /** Owner p's block: its nodes (ascending global index) and the halo its in-edges need. */
  private record Part(GraphBlock block, int[] nodes, int[] haloNodes) {}

  private static Part part(GraphBlock whole, int[] owner, int p) {
    Csr a = whole.inEdges();
    int n = whole.numNodes();
    int[] local = new int[n];
    Arrays.fill(local, -1);
    List<Integer> nodes = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      if (owner[v] == p) {
        local[v] = nodes.size();
        nodes.add(v);
      }
    }
    Map<Integer, Integer> haloSlot = new HashMap<>();
    List<Integer> halo = new ArrayList<>();
    List<Edge> edges = new ArrayList<>();
    for (int k = 0; k < nodes.size(); k++) {
      int v = nodes.get(k);
      for (int e = a.rowPtr()[v]; e < a.rowPtr()[v + 1]; e++) {
        int j = a.colIdx()[e];
        int slot = local[j] >= 0 ? local[j] : nodes.size() + haloSlot.computeIfAbsent(j, x -> {
          halo.add(x);
          return halo.size() - 1;
        });
        edges.add(new Edge(slot, k, a.weight(e)));
      }
    }
    long[] ids = nodes.stream().mapToLong(v -> whole.nodeIds()[v]).toArray();
    long[] haloIds = halo.stream().mapToLong(v -> whole.nodeIds()[v]).toArray();
    return new Part(SparseTestGraphs.build(ids, haloIds, edges, a.weighted()),
        nodes.stream().mapToInt(Integer::intValue).toArray(), halo.stream().mapToInt(Integer::intValue).toArray());
  }

  private static void check(String what, LayerSpec spec, double p, double pAttn, boolean weighted) {
    SplittableRandom r = new SplittableRandom(what.hashCode());
    GraphBlock whole = SparseTestGraphs.random(r, 90, 0, 500, weighted);
    int n = whole.numNodes();
    int[] owner = new int[n];
    for (int v = 0; v < n; v++) {
      owner[v] = r.nextInt(3);
    }
    TrainLayer layer = TrainLayer.create(spec, K, p, pAttn);
    float[] params = SparseTestGraphs.randomVector(r, layer.paramCount());
    layer.load(params, 0);
    DenseMatrix h = SparseTestGraphs.randomMatrix(r, n, spec.in());
    DenseMatrix dOut = SparseTestGraphs.randomMatrix(r, n, spec.outputWidth());
    int fanout = spec.fanout();

    LayerStep w = new LayerStep(layer, whole, SEED, true);
    if (fanout >= 0) {
      w.setEdges(NeighbourSampler.sample(whole, fanout, Dropout.sampleSeed(SEED, EPOCH), K));
    }
    w.forwardTransform(h, EPOCH, true);
    w.forwardAggregate();
    float[] wholeGrads = new float[layer.paramCount()];
    w.backwardAggregate(dOut, wholeGrads, 0);
    w.backwardTransform(wholeGrads, 0);

    Part[] parts = new Part[3];
    LayerStep[] steps = new LayerStep[3];
    int[] localOf = new int[n];
    for (int q = 0; q < 3; q++) {
      parts[q] = part(whole, owner, q);
      steps[q] = new LayerStep(layer, parts[q].block(), SEED, true);
      if (fanout >= 0) {
        steps[q].setEdges(NeighbourSampler.sample(parts[q].block(), fanout, Dropout.sampleSeed(SEED, EPOCH), K));
      }
      int[] nodes = parts[q].nodes();
      DenseMatrix hq = new DenseMatrix(nodes.length, spec.in());
      for (int k = 0; k < nodes.length; k++) {
        localOf[nodes[k]] = k;
        System.arraycopy(h.data(), h.offset(nodes[k]), hq.data(), hq.offset(k), spec.in());
      }
      steps[q].forwardTransform(hq, EPOCH, true);
    }
    int mw = layer.messageWidth();
    for (int q = 0; q < 3; q++) { // halo exchange: owners' message rows into the halo slots
      int nq = parts[q].nodes().length;
      int[] halo = parts[q].haloNodes();
      for (int s = 0; s < halo.length; s++) {
        DenseMatrix src = steps[owner[halo[s]]].messages();
        System.arraycopy(src.data(), src.offset(localOf[halo[s]]), steps[q].messages().data(),
            steps[q].messages().offset(nq + s), mw);
      }
      steps[q].forwardAggregate();
    }
    float[] sum = new float[layer.paramCount()];
    for (int q = 0; q < 3; q++) {
      int[] nodes = parts[q].nodes();
      DenseMatrix dq = new DenseMatrix(nodes.length, spec.outputWidth());
      for (int k = 0; k < nodes.length; k++) {
        System.arraycopy(dOut.data(), dOut.offset(nodes[k]), dq.data(), dq.offset(k), spec.outputWidth());
        assertRow(w.output(), nodes[k], steps[q].output(), k, what + " output of node " + nodes[k]);
      }
      steps[q].backwardAggregate(dq, sum, 0);
    }
    int sent = 0;
    for (int q = 0; q < 3; q++) { // the reverse exchange: halo message gradients summed at their owners
      int nq = parts[q].nodes().length;
      int[] halo = parts[q].haloNodes();
      for (int s = 0; s < halo.length; s++) {
        DenseMatrix g = steps[q].messageGradients();
        steps[owner[halo[s]]].addMessageGradient(localOf[halo[s]], g.data(), g.offset(nq + s));
        sent++;
      }
    }
    assertTrue(sent > 30, what + ": the cut has halo slots");
    for (int q = 0; q < 3; q++) {
      steps[q].backwardTransform(sum, 0);
      int[] nodes = parts[q].nodes();
      for (int k = 0; k < nodes.length; k++) {
        assertRow(w.inputGradient(), nodes[k], steps[q].inputGradient(), k, what + " dH of node " + nodes[k]);
      }
    }
    double max = 0;
    for (float v : wholeGrads) {
      max = Math.max(max, Math.abs(v));
    }
    for (int i = 0; i < sum.length; i++) {
      assertEquals(wholeGrads[i], sum[i], 1e-5 * Math.max(1, max), what + " weight gradient " + i);
    }
  }

  private static void assertRow(DenseMatrix want, int wr, DenseMatrix got, int gr, String what) {
    for (int c = 0; c < want.cols(); c++) {
      assertEquals(want.get(wr, c), got.get(gr, c), 1e-5 * Math.max(1, Math.abs(want.get(wr, c))), what + " col " + c);
    }
  }

  @Test
  void gcnWeighted() {
    check("gcn", LayerSpec.gcn(6, 5, Activation.RELU, true), 0.5, 0, true);
  }

  @Test
  void sageSampled() {
    check("sage fanout 3", LayerSpec.sage(6, 4, Activation.ELU, true, 3), 0.4, 0, false);
  }

  @Test
  void gatWithAttentionDropout() {
    check("gat concat", LayerSpec.gat(6, 3, 4, true, 0.2f, Activation.ELU, true), 0.5, 0.5, false);
    check("gat mean", LayerSpec.gat(6, 3, 2, false, 0.2f, Activation.NONE, true), 0.3, 0.6, true);
  }
}
