package org.yarngnn.compute.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.model.LayerType;

class CostModelTest {
  private static final CostRates EASY = new CostRates(1e6, 1e6, 1e4, 1e5, 1e6, 1e8, 1e6, 1e6, 3);
  private static final List<CostLayer> GCN = List.of(new CostLayer(LayerType.GCN, 16, 8, 1, -1));
  private static final List<CostLayer> SAGE2 = List.of(new CostLayer(LayerType.SAGE, 128, 128, 1, 10),
      new CostLayer(LayerType.SAGE, 128, 128, 1, 10));

  private static CostInputs.Builder small() {
    return CostInputs.builder().nodes(1000).edges(10_000).featureWidth(16).layers(GCN).fused(false)
        .coresPerWorker(1).rates(EASY);
  }

  private static CostInputs.Builder big() {
    return CostInputs.builder().nodes(1_000_000).edges(20_000_000).featureWidth(128).layers(SAGE2)
        .coresPerWorker(2);
  }

  @Test
  void oneWorkerByHand() {
    CostEstimate e = CostModel.estimate(small().build());
    assertEquals(1000 * (8 + 64) / 1e6, e.phaseSeconds().get("read-nodes"), 1e-12);
    assertEquals(1000 * (16 + 64) / 1e6, e.phaseSeconds().get("route-nodes"), 1e-12);
    assertEquals(1.0, e.phaseSeconds().get("edges"), 1e-12);
    assertEquals(0.1, e.phaseSeconds().get("plan"), 1e-12);
    assertEquals(2.0 * 1000 * 16 * 8 / 1e8 + 10_000 * 8 / 1e6, e.phaseSeconds().get("layer0"), 1e-12);
    assertEquals(1000 * (8 + 32) / 1e6, e.phaseSeconds().get("write"), 1e-12);
    assertEquals(0.072 + 0.08 + 1.0 + 0.1 + 0.08256 + 0.04, e.seconds(), 1e-9);
    assertEquals(List.of(0L), e.bytesPerLayer());
    // Edges phase is the peak: rows and their gathered matrix 8*16*1000, ids 48*1000, edges 30*10000.
    assertEquals(Math.round(1.25 * (128_000 + 48_000 + 300_000)) + CostModel.WORKER_BASE_HEAP,
        e.heapBytesPerWorker());
    assertEquals(e.heapBytesPerWorker() + CostModel.NATIVE_BYTES, e.rssBytesPerWorker());
  }

  @Test
  void twoWorkersByHand() {
    CostEstimate e = CostModel.estimate(small().workers(2).build());
    // 500 nodes, 5000 edges each; half of what a worker routes goes to its peer.
    assertEquals(500 * 80 / 1e6 * 1.5, e.phaseSeconds().get("route-nodes"), 1e-12);
    assertEquals(5000 / 1e4 + 12 * 0.5 * 5000 / 1e6, e.phaseSeconds().get("edges"), 1e-12);
    double halo = 500 * -Math.expm1(-0.5 * 5000 / 500.0);
    assertEquals(halo, e.haloRowsPerWorker(), 1e-9);
    assertEquals(Math.round(4 * 2 * halo * 8), e.bytesPerLayer().get(0));
  }

  @Test
  void trainingAddsEpochsInsteadOfLayersAndWrite() {
    CostEstimate infer = CostModel.estimate(small().build());
    CostEstimate train = CostModel.estimate(small().epochs(10).build());
    assertEquals(10 * 3 * infer.phaseSeconds().get("layer0"), train.phaseSeconds().get("epochs"), 1e-12);
    assertTrue(!train.phaseSeconds().containsKey("write") && !train.phaseSeconds().containsKey("layer0"));
    assertEquals(3 * infer.phaseSeconds().get("layer0"), train.epochSeconds(10), 1e-12);
    // Two workers: each epoch also moves every layer's halo rows three times.
    CostEstimate two = CostModel.estimate(small().workers(2).epochs(1).build());
    CostEstimate twoInfer = CostModel.estimate(small().workers(2).build());
    double halo = twoInfer.haloRowsPerWorker();
    double compute = 2.0 * 500 * 16 * 8 / 1e8 + 5000 * 8 / 1e6;
    assertEquals(3 * compute + 3 * 4 * halo * 8 / 1e6, two.phaseSeconds().get("epochs"), 1e-5); // bytes rounded
  }

  @Test
  void fixedCostsAddToTheirPhase() {
    CostRates withFixed = new CostRates(1e6, 1e6, 1e4, 1e5, 1e6, 1e8, 1e6, 1e6, 3, java.util.Map.of("layer0", 2.0));
    CostEstimate a = CostModel.estimate(small().build());
    CostEstimate b = CostModel.estimate(small().rates(withFixed).build());
    assertEquals(a.phaseSeconds().get("layer0") + 2, b.phaseSeconds().get("layer0"), 1e-12);
    assertEquals(a.seconds() + 2, b.seconds(), 1e-12);
  }

  @Test
  void moreEdgesCostMoreTimeAndMemory() {
    CostEstimate a = CostModel.estimate(big().build());
    CostEstimate b = CostModel.estimate(big().edges(40_000_000).build());
    assertTrue(b.seconds() > a.seconds());
    assertTrue(b.heapBytesPerWorker() > a.heapBytesPerWorker());
    assertTrue(b.phaseSeconds().get("edges") > a.phaseSeconds().get("edges"));
  }

  @Test
  void moreWorkersTakeLessTimeAndHeapEachButExchangeMore() {
    CostEstimate prev = null;
    for (int p : new int[] {1, 2, 4, 8, 16}) {
      CostEstimate e = CostModel.estimate(big().workers(p).build());
      assertTrue(e.haloRowsPerWorker() <= 1_000_000 - 1_000_000.0 / p);
      if (prev != null) {
        assertTrue(e.seconds() < prev.seconds(), "seconds at " + p);
        assertTrue(e.heapBytesPerWorker() < prev.heapBytesPerWorker(), "heap at " + p);
        assertTrue(e.bytesPerLayer().get(0) > prev.bytesPerLayer().get(0), "bytes at " + p);
      }
      prev = e;
    }
  }

  @Test
  void sharedCoresSlowOneThreadPhases() {
    // Four --local workers on two cores: each gets half a core.
    CostEstimate full = CostModel.estimate(big().workers(4).coresPerWorker(1).build());
    CostEstimate half = CostModel.estimate(big().workers(4).coresPerWorker(0.5).build());
    assertEquals(2 * full.phaseSeconds().get("plan"), half.phaseSeconds().get("plan"), 1e-9);
  }

  @Test
  void sageSamplesAtMostItsFanout() {
    CostLayer sage = SAGE2.get(0);
    assertEquals(10 * -Math.expm1(-2.0), sage.sampledDegree(20), 1e-12);
    assertEquals(3, new CostLayer(LayerType.GCN, 4, 4, 1, -1).sampledDegree(3), 0);
    assertTrue(sage.sampledDegree(1000) <= 10);
  }

  @Test
  void theModelStaysUnderTheIssuesTargetUpToTwoWorkers() {
    // Beyond, a sage worker's halo messages (4 h msg bytes, h near all remote nodes) pass the target.
    for (int p : new int[] {1, 2}) {
      CostInputs in = big().workers(p).build();
      assertTrue(CostModel.estimate(in).heapBytesPerWorker() <= CostModel.targetHeapBytesPerWorker(in), "p " + p);
    }
  }

  @Test
  void containersGrowWithTheGraph() {
    int small = CostModel.containersNeeded(big().build(), 32 * 1024, 10_000);
    int large = CostModel.containersNeeded(big().nodes(100_000_000).edges(10_000_000_000L).build(), 32 * 1024,
        10_000);
    assertTrue(small >= 1 && large > small, small + " vs " + large);
    CostInputs at = big().nodes(100_000_000).edges(10_000_000_000L).workers(large).build();
    assertTrue(CostModel.JVM_BASE_HEAP + CostModel.estimate(at).heapBytesPerWorker() <= (32L * 1024 * 3 / 4 << 20));
  }

  @Test
  void refusesNonsense() {
    assertThrows(IllegalArgumentException.class, () -> small().workers(0).build());
    assertThrows(IllegalArgumentException.class, () -> small().layers(List.of()).build());
    assertThrows(IllegalArgumentException.class, () -> new CostRates(0, 1, 1, 1, 1, 1, 1, 1, 1));
  }
}
