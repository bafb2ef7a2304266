package org.yarngnn.compute.layer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.yarngnn.compute.kernel.SparseTestGraphs.assertClose;

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
import org.yarngnn.compute.tensor.DenseMatrix;

class LayerTest {
  private static final int[] WIDTHS = {1, 3, 17, 33};
  private static final double TOL = 2e-5;

  private static GraphBlock graph(SplittableRandom r, boolean weighted) {
    return SparseTestGraphs.random(r, 60, 0, 350, weighted);
  }

  @Test
  void gcnMatchesContractFormula() {
    SplittableRandom r = new SplittableRandom(31);
    for (boolean weighted : new boolean[] {false, true}) {
      GraphBlock g = graph(r, weighted);
      for (int in : WIDTHS) {
        for (int out : WIDTHS) {
          DenseMatrix h = SparseTestGraphs.randomMatrix(r, g.numNodes(), in);
          DenseMatrix w = SparseTestGraphs.randomMatrix(r, in, out);
          float[] b = SparseTestGraphs.randomVector(r, out);
          GcnLayer layer = new GcnLayer(LayerSpec.gcn(in, out, Activation.ELU, true), w, b);
          assertEquals(out, layer.messageWidth());
          assertEquals(0, layer.selfWidth());
          assertClose(ContractReference.gcn(g, h, w, b, Activation.ELU), ContractReference.run(layer, g, h), TOL,
              "gcn " + in + "->" + out + " weighted " + weighted);
        }
      }
    }
  }

  @Test
  void sageMatchesContractFormulaOnBothOrders() {
    SplittableRandom r = new SplittableRandom(32);
    for (boolean weighted : new boolean[] {false, true}) { // weights must be ignored
      GraphBlock g = graph(r, weighted);
      for (int in : WIDTHS) {
        for (int out : WIDTHS) {
          DenseMatrix h = SparseTestGraphs.randomMatrix(r, g.numNodes(), in);
          DenseMatrix ws = SparseTestGraphs.randomMatrix(r, in, out);
          DenseMatrix wn = SparseTestGraphs.randomMatrix(r, in, out);
          float[] b = SparseTestGraphs.randomVector(r, out);
          LayerSpec spec = LayerSpec.sage(in, out, Activation.RELU, true, -1);
          double[][] expected = ContractReference.sage(g, h, ws, wn, b, Activation.RELU);
          SageLayer chosen = new SageLayer(spec, ws, wn, b);
          assertEquals(out <= in, chosen.transformsBeforeAggregate(), "order chosen by widths");
          assertEquals(Math.min(in, out), chosen.messageWidth(), "the narrower rows travel");
          for (boolean first : new boolean[] {true, false}) {
            SageLayer layer = new SageLayer(spec, ws, wn, b, first);
            assertEquals(first ? out : in, layer.messageWidth());
            assertEquals(out, layer.selfWidth());
            assertClose(expected, ContractReference.run(layer, g, h), TOL,
                "sage " + in + "->" + out + " transformFirst " + first);
          }
        }
      }
    }
  }

  @Test
  void sageWithoutBiasAndManyRowsCrossesGemmBlocks() {
    SplittableRandom r = new SplittableRandom(33);
    GraphBlock g = SparseTestGraphs.random(r, 300, 0, 1500, false);
    DenseMatrix h = SparseTestGraphs.randomMatrix(r, g.numNodes(), 5);
    DenseMatrix ws = SparseTestGraphs.randomMatrix(r, 5, 9);
    DenseMatrix wn = SparseTestGraphs.randomMatrix(r, 5, 9);
    SageLayer layer = new SageLayer(LayerSpec.sage(5, 9, Activation.NONE, false, -1), ws, wn, null);
    assertFalse(layer.transformsBeforeAggregate());
    assertClose(ContractReference.sage(g, h, ws, wn, null, Activation.NONE), ContractReference.run(layer, g, h), TOL,
        "sage aggregate-first over 300 rows");
  }

  @Test
  void gatMatchesContractFormulaWithHeadsConcatAndMean() {
    SplittableRandom r = new SplittableRandom(34);
    for (boolean weighted : new boolean[] {false, true}) { // weights must be ignored
      GraphBlock g = graph(r, weighted);
      for (int heads : new int[] {1, 3}) {
        for (boolean concat : new boolean[] {true, false}) {
          for (int out : WIDTHS) {
            int in = 7;
            DenseMatrix h = SparseTestGraphs.randomMatrix(r, g.numNodes(), in);
            DenseMatrix w = SparseTestGraphs.randomMatrix(r, in, heads * out);
            float[] as = SparseTestGraphs.randomVector(r, heads * out);
            float[] ad = SparseTestGraphs.randomVector(r, heads * out);
            LayerSpec spec = LayerSpec.gat(in, out, heads, concat, 0.2f, Activation.ELU, true);
            float[] b = SparseTestGraphs.randomVector(r, spec.outputWidth());
            GatLayer layer = new GatLayer(spec, w, as, ad, b);
            assertEquals(heads * out + heads, layer.messageWidth());
            assertEquals(concat ? heads * out : out, layer.outWidth());
            assertClose(ContractReference.gat(g, h, w, as, ad, heads, out, concat, 0.2f, b, Activation.ELU),
                ContractReference.run(layer, g, h), TOL,
                "gat heads " + heads + " concat " + concat + " out " + out + " weighted " + weighted);
          }
        }
      }
    }
  }

  @Test
  void singleNodeWithAndWithoutInputSelfLoop() {
    long[] id = {42L};
    DenseMatrix h = DenseMatrix.of(new float[][] {{1f, -2f, 0.5f}});
    SplittableRandom r = new SplittableRandom(35);
    DenseMatrix w = SparseTestGraphs.randomMatrix(r, 3, 2);
    float[] as = SparseTestGraphs.randomVector(r, 2);
    float[] ad = SparseTestGraphs.randomVector(r, 2);
    GraphBlock bare = SparseTestGraphs.build(id, new long[0], List.of(), true);
    GraphBlock looped = SparseTestGraphs.build(id, new long[0], List.of(new Edge(0, 0, 3f), new Edge(0, 0, 2f)), true);
    Layer gcn = new GcnLayer(LayerSpec.gcn(3, 2, Activation.NONE, false), w, null);
    Layer gat = new GatLayer(LayerSpec.gat(3, 2, 1, true, 0.2f, Activation.NONE, false), w, as, ad, null);
    double[][] z = ContractReference.matmul(h, w);
    for (GraphBlock g : new GraphBlock[] {bare, looped}) {
      // Input self-loops ignored: the node is its own only neighbour, weight 1, d = 1.
      assertClose(z, ContractReference.run(gcn, g, h), 1e-6, "gcn single node");
      assertClose(z, ContractReference.run(gat, g, h), 1e-6, "gat single node");
    }
    Layer sage = new SageLayer(LayerSpec.sage(3, 2, Activation.NONE, false, -1), w, w, null);
    assertClose(z, ContractReference.run(sage, bare, h), 1e-6, "sage: empty neighbourhood contributes zero");
    double[][] twice = {{2 * z[0][0], 2 * z[0][1]}};
    assertClose(twice, ContractReference.run(sage, looped, h), 1e-6, "sage: self-loops are ordinary edges");
  }

  private static List<Layer> allLayers(SplittableRandom r, int in, int out) {
    List<Layer> layers = new ArrayList<>();
    layers.add(new GcnLayer(LayerSpec.gcn(in, out, Activation.TANH, true), SparseTestGraphs.randomMatrix(r, in, out),
        SparseTestGraphs.randomVector(r, out)));
    for (boolean first : new boolean[] {true, false}) {
      layers.add(new SageLayer(LayerSpec.sage(in, out, Activation.SIGMOID, true, -1),
          SparseTestGraphs.randomMatrix(r, in, out), SparseTestGraphs.randomMatrix(r, in, out),
          SparseTestGraphs.randomVector(r, out), first));
    }
    for (boolean concat : new boolean[] {true, false}) {
      LayerSpec spec = LayerSpec.gat(in, out, 2, concat, 0.1f, Activation.LEAKY_RELU, true);
      layers.add(new GatLayer(spec, SparseTestGraphs.randomMatrix(r, in, 2 * out),
          SparseTestGraphs.randomVector(r, 2 * out), SparseTestGraphs.randomVector(r, 2 * out),
          SparseTestGraphs.randomVector(r, spec.outputWidth())));
    }
    return layers;
  }

  @Test
  void transformRowsInAnyOrderEqualsTransform() {
    SplittableRandom r = new SplittableRandom(36);
    GraphBlock g = SparseTestGraphs.random(r, 150, 0, 600, true);
    int n = g.numNodes();
    for (Layer layer : allLayers(r, 17, 6)) {
      DenseMatrix h = SparseTestGraphs.randomMatrix(r, n, 17);
      DenseMatrix msg = new DenseMatrix(n, layer.messageWidth());
      DenseMatrix self = new DenseMatrix(n, Math.max(1, layer.selfWidth()));
      layer.transform(g, h, 0, n, msg, self);
      int[] order = shuffled(r, n);
      DenseMatrix permuted = new DenseMatrix(n, 17);
      for (int k = 0; k < n; k++) {
        System.arraycopy(h.data(), h.offset(order[k]), permuted.data(), permuted.offset(k), 17);
      }
      DenseMatrix msg2 = new DenseMatrix(n, layer.messageWidth());
      DenseMatrix self2 = new DenseMatrix(n, Math.max(1, layer.selfWidth()));
      // Two batches, as rows arrive while loading.
      layer.transformRows(g, permuted, order, 70, msg2, self2);
      DenseMatrix rest = new DenseMatrix(n - 70, 17, Arrays.copyOfRange(permuted.data(), 70 * 17, n * 17));
      layer.transformRows(g, rest, Arrays.copyOfRange(order, 70, n), n - 70, msg2, self2);
      assertClose(toDouble(msg), msg2, 1e-6, layer.spec().type() + " messages");
      assertClose(toDouble(self), self2, 1e-6, layer.spec().type() + " self rows");
    }
  }

  @Test
  void blockWithHaloSlotsGivesTheWholeGraphResult() {
    SplittableRandom r = new SplittableRandom(37);
    GraphBlock whole = SparseTestGraphs.random(r, 120, 0, 700, true);
    Csr a = whole.inEdges();
    int n = whole.numNodes();
    // Local nodes: a random subset in shuffled order; halo: the other sources their in-edges need.
    int[] order = shuffled(r, n);
    int local = n / 2;
    int[] localOf = new int[n];
    Arrays.fill(localOf, -1);
    for (int k = 0; k < local; k++) {
      localOf[order[k]] = k;
    }
    List<Long> halo = new ArrayList<>();
    Map<Integer, Integer> haloSlot = new HashMap<>();
    List<Edge> edges = new ArrayList<>();
    for (int k = 0; k < local; k++) {
      int v = order[k];
      for (int e = a.rowPtr()[v]; e < a.rowPtr()[v + 1]; e++) {
        int j = a.colIdx()[e];
        int slot = localOf[j];
        if (slot < 0) {
          slot = local + haloSlot.computeIfAbsent(j, x -> {
            halo.add(whole.nodeIds()[x]);
            return halo.size() - 1;
          });
        }
        edges.add(new Edge(slot, k, a.weight(e)));
      }
    }
    assertTrue(halo.size() > 10, "the block needs real halo slots");
    long[] localIds = new long[local];
    int[] haloNodes = new int[halo.size()];
    for (int k = 0; k < local; k++) {
      localIds[k] = whole.nodeIds()[order[k]];
    }
    haloSlot.forEach((node, s) -> haloNodes[s] = node);
    GraphBlock block = SparseTestGraphs.build(localIds, halo.stream().mapToLong(Long::longValue).toArray(), edges,
        true);

    for (Layer layer : allLayers(r, 9, 4)) {
      DenseMatrix h = SparseTestGraphs.randomMatrix(r, n, 9);
      DenseMatrix expected = ContractReference.run(layer, whole, h);
      DenseMatrix wholeMsg = new DenseMatrix(n, layer.messageWidth());
      DenseMatrix wholeSelf = new DenseMatrix(n, Math.max(1, layer.selfWidth()));
      layer.transform(whole, h, 0, n, wholeMsg, wholeSelf); // the peers' work for the halo rows

      DenseMatrix hLocal = new DenseMatrix(local, 9);
      for (int k = 0; k < local; k++) {
        System.arraycopy(h.data(), h.offset(order[k]), hLocal.data(), hLocal.offset(k), 9);
      }
      DenseMatrix msg = new DenseMatrix(block.numSlots(), layer.messageWidth());
      DenseMatrix self = new DenseMatrix(local, Math.max(1, layer.selfWidth()));
      layer.transform(block, hLocal, 0, local, msg, self);
      for (int s = 0; s < haloNodes.length; s++) {
        System.arraycopy(wholeMsg.data(), wholeMsg.offset(haloNodes[s]), msg.data(), msg.offset(local + s),
            layer.messageWidth());
      }
      DenseMatrix out = new DenseMatrix(local, layer.outWidth());
      layer.aggregate(block, msg, self, 0, local, out);
      double[][] want = new double[local][];
      for (int k = 0; k < local; k++) {
        want[k] = toDouble(expected)[order[k]];
      }
      assertClose(want, out, 1e-5, layer.spec().type() + " on a block with halo");
    }
  }

  private static int[] shuffled(SplittableRandom r, int n) {
    int[] p = new int[n];
    Arrays.setAll(p, i -> i);
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }

  private static double[][] toDouble(DenseMatrix m) {
    double[][] d = new double[m.rows()][m.cols()];
    for (int i = 0; i < m.rows(); i++) {
      for (int c = 0; c < m.cols(); c++) {
        d[i][c] = m.get(i, c);
      }
    }
    return d;
  }
}
