package org.yarngnn.app.graphworker;

import java.util.ArrayList;
import java.util.List;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.infer.LayerwiseInference;
import org.yarngnn.compute.infer.ReceptiveField;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.InputException;
import org.yarngnn.partition.InputFinding;

/**
 * The plan of targeted inference ({@code infer --targets}): the targets' sampled receptive field, distributed
 * over the workers, and the halo exchange restricted to it. Built in the PLAN phase instead of {@link HaloPlan}'s
 * all-node plan; the layers then run {@link LayerwiseInference#layerRows} over it and the worker writes only its
 * target rows.
 *
 * <p>Design: each worker knows its own target rows (inference's {@code TargetRows}: every worker reads the targets
 * table and keeps the ids it owns). The needed rows then propagate backwards, one exchange round of row ids per
 * layer over the worker mesh, before any layer runs: at layer k (from the last down to the first) a worker samples the
 * in-edges of only the rows it must output at layer k ({@link ReceptiveField#sampledEdges}: the same per-row
 * samples the all-node job draws), sends each owner one {@link HaloRequest} with the ids of the halo sources those
 * edges reference (the same message, checked and bounded the same way, as the all-node plan's), and waits for
 * every peer's layer-k request. The rows it must output at layer k-1 are then its layer-k rows, their local
 * sampled sources and every row a peer asked for at layer k. The requests double as the layer's exchange tables,
 * so no halo row that no target needs moves. Degrees and the partition are the whole graph's: only which
 * destination rows are computed and which halo rows are exchanged change, so every written row equals the
 * all-node job's.
 *
 * <p>A request may arrive before the round it belongs to (a peer that got every layer-k request sooner moves on
 * to layer k-1); it is kept until then. At most one request per peer and layer is accepted, for layers below the
 * current one only; anything else fails the worker as a protocol error.
 */
public final class TargetPlan {
  /** Orders a targets finding after every construction finding (nodes, edges). */
  public static final int TARGETS_TABLE = 2;

  private final HaloPlan halo;
  private final int[][] inRows;
  private final int[][] outRows;
  private final int[] targets;

  private TargetPlan(HaloPlan halo, int[][] inRows, int[][] outRows, int[] targets) {
    this.halo = halo;
    this.inRows = inRows;
    this.outRows = outRows;
    this.targets = targets;
  }

  /** The exchange tables of the restricted layers, for {@link HaloExchange}. */
  public HaloPlan halo() {
    return halo;
  }

  /** Own rows whose layer-{@code k} messages are computed (ascending). */
  public int[] inRows(int k) {
    return inRows[k];
  }

  /** Own rows layer {@code k} outputs (ascending). */
  public int[] outRows(int k) {
    return outRows[k];
  }

  /** This worker's target rows (ascending, each once): the rows it writes. */
  public int[] targets() {
    return targets;
  }

  /** The ids of this worker's targets, in {@link #targets()} order. */
  public long[] targetIds(GraphBlock g) {
    long[] ids = new long[targets.length];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = g.nodeIds()[targets[i]];
    }
    return ids;
  }

  /** The target rows of {@code h} (one row per own node), compacted in {@link #targets()} order. */
  public DenseMatrix targetRows(DenseMatrix h) {
    DenseMatrix out = new DenseMatrix(targets.length, h.cols());
    for (int i = 0; i < targets.length; i++) {
      System.arraycopy(h.data(), h.offset(targets[i]), out.data(), out.offset(i), h.cols());
    }
    return out;
  }

  /**
   * Builds the plan from this worker's {@code targets} (ascending, distinct own rows), first agreeing with every
   * peer on the first unknown target id in table order ({@code unknown}: this worker's, or null): when there is
   * one, every worker throws the same {@link InputException} naming it.
   */
  public static TargetPlan build(WorkerPartition part, LayerwiseInference engine, WorkerMesh mesh, int self,
      int[] targets, InputFinding unknown) throws Exception {
    int depth = engine.layers().size();
    int workers = mesh.workers();
    List<WorkerMesh.Inbound> early = new ArrayList<>();
    InputFinding first = firstUnknown(mesh, self, unknown, early, depth);
    if (first != null) {
      throw new InputException(first.message());
    }
    GraphBlock g = part.graph();
    int n = g.numNodes();
    int[] haloOwner = HaloPlan.haloOwners(part);
    GraphBlock[] edges = new GraphBlock[depth];
    int[][][] sendRows = new int[depth][workers][];
    int[][][] recvSlots = new int[depth][workers][];
    int[][] in = new int[depth][];
    int[][] out = new int[depth][];
    int[] rows = targets;
    for (int k = depth - 1; k >= 0; k--) {
      out[k] = rows;
      edges[k] = ReceptiveField.sampledEdges(engine, k, g, rows);
      HaloPlan.request(k, edges[k], part, haloOwner, mesh, self, recvSlots[k]);
      sendRows[k][self] = new int[0];
      receiveRequests(k, part, mesh, self, early, sendRows[k]);
      int[][] needed = new int[workers + 1][];
      needed[workers] = ReceptiveField.localSources(edges[k], rows);
      for (int q = 0; q < workers; q++) {
        needed[q] = ReceptiveField.distinctSorted(sendRows[k][q]);
      }
      in[k] = ReceptiveField.union(n, needed);
      rows = in[k];
    }
    return new TargetPlan(HaloPlan.of(edges, sendRows, recvSlots), in, out, targets);
  }

  /**
   * Sends this worker's unknown-target finding (or none) to every peer and collects theirs: the smallest, so
   * every worker names the same first unknown id. Requests of the first layer round that come meanwhile are kept.
   */
  private static InputFinding firstUnknown(WorkerMesh mesh, int self, InputFinding own, List<WorkerMesh.Inbound> early,
      int depth) throws Exception {
    int workers = mesh.workers();
    for (int q = 0; q < workers; q++) {
      if (q != self) {
        mesh.send(q, new ConstructionFinding(own));
      }
    }
    boolean[] found = new boolean[workers];
    InputFinding first = own;
    for (int received = 0; received < workers - 1; ) {
      WorkerMesh.Inbound m = mesh.take(WorkerMesh.PEER_TIMEOUT_MS);
      if (m.message() instanceof ConstructionFinding f) {
        if (found[m.from()]) {
          throw new ProtocolException("worker " + self + ": a second targets finding from worker " + m.from());
        }
        found[m.from()] = true;
        first = InputFinding.min(first, f.error());
        received++;
      } else if (m.message() instanceof HaloRequest r && found[m.from()] && r.layer() == depth - 1) {
        early.add(m);
      } else {
        WorkerMesh.releaseQuietly(m.message());
        throw new ProtocolException("worker " + self + ": unexpected message from worker " + m.from()
            + " while checking the targets: " + m.message());
      }
    }
    return first;
  }

  /** Every peer's layer-{@code k} request, answered into {@code sendRows}; later layers' early ones are kept. */
  private static void receiveRequests(int k, WorkerPartition part, WorkerMesh mesh, int self,
      List<WorkerMesh.Inbound> early, int[][] sendRows) throws Exception {
    int workers = mesh.workers();
    int received = 0;
    List<WorkerMesh.Inbound> pending = new ArrayList<>(early);
    early.clear();
    while (received < workers - 1) {
      WorkerMesh.Inbound m = !pending.isEmpty() ? pending.remove(0) : mesh.take(WorkerMesh.PEER_TIMEOUT_MS);
      if (!(m.message() instanceof HaloRequest r) || r.layer() > k || r.layer() < 0) {
        WorkerMesh.releaseQuietly(m.message());
        throw new ProtocolException("worker " + self + ": unexpected message from worker " + m.from()
            + " in the targets' layer " + k + " round: " + m.message());
      }
      if (r.layer() < k) {
        // A peer one round ahead: at most one request of layer k-1 per peer, and only once it sent layer k's.
        if (r.layer() != k - 1 || sendRows[m.from()] == null || contains(early, m.from())) {
          throw new ProtocolException("worker " + self + ": worker " + m.from() + " sent a layer " + r.layer()
              + " request during the layer " + k + " round");
        }
        early.add(m);
        continue;
      }
      if (sendRows[m.from()] != null) {
        throw new ProtocolException("worker " + self + ": a second layer " + k + " request from worker " + m.from());
      }
      sendRows[m.from()] = HaloPlan.answer(part, m.from(), r, self);
      received++;
    }
  }

  private static boolean contains(List<WorkerMesh.Inbound> early, int from) {
    for (WorkerMesh.Inbound m : early) {
      if (m.from() == from) {
        return true;
      }
    }
    return false;
  }
}
