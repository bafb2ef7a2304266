package org.yarngnn.app.infer;

import java.util.function.BooleanSupplier;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.compute.tensor.FloatArrays;

/**
 * A layer's halo rows for the graph workers of one JVM ({@code --local}), copied from the peers' message matrices
 * instead of sent through loopback sockets. Through the {@link WorkerMesh} a halo row was gathered into a frame,
 * written to a socket, copied by the kernel twice, decoded and copied again, on the same two cores that compute
 * the layer; here each worker, once every worker has transformed the layer, copies the rows it asked each peer
 * for straight from that peer's matrix into its halo slots, under the same plan ({@link HaloPlan}: a peer's
 * {@code sendRows} for this worker pair up with this worker's {@code recvSlots} for that peer, as the socket
 * exchange's chunks do).
 *
 * <p>Two rendezvous per layer: all have published their matrices (then each copies), and all have copied (then a
 * peer's matrix may change again). A worker whose layer fails {@link #fail breaks} the exchange, and every worker
 * waiting on it fails at once instead of waiting for its timeout ({@link CoLocatedRendezvous}).
 *
 * <p>Workers whose blocks are in range columns ({@link org.yarngnn.compute.graph.GraphBlock#inRangeColumns}: dense
 * ids owned in runs, the edges built once for all, {@link CoLocatedEdgeScan#sharedMessages}) copy nothing: they
 * share one message matrix of every node ({@link #sharedRows}), each transforms into its own run of rows and,
 * once all have ({@link #step}), aggregates reading its peers' rows in place; once all have aggregated
 * ({@link #step} again) the next layer may write the matrix over. No halo rows are allocated, copied or planned.
 */
public final class CoLocatedHalo extends CoLocatedRendezvous {
  private final DenseMatrix[] msg;
  private final int[][][] sendRows;
  /** Layer of the exchange under way, -1 between layers. */
  private int layer = -1;
  private int published;
  private int copied;
  /** Counts completed exchanges, so a worker waiting for "all copied" is not confused by the next layer's start. */
  private long round;
  /** The shared message matrix's values (or its allocation under way), and the workers at the current step. */
  private java.util.concurrent.CompletableFuture<float[]> shared;
  private int stepped;
  private long steps;

  /** The exchange for the {@code workers} graph workers of one job, all threads of this JVM. */
  public CoLocatedHalo(int workers) {
    this(workers, GraphWorker.PEER_TIMEOUT_MS);
  }

  CoLocatedHalo(int workers, long timeoutMs) {
    super(workers, timeoutMs, "layer", "layer");
    this.msg = new DenseMatrix[workers];
    this.sendRows = new int[workers][][];
  }

  /**
   * Worker {@code index}'s part of layer {@code k}'s exchange: publishes its message rows {@code m} (own rows
   * transformed) and the rows each peer asked it for ({@code send[q]}), waits for every worker to do the same,
   * copies into its halo slots {@code recv[q]} the rows {@code q} holds for it, and returns once every worker has
   * copied (so {@code m} is its own again). Returns the rows copied. Throws when a peer's plan does not pair up
   * with this one's, when a peer failed, or when the peers do not come in time.
   */
  public long exchange(int index, int k, DenseMatrix m, int[][] send, int[][] recv, BooleanSupplier abandoned)
      throws InterruptedException {
    long myRound;
    synchronized (this) {
      checkNotBroken();
      if (layer == -1) {
        layer = k;
      } else if (layer != k) {
        throw breakWith("worker " + index + " exchanged layer " + (k + 1) + " while the others exchange layer "
            + (layer + 1));
      }
      if (msg[index] != null) {
        throw breakWith("worker " + index + " exchanged layer " + (k + 1) + " twice");
      }
      msg[index] = m;
      sendRows[index] = send;
      published++;
      myRound = round;
      notifyAll();
      await(() -> published == workers, index, abandoned, "the other workers' layer " + (k + 1) + " rows");
    }
    long rows;
    try {
      rows = copyFromPeers(index, k, m, recv);
    } catch (RuntimeException e) {
      fail(e);
      throw e;
    }
    synchronized (this) {
      copied++;
      if (copied == workers) {
        // Everyone has its halo rows: the next layer may start publishing.
        java.util.Arrays.fill(msg, null);
        java.util.Arrays.fill(sendRows, null);
        published = 0;
        copied = 0;
        layer = -1;
        round++;
        notifyAll();
      } else {
        await(() -> round != myRound, index, abandoned, "the other workers to copy their layer " + (k + 1) + " rows");
      }
    }
    return rows;
  }

  /**
   * Starts allocating the shared message matrix of {@code nodes} rows of up to {@code width} values, on a thread of
   * its own ({@link FloatArrays#allocateAhead}), once for all workers (later calls do nothing): here overlapped
   * with the edges' reading.
   */
  public synchronized void reserveShared(long nodes, int width) {
    if (shared != null) {
      return;
    }
    long floats = nodes * width;
    shared = nodes < 0 || width <= 0 || floats > Integer.MAX_VALUE - 16
        ? java.util.concurrent.CompletableFuture.completedFuture(null)
        : FloatArrays.allocateAhead((int) floats, "reserve-shared-messages");
  }

  /**
   * Worker {@code index}'s view of the shared message matrix for a layer of message width {@code width}: its rows
   * {@code first..first+n-1} as rows {@code 0..n-1}, the peers' rows of the {@code nodes} reachable as rows below
   * 0 and from n on ({@link DenseMatrix#rowsFrom}). Every worker gets a view of the same array.
   */
  public DenseMatrix sharedRows(int index, long nodes, int first, int n, int width) {
    float[] values;
    synchronized (this) {
      checkNotBroken();
      if (shared == null) {
        reserveShared(nodes, width);
      }
      values = shared.join();
      if (values == null || values.length < nodes * width) {
        if (nodes * width > Integer.MAX_VALUE - 16) {
          throw breakWith("worker " + index + ": " + nodes + " message rows of width " + width
              + " do not fit one shared matrix");
        }
        values = new float[(int) (nodes * width)];
        shared = java.util.concurrent.CompletableFuture.completedFuture(values);
      }
    }
    return DenseMatrix.rowsFrom(values, first, (int) (nodes - first), width);
  }

  /**
   * Worker {@code index} is at the next step of the shared matrix's layers (its rows transformed, or its rows
   * aggregated): returns once every worker is. {@code what}: what it waits for, for the timeout's message.
   */
  public void step(int index, String what, BooleanSupplier abandoned) throws InterruptedException {
    synchronized (this) {
      checkNotBroken();
      long mine = steps;
      if (++stepped == workers) {
        stepped = 0;
        steps++;
        notifyAll();
        return;
      }
      await(() -> steps != mine, index, abandoned, what);
    }
  }

  /** Lets go of the shared matrix, after the last layer. */
  public synchronized void releaseShared() {
    shared = null;
  }

  /** Reads only what the first rendezvous published; every worker only writes its own matrix's halo slots. */
  private long copyFromPeers(int index, int k, DenseMatrix m, int[][] recv) {
    int width = m.cols();
    float[] to = m.data();
    long rows = 0;
    for (int q = 0; q < workers; q++) {
      if (q == index) {
        continue;
      }
      int[] slots = recv[q] == null ? new int[0] : recv[q];
      int[] from = sendRows[q][index] == null ? new int[0] : sendRows[q][index];
      if (slots.length != from.length) {
        throw new IllegalStateException("layer " + (k + 1) + ": worker " + index + " asked worker " + q + " for "
            + slots.length + " rows, which holds " + from.length + " for it");
      }
      DenseMatrix peer = msg[q];
      if (peer.cols() != width) {
        throw new IllegalStateException("layer " + (k + 1) + ": worker " + q + "'s rows have width " + peer.cols()
            + ", worker " + index + "'s " + width);
      }
      float[] src = peer.data();
      for (int i = 0; i < slots.length; i++) {
        System.arraycopy(src, peer.offset(from[i]), to, m.offset(slots[i]), width);
      }
      rows += slots.length;
    }
    return rows;
  }
}
