package org.yarngnn.app.graphworker;

import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.infer.LayerwiseInference;

/**
 * Which rows move between workers at each layer, fixed once before the first layer: per layer, the sampled
 * in-edges, the local rows to send each peer (in the order the peer asked) and the halo slots each peer's rows
 * fill (in the order they arrive). The tables are immutable after {@link #build}; the halo users kept beside them
 * ({@link #users}) are built once per block by whichever thread asks first and shared, under this plan's monitor.
 *
 * <p>Training runs the same tables in reverse ({@link HaloExchange#gradients}): a requester's halo slots
 * ({@link #recvSlots}) become the rows whose message gradients it sends back to their owner, in the same order,
 * and an owner's send rows ({@link #sendRows}) become the own rows whose gradients it receives from that peer and
 * sums.
 */
public final class HaloPlan {
  private final GraphBlock[] layerEdges;
  private final int[][][] sendRows;
  private final int[][][] recvSlots;
  /** Per layer, the halo users of the in-edge block its last exchange ran over (see {@link #users}). */
  private final HaloUsers[] users;
  /**
   * The blocks whose users are being built now, by the ahead thread or by a layer: whoever comes second waits for
   * the first rather than building a second copy (which would also replace the one a layer already holds).
   */
  private final Set<GraphBlock> building = Collections.newSetFromMap(new IdentityHashMap<>());
  /** Set by {@link #releaseUsers}: an ahead build that lags that far behind the layers builds nothing more. */
  private boolean aheadStopped;

  private HaloPlan(GraphBlock[] layerEdges, int[][][] sendRows, int[][][] recvSlots) {
    this.layerEdges = layerEdges;
    this.sendRows = sendRows;
    this.recvSlots = recvSlots;
    this.users = new HaloUsers[layerEdges.length];
  }

  public int layers() {
    return layerEdges.length;
  }

  /** Layer {@code k}'s in-edges (its per-layer sample when the layer has a fanout). */
  public GraphBlock edges(int k) {
    return layerEdges[k];
  }

  /** Local rows to send peer {@code q} at layer {@code k} (empty for this worker itself). */
  public int[][] sendRows(int k) {
    return sendRows[k];
  }

  /** Halo slots filled by peer {@code q}'s rows at layer {@code k}, in arrival order. */
  public int[][] recvSlots(int k) {
    return recvSlots[k];
  }

  /**
   * The halo users of {@code edges}, layer {@code k}'s in-edges this time: built once per block and kept, so layers
   * and epochs over the same block (every layer of a model without fanouts, every epoch of training over the whole
   * partition) skip the two passes over all in-edges. At most one is kept per layer. Waits while another thread
   * ({@link #buildUsersAhead}) builds this very block; otherwise builds it here, and the ahead build then skips it.
   */
  public HaloUsers users(int k, GraphBlock edges) throws InterruptedException {
    synchronized (this) {
      while (building.contains(edges)) {
        wait();
      }
      HaloUsers kept = kept(edges);
      if (kept != null) {
        users[k] = kept;
        return kept;
      }
      building.add(edges);
    }
    return makeUsers(k, edges, false);
  }

  /**
   * Builds the halo users of every layer's in-edges, in layer order, on a thread of its own, so that the first
   * layer's exchange finds them ready rather than making them while its peers' rows arrive (on 2-worker gcn with
   * 1M nodes, 0.3 s per worker). Call once the plan is built. A failure here (out of memory, say) is dropped: the
   * layer then builds its own and reports what goes wrong there.
   */
  public void buildUsersAhead() {
    Thread t = new Thread(() -> {
      for (int k = 0; k < layerEdges.length; k++) {
        GraphBlock edges = layerEdges[k];
        synchronized (this) {
          if (aheadStopped) {
            return;
          }
          if (kept(edges) != null || building.contains(edges)) {
            continue;
          }
          building.add(edges);
        }
        try {
          makeUsers(k, edges, true);
        } catch (Throwable e) {
          return; // left to the layer, as said above
        }
      }
    }, "halo-users");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Builds the users of {@code edges}, which the caller has claimed in {@link #building}, then keeps them for layer
   * {@code k} and wakes whoever waits for the block.
   */
  private HaloUsers makeUsers(int k, GraphBlock edges, boolean ahead) {
    HaloUsers made = null;
    try {
      made = HaloUsers.of(edges);
      return made;
    } finally {
      finish(k, edges, made, ahead);
    }
  }

  /**
   * Keeps what a build of {@code edges} made (nothing if it failed, nor an ahead build's once the users are
   * released) and wakes whoever waits for it.
   */
  private synchronized void finish(int k, GraphBlock edges, HaloUsers made, boolean ahead) {
    if (made != null && !(ahead && aheadStopped)) {
      users[k] = made;
    }
    building.remove(edges);
    notifyAll();
  }

  /** The kept users of {@code edges}, or null; call holding this plan's monitor. */
  private HaloUsers kept(GraphBlock edges) {
    for (HaloUsers u : users) {
      if (u != null && u.describes(edges)) {
        return u;
      }
    }
    return null;
  }

  /** Drops the kept halo users (after the last layer: their arrays are as large as the halo in-edges). */
  public synchronized void releaseUsers() {
    aheadStopped = true;
    Arrays.fill(users, null);
  }

  /**
   * Samples every layer once, asks each owner for the rows this worker's sampled in-edges reference, and answers
   * every peer's requests with the local rows it will send.
   */
  public static HaloPlan build(WorkerPartition part, LayerwiseInference engine, WorkerMesh mesh, int self)
      throws Exception {
    return build(part, engine.layers().size(), k -> engine.sampled(k, part.graph()), mesh, self);
  }

  /**
   * As {@link #build(WorkerPartition, LayerwiseInference, WorkerMesh, int)} for {@code depth} layers
   * whose in-edges are {@code edgesOf.apply(k)} (training: the whole partition at every layer, so that every
   * epoch's sample is covered).
   */
  public static HaloPlan build(WorkerPartition part, int depth, java.util.function.IntFunction<GraphBlock> edgesOf,
      WorkerMesh mesh, int self) throws Exception {
    int workers = mesh.workers();
    int[] haloOwner = haloOwners(part);
    GraphBlock[] layerEdges = new GraphBlock[depth];
    int[][][] sendRows = new int[depth][workers][];
    int[][][] recvSlots = new int[depth][workers][];
    for (int k = 0; k < depth; k++) {
      layerEdges[k] = edgesOf.apply(k);
      request(k, layerEdges[k], part, haloOwner, mesh, self, recvSlots[k]);
      sendRows[k][self] = new int[0];
    }
    for (int received = 0; received < depth * (workers - 1); received++) {
      WorkerMesh.Inbound in = mesh.take(WorkerMesh.PEER_TIMEOUT_MS);
      if (!(in.message() instanceof HaloRequest r) || r.layer() < 0 || r.layer() >= depth
          || sendRows[r.layer()][in.from()] != null) {
        WorkerMesh.releaseQuietly(in.message());
        throw new IllegalStateException("plan: unexpected message from worker " + in.from() + ": " + in.message());
      }
      sendRows[r.layer()][in.from()] = answer(part, in.from(), r, self);
    }
    return new HaloPlan(layerEdges, sendRows, recvSlots);
  }

  /** A plan of layers whose tables were built elsewhere (targeted inference's {@link TargetPlan}). */
  static HaloPlan of(GraphBlock[] layerEdges, int[][][] sendRows, int[][][] recvSlots) {
    return new HaloPlan(layerEdges, sendRows, recvSlots);
  }

  /** The owner of each halo slot's node. */
  static int[] haloOwners(WorkerPartition part) {
    long[] halo = part.graph().haloIds();
    int[] haloOwner = new int[halo.length];
    for (int j = 0; j < halo.length; j++) {
      haloOwner[j] = part.ownership().owner(halo[j]);
    }
    return haloOwner;
  }

  /**
   * Asks each peer for the rows layer {@code k}'s in-edges {@code edges} reference among its nodes (one
   * {@link HaloRequest} per peer, possibly empty) and fills {@code recvSlots[q]} with the halo slots peer q's rows
   * will fill, in the order asked.
   */
  static void request(int k, GraphBlock edges, WorkerPartition part, int[] haloOwner, WorkerMesh mesh, int self,
      int[][] recvSlots) throws Exception {
    int workers = mesh.workers();
    int n = part.graph().numNodes();
    long[] halo = part.graph().haloIds();
    boolean[] used = new boolean[halo.length];
    Csr c = edges.inEdges();
    // The partition's own edges (a layer without a fanout) reference every halo slot: its halo is their remote
    // sources. Then, as without a halo (a lone worker, say), the scan over every edge is skipped.
    boolean whole = edges == part.graph();
    if (whole) {
      java.util.Arrays.fill(used, true);
    }
    for (int e = 0; !whole && halo.length > 0 && e < c.numEdges(); e++) {
      int slot = c.colIdx()[e];
      if (slot >= n) {
        used[slot - n] = true;
      }
    }
    int[] counts = new int[workers];
    for (int j = 0; j < halo.length; j++) {
      if (used[j]) {
        counts[haloOwner[j]]++;
      }
    }
    long[][] ids = new long[workers][];
    for (int q = 0; q < workers; q++) {
      ids[q] = new long[counts[q]];
      recvSlots[q] = new int[counts[q]];
    }
    int[] fill = new int[workers];
    for (int j = 0; j < halo.length; j++) {
      if (used[j]) {
        int q = haloOwner[j];
        ids[q][fill[q]] = halo[j];
        recvSlots[q][fill[q]++] = n + j;
      }
    }
    for (int q = 0; q < workers; q++) {
      if (q != self) {
        mesh.send(q, new HaloRequest(k, ids[q]));
      }
    }
  }

  /** The local rows of the ids worker {@code from} asked for, in its order; a node not held here breaks the protocol. */
  static int[] answer(WorkerPartition part, int from, HaloRequest r, int self) {
    int[] rows = new int[r.ids().length];
    for (int i = 0; i < rows.length; i++) {
      long id = r.ids()[i];
      if (part.ownership().owner(id) != self) {
        throw new IllegalStateException("plan: worker " + from + " asked for node " + id
            + ", which worker " + self + " does not own");
      }
      rows[i] = part.index().get(id);
      if (rows[i] < 0) {
        // Construction checked every edge endpoint against its owner's nodes: a peer asking for a missing row
        // breaks the protocol, it is not bad input.
        throw new IllegalStateException("plan: worker " + from + " asked for node " + id
            + ", which has no row on worker " + self);
      }
    }
    return rows;
  }
}
