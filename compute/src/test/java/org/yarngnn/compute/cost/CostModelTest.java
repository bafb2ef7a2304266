package org.yarngnn.compute.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.model.LayerType;

class CostModelTest {
  private static final CostRates EASY = new CostRates(1e6, 1e6, 1e4, 1e5, 1e6, 1e8, 1e6, 1e6, 2e6, 3);
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
    // Edges phase is the peak: one worker owns the rows it read, kept as its matrix 4*16*1000 (no gathered copy),
    // ids 48*1000, edges 30*10000.
    assertEquals(Math.round(1.25 * (64_000 + 48_000 + 300_000)) + CostModel.WORKER_BASE_HEAP,
        e.heapBytesPerWorker());
    assertEquals(e.heapBytesPerWorker() + CostModel.NATIVE_BYTES, e.rssBytesPerWorker());
  }

  @Test
  void twoWorkersByHand() {
    CostEstimate e = CostModel.estimate(small().workers(2).build());
    // 500 nodes, 5000 edges each; half of what a worker routes goes to its peer: the wire (1e6 B/s) for what it
    // sends, the CPU (2e6 B/s on its one core) for what it sends and as much again received.
    double rows = 0.5 * 500 * 80;
    assertEquals(500 * 80 / 1e6 + rows / 1e6 + 2 * rows / 2e6, e.phaseSeconds().get("route-nodes"), 1e-12);
    double edges = 12 * 0.5 * 5000;
    assertEquals(5000 / 1e4 + edges / 1e6 + 2 * edges / 2e6, e.phaseSeconds().get("edges"), 1e-12);
    double halo = 500 * -Math.expm1(-0.5 * 5000 / 500.0);
    assertEquals(halo, e.haloRowsPerWorker(), 1e-9);
    assertEquals(Math.round(4 * 2 * halo * 8), e.bytesPerLayer().get(0));
    // The plan asks for the halo rows by 8-byte id; the layer sends its halo rows' 8 floats.
    assertEquals(5000 / 1e5 + 2 * 8 * halo / 2e6, e.phaseSeconds().get("plan"), 1e-12);
    double compute = 2.0 * 500 * 16 * 8 / 1e8 + 5000 * 8 / 1e6;
    assertEquals(compute + 32 * halo / 1e6 + 2 * 32 * halo / 2e6, e.phaseSeconds().get("layer0"), 1e-12);
    // Bytes sent by both workers, phase by phase.
    assertEquals(2 * rows, e.sentBytes().get("route-nodes"), 1e-9);
    assertEquals(2 * edges, e.sentBytes().get("edges"), 1e-9);
    assertEquals(2 * 8 * halo, e.sentBytes().get("plan"), 1e-9);
    assertEquals(2 * 32 * halo, e.sentBytes().get("layer0"), 1e-9);
    assertEquals(2 * (rows + edges + 8 * halo + 32 * halo), e.totalSentBytes(), 1e-6);
    assertEquals(List.of("read-nodes", "route-nodes", "edges", "plan", "layer0", "write"),
        List.copyOf(e.phaseSeconds().keySet()));
  }

  @Test
  void anUnpipelinedExchangeKeepsNoHaloUsers() {
    // gcn: one in-edge block for every layer; its users are 4 n (wait counts) + 4 q E (rows of remote edges).
    CostInputs piped = big().layers(List.of(new CostLayer(LayerType.GCN, 128, 128, 1, -1),
        new CostLayer(LayerType.GCN, 128, 128, 1, -1))).workers(2).build();
    CostInputs unpiped = piped.toBuilder().pipelined(false).build();
    assertEquals(4 * 500_000 + 4 * 0.5 * 10_000_000, CostModel.haloUsersBytes(piped), 1e-6);
    assertEquals(0, CostModel.haloUsersBytes(unpiped));
    assertEquals(0, CostModel.haloUsersBytes(piped.toBuilder().workers(1).build()));
    // The layers are the peak here: the users come off the heap, times the headroom.
    long saved = CostModel.estimate(piped).heapBytesPerWorker() - CostModel.estimate(unpiped).heapBytesPerWorker();
    assertEquals(CostModel.HEAP_HEADROOM * CostModel.haloUsersBytes(piped), saved, 1.0);
    assertEquals(CostModel.estimate(piped).seconds(), CostModel.estimate(unpiped).seconds(), 1e-12);
  }

  @Test
  void readingAllEdgesSendsNoneAndReadsTheWholeTable() {
    CostEstimate shared = CostModel.estimate(small().workers(2).build());
    CostEstimate all = CostModel.estimate(small().workers(2).readAllEdges(true).build());
    // 10000 edges read by each worker (the reading share of a lone worker's rate), 5000 of them built; none sent.
    double a = CostModel.EDGE_READING_SHARE;
    assertEquals((a * 10000 + (1 - a) * 5000) / 1e4, all.phaseSeconds().get("edges"), 1e-12);
    assertEquals(0, all.sentBytes().get("edges"), 0);
    assertTrue(shared.sentBytes().get("edges") > 0);
    // Every other phase is the same.
    for (String phase : List.of("read-nodes", "route-nodes", "plan", "layer0", "write")) {
      assertEquals(shared.phaseSeconds().get(phase), all.phaseSeconds().get(phase), 1e-12, phase);
    }
    // A worker alone reads what it keeps either way.
    assertEquals(CostModel.estimate(small().build()).phaseSeconds().get("edges"),
        CostModel.estimate(small().readAllEdges(true).build()).phaseSeconds().get("edges"), 1e-12);
  }

  @Test
  void workersWithPeersAddTheirOwnFixedSeconds() {
    CostRates r = EASY.withFixedSeconds(java.util.Map.of("edges", 0.5, CostModel.PEERS + "edges", 0.25));
    CostEstimate one = CostModel.estimate(small().rates(r).build());
    CostEstimate two = CostModel.estimate(small().workers(2).readAllEdges(true).rates(r).build());
    double a = CostModel.EDGE_READING_SHARE;
    assertEquals(5000 * 2 / 1e4 + 0.5, one.phaseSeconds().get("edges"), 1e-12);
    assertEquals((a * 10000 + (1 - a) * 5000) / 1e4 + 0.5 + 0.25, two.phaseSeconds().get("edges"), 1e-12);
  }

  @Test
  void routingToPeersCostsCpuOnTopOfTheWireAndNothingToItself() {
    CostRates free = EASY.withPeerBytes(1e300);
    CostEstimate one = CostModel.estimate(small().build());
    assertEquals(CostModel.estimate(small().rates(free).build()).seconds(), one.seconds(), 1e-12);
    assertEquals(0, one.totalSentBytes(), 0);
    for (int p : new int[] {2, 4}) {
      for (double c : new double[] {0.5, 1, 4}) {
        CostEstimate paid = CostModel.estimate(small().workers(p).coresPerWorker(c).build());
        CostEstimate wire = CostModel.estimate(small().workers(p).coresPerWorker(c).rates(free).build());
        // The CPU term: each byte a worker sends, and as many received, over its min(2, c) routing cores.
        double perWorker = paid.totalSentBytes() / p;
        double cpu = 2 * perWorker / (2e6 * Math.min(2, c));
        assertEquals(cpu, paid.seconds() - wire.seconds(), 1e-9, p + " workers, " + c + " cores");
        for (String phase : List.of("route-nodes", "edges", "plan", "layer0")) {
          assertTrue(paid.phaseSeconds().get(phase) > wire.phaseSeconds().get(phase), phase);
        }
        assertEquals(wire.phaseSeconds().get("read-nodes"), paid.phaseSeconds().get("read-nodes"), 0);
        assertEquals(wire.phaseSeconds().get("write"), paid.phaseSeconds().get("write"), 0);
      }
    }
  }

  @Test
  void trainingAddsEpochsInsteadOfLayersAndWrite() {
    CostEstimate infer = CostModel.estimate(small().build());
    CostEstimate train = CostModel.estimate(small().epochs(10).build());
    assertEquals(10 * 3 * infer.phaseSeconds().get("layer0"), train.phaseSeconds().get("epochs"), 1e-12);
    assertTrue(!train.phaseSeconds().containsKey("write") && !train.phaseSeconds().containsKey("layer0"));
    assertEquals(3 * infer.phaseSeconds().get("layer0"), train.epochSeconds(10), 1e-12);
    // Two workers: each epoch also moves every layer's halo rows three times, on the wire and through the CPU.
    CostEstimate two = CostModel.estimate(small().workers(2).epochs(1).build());
    CostEstimate twoInfer = CostModel.estimate(small().workers(2).build());
    double halo = twoInfer.haloRowsPerWorker();
    double compute = 2.0 * 500 * 16 * 8 / 1e8 + 5000 * 8 / 1e6;
    assertEquals(3 * compute + 3 * (4 * halo * 8 / 1e6 + 2 * 4 * halo * 8 / 2e6), two.phaseSeconds().get("epochs"),
        1e-12);
    assertEquals(3 * 2 * 32 * halo, two.sentBytes().get("epochs"), 1e-6);
    assertTrue(!two.sentBytes().containsKey("layer0"));
    // Training's exchanges have a CPU rate of their own; routing's (the plan's requests) is untouched by it.
    CostEstimate cheap = CostModel.estimate(small().rates(EASY.withTrainPeerBytes(8e6)).workers(2).epochs(1).build());
    assertEquals(3 * compute + 3 * (4 * halo * 8 / 1e6 + 2 * 4 * halo * 8 / 8e6), cheap.phaseSeconds().get("epochs"),
        1e-12);
    assertEquals(two.phaseSeconds().get("plan"), cheap.phaseSeconds().get("plan"), 1e-12);
  }

  @Test
  void fixedCostsAddToTheirPhase() {
    CostRates withFixed = EASY.withFixedSeconds(java.util.Map.of("layer0", 2.0));
    CostEstimate a = CostModel.estimate(small().build());
    CostEstimate b = CostModel.estimate(small().rates(withFixed).build());
    assertEquals(a.phaseSeconds().get("layer0") + 2, b.phaseSeconds().get("layer0"), 1e-12);
    assertEquals(a.seconds() + 2, b.seconds(), 1e-12);
  }

  @Test
  void trainingTakesItsOwnFixedCostsWhereTheRatesHaveThem() {
    CostRates fixed = EASY.withFixedSeconds(java.util.Map.of("plan", 1.0, "train:plan", 5.0, "epochs", 7.0));
    CostEstimate infer = CostModel.estimate(small().rates(fixed).build());
    CostEstimate train = CostModel.estimate(small().rates(fixed).epochs(10).build());
    CostEstimate bare = CostModel.estimate(small().epochs(10).build());
    assertEquals(0.1 + 1, infer.phaseSeconds().get("plan"), 1e-12);
    assertEquals(0.1 + 5, train.phaseSeconds().get("plan"), 1e-12);
    // The first epoch's warm-up is paid once, whatever the epochs.
    assertEquals(bare.phaseSeconds().get("epochs") + 7, train.phaseSeconds().get("epochs"), 1e-12);
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
    // Containers of their own whose transport's CPU costs what Netty's encoding costs on a core (GB/s), not what
    // two --local workers sharing this machine's two cores measured (REFERENCE's 174 MB/s, at which the
    // exchange of this graph's halo outweighs halving its compute: the model then rightly says stay on one).
    CostRates r = CostRates.REFERENCE;
    CostRates cluster = r.withPeerBytes(2e9).withTrainPeerBytes(2e9);
    CostEstimate prev = null;
    for (int p : new int[] {1, 2, 4, 8, 16}) {
      CostEstimate e = CostModel.estimate(big().rates(cluster).workers(p).build());
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
    double fixed = CostRates.REFERENCE.fixedSeconds().getOrDefault("plan", 0.0);
    assertEquals(2 * (full.phaseSeconds().get("plan") - fixed) + fixed, half.phaseSeconds().get("plan"), 1e-9);
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
    assertThrows(IllegalArgumentException.class, () -> new CostRates(0, 1, 1, 1, 1, 1, 1, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new CostRates(1, 1, 1, 1, 1, 1, 1, 1, 0, 1));
  }
  @Test
  void idOrderedFilesReadByRunsRouteOnlyTheStraddlingRows() {
    int files = 8;
    long n = 1_000_000;
    long[] lo = new long[files];
    long[] hi = new long[files];
    long[] rows = new long[files];
    for (int f = 0; f < files; f++) {
      lo[f] = f * n / files;
      hi[f] = (f + 1) * n / files - 1;
      rows[f] = hi[f] - lo[f] + 1;
    }
    for (int w : new int[] {1, 2, 4, 8}) {
      assertEquals(0, CostInputs.contiguousCrossing(n, w, lo, hi, rows), w + " workers");
    }
    // Three workers own [0, 333333), [333333, 666666), [666666, 1M): files 2 and 5 straddle a boundary.
    double three = CostInputs.contiguousCrossing(n, 3, lo, hi, rows);
    assertEquals((125_000 - 83_333 + 125_000 - 41_666) / 1e6, three, 1e-6);
    // Unknown spans, or ids that are not 0..n-1 (hash ownership): not known.
    assertTrue(Double.isNaN(CostInputs.contiguousCrossing(n, 2, null, hi, rows)));
    long[] shifted = lo.clone();
    shifted[0] = 1;
    assertTrue(Double.isNaN(CostInputs.contiguousCrossing(n, 2, shifted, hi, rows)));
    // Files that each span all ids (rows in no order): half the rows cross at two workers.
    long[] all0 = new long[files];
    long[] allN = new long[files];
    java.util.Arrays.fill(allN, n - 1);
    assertEquals(0.5, CostInputs.contiguousCrossing(n, 2, all0, allN, rows), 1e-9);
  }

  @Test
  void routeNodesSendsTheCrossingShare() {
    CostInputs any = big().workers(2).build();
    CostInputs ordered = big().workers(2).nodeCrossing(0).build();
    double rowBytes = 500_000 * (16 + 4.0 * 128);
    assertEquals(rowBytes, CostModel.estimate(any).sentBytes().get("route-nodes"), 1);
    assertEquals(0, CostModel.estimate(ordered).sentBytes().get("route-nodes"), 1e-9);
    assertTrue(CostModel.estimate(ordered).phaseSeconds().get("route-nodes")
        < CostModel.estimate(any).phaseSeconds().get("route-nodes"));
    assertThrows(IllegalArgumentException.class, () -> big().nodeCrossing(1.5).build());
  }
  @Test
  void haloSkewScalesTheHaloAndWhatItSends() {
    CostEstimate even = CostModel.estimate(big().workers(2).build());
    CostEstimate skewed = CostModel.estimate(big().workers(2).haloSkew(0.5).build());
    assertEquals(0.5 * even.haloRowsPerWorker(), skewed.haloRowsPerWorker(), 1e-6);
    assertEquals(0.5 * even.sentBytes().get("layer0"), skewed.sentBytes().get("layer0"), 1);
    assertThrows(IllegalArgumentException.class, () -> big().haloSkew(0).build());
    assertThrows(IllegalArgumentException.class, () -> big().haloSkew(1.5).build());
  }
}
