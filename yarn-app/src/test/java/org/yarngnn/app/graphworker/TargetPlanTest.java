package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.infer.LayerwiseInference;
import org.yarngnn.compute.kernel.Activation;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.model.ModelSpec;
import org.yarngnn.compute.model.RandomModels;
import org.yarngnn.io.table.InputException;
import org.yarngnn.partition.InputFinding;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionBlockBuilder;

/**
 * The targets' plan over two real meshes: worker 0 runs {@link TargetPlan#build}; the test is worker 1, well-
 * behaved or not. The field propagates backwards through the peer's requests, and a request out of turn, twice or
 * for a layer that does not exist fails the worker as a protocol error.
 */
@Timeout(60)
class TargetPlanTest {
  /**
   * Ids 0..3, range ownership over 2 workers: worker 0 owns 0 and 1. Worker 0's in-edges: 0 <- 1, 1 <- 2 (a halo
   * slot: node 2, owned by worker 1).
   */
  private static WorkerPartition worker0() {
    GraphBlock g = new GraphBlock(new long[] {0, 1}, new long[] {2},
        new Csr(2, 3, new int[] {0, 1, 2}, new int[] {1, 2}, null));
    return new WorkerPartition(g, PartitionBlockBuilder.indexOf(g.nodeIds()),
        Ownership.choose(Ownership.Kind.RANGE, 2, 4, 0, 3), null, false, null, null);
  }

  private static LayerwiseInference engine() {
    return new LayerwiseInference(RandomModels.random(new ModelSpec("none", List.of(
        LayerSpec.gcn(3, 2, Activation.RELU, true), LayerSpec.gcn(2, 2, Activation.NONE, true)), "none", false),
        1), 0);
  }

  private static WorkerMesh[] meshes() throws Exception {
    WorkerMesh[] m = {new WorkerMesh(0, 2, WorkerMeshTest.options(0), l -> { }),
        new WorkerMesh(1, 2, WorkerMeshTest.options(1), l -> { })};
    List<Endpoint> endpoints = List.of(new Endpoint(0, "127.0.0.1", m[0].port()),
        new Endpoint(1, "127.0.0.1", m[1].port()));
    Background b = new Background("connect", () -> m[1].connect(endpoints, 10_000));
    m[0].connect(endpoints, 10_000);
    b.join();
    return m;
  }

  /** Runs worker 0's build of the plan for targets {@code rows} while {@code peer} plays worker 1. */
  private static TargetPlan run(int[] rows, InputFinding unknown, PeerScript peer) throws Exception {
    WorkerMesh[] m = meshes();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<TargetPlan> plan = pool.submit(() -> TargetPlan.build(worker0(), engine(), m[0], 0, rows, unknown));
      peer.play(m[1]);
      return plan.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw (Exception) e.getCause();
    } finally {
      pool.shutdownNow();
      m[0].close();
      m[1].close();
    }
  }

  @FunctionalInterface
  interface PeerScript {
    void play(WorkerMesh self) throws Exception;
  }

  /** The messages worker 0 sent the peer, in order, as text. */
  private static List<String> received(WorkerMesh peer, int count) throws Exception {
    List<String> got = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Object m = peer.take(10_000).message();
      got.add(m instanceof HaloRequest r ? "request " + r.layer() + " " + java.util.Arrays.toString(r.ids())
          : m.getClass().getSimpleName());
    }
    return got;
  }

  @Test
  void theFieldGrowsBackwardsThroughThePeersRequests() throws Exception {
    List<String> seen = new ArrayList<>();
    TargetPlan p = run(new int[] {0}, null, peer -> {
      peer.send(0, new ConstructionFinding(null));
      seen.addAll(received(peer, 2));
      // Worker 1's target (node 3) needs node 1 at layer 1; and its layer-1 rows then need node 0 at layer 0.
      peer.send(0, new HaloRequest(1, new long[] {1}));
      seen.addAll(received(peer, 1));
      peer.send(0, new HaloRequest(0, new long[] {0}));
    });
    // Layer 1: target 0 needs node 1 (local); layer 0: rows 0, 1 (and peer's 1) need node 2 from worker 1.
    assertEquals(List.of("ConstructionFinding", "request 1 []", "request 0 [2]"), seen);
    assertArrayEquals(new int[] {0}, p.outRows(1));
    assertArrayEquals(new int[] {0, 1}, p.inRows(1));
    assertArrayEquals(new int[] {0, 1}, p.outRows(0));
    assertArrayEquals(new int[] {0, 1}, p.inRows(0));
    assertArrayEquals(new int[] {1}, p.halo().sendRows(1)[1]);
    assertArrayEquals(new int[] {0}, p.halo().sendRows(0)[1]);
    assertArrayEquals(new int[] {2}, p.halo().recvSlots(0)[1]);
  }

  @Test
  void theFirstUnknownTargetOfAllWorkersIsNamedByEach() {
    InputFinding mine = new InputFinding(TargetPlan.TARGETS_TABLE, 1, 9, 0, "t.txt:9: target id 7 is not a node", true);
    InputFinding theirs = new InputFinding(TargetPlan.TARGETS_TABLE, 0, 40, 0, "s.txt:40: target id 8 is not a node",
        true);
    InputException e = assertThrows(InputException.class,
        () -> run(new int[] {0}, mine, peer -> peer.send(0, new ConstructionFinding(theirs))));
    assertEquals("s.txt:40: target id 8 is not a node", e.getMessage());
  }

  @Test
  void requestsOutOfTurnAreProtocolErrors() {
    // A layer-0 request before the layer-1 one; a second layer-1 request; a layer that does not exist.
    List<long[][]> scripts = List.of(new long[][] {{0}}, new long[][] {{1}, {1}}, new long[][] {{5}});
    for (long[][] layers : scripts) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> run(new int[] {0}, null, peer -> {
        peer.send(0, new ConstructionFinding(null));
        for (long[] l : layers) {
          peer.send(0, new HaloRequest((int) l[0], new long[0]));
        }
      }));
      assertTrue(e.getMessage().contains("worker 1"), e.getMessage());
    }
  }
}
