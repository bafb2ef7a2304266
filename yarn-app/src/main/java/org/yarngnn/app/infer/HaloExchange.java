package org.yarngnn.app.infer;

import java.util.Arrays;
import org.yarngnn.app.transport.RowBlock;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * One layer's exchange of message rows between workers (Deal's distributed SpMM/SDDMM input): each worker sends
 * each peer exactly the rows that peer's sampled in-edges reference, in chunks of {@code chunkRows}, and copies
 * what it receives into its halo rows. Pipelined, a destination row is aggregated as soon as the last halo row it
 * needs has arrived, so aggregation overlaps the transfer of later chunks; memory stays bounded by the
 * transport's per-stream credits.
 */
final class HaloExchange {
  /** Aggregates a batch of ready destination rows (sorted). */
  @FunctionalInterface
  interface Aggregator {
    void aggregate(int[] rows);
  }

  private static final int BATCH = 4096;

  private final int layer;
  private final GraphBlock edges;
  private final DenseMatrix msg;
  private final int[][] sendRows;
  private final int[][] recvSlots;
  private final int chunkRows;

  HaloExchange(int layer, GraphBlock edges, DenseMatrix msg, int[][] sendRows, int[][] recvSlots, int chunkRows) {
    this.layer = layer;
    this.edges = edges;
    this.msg = msg;
    this.sendRows = sendRows;
    this.recvSlots = recvSlots;
    this.chunkRows = Math.max(1, Math.min(chunkRows, maxRowsPerFrame(msg.cols())));
  }

  /** Rows of this width that fit one frame comfortably below the transport's limit. */
  static int maxRowsPerFrame(int width) {
    return (int) Math.max(1, (128L << 20) / (4L * width + 4));
  }

  /** Sends every peer its rows, chunks of all peers interleaved so every receiver makes progress. */
  void sendAll(WorkerMesh mesh, int self) throws Exception {
    int maxChunks = 0;
    for (int q = 0; q < sendRows.length; q++) {
      if (q != self) {
        maxChunks = Math.max(maxChunks, chunks(sendRows[q].length));
      }
    }
    for (int c = 0; c < maxChunks; c++) {
      for (int q = 0; q < sendRows.length; q++) {
        int[] rows = sendRows[q];
        if (q == self || c >= chunks(rows.length)) {
          continue;
        }
        int from = c * chunkRows;
        int to = Math.min(rows.length, from + chunkRows);
        mesh.send(q, RowBlock.gather(layer, layer, c, to == rows.length, rows, from, to, msg.data(), msg.cols()));
      }
    }
  }

  private int chunks(int rows) {
    return (rows + chunkRows - 1) / chunkRows;
  }

  private int expectedBlocks() {
    int total = 0;
    for (int[] slots : recvSlots) {
      if (slots != null) {
        total += chunks(slots.length);
      }
    }
    return total;
  }

  /** Receives every expected block into the halo rows; aggregation waits until all have arrived. */
  void receiveAll(WorkerMesh mesh, Background sender) throws Exception {
    for (int left = expectedBlocks(); left > 0; ) {
      Received b = next(mesh, sender, 200);
      if (b != null) {
        copy(b, null, null, null, null, edges.numNodes());
        left--;
      }
    }
  }

  /** Receives blocks and aggregates each destination row once all its halo rows are in. */
  void receiveAndAggregate(WorkerMesh mesh, Background sender, Aggregator aggregator) throws Exception {
    int n = edges.numNodes();
    int halo = edges.numSlots() - n;
    Csr c = edges.inEdges();
    // pending[r] = halo in-edges of row r not yet arrived; users = rows of each halo slot (with multiplicity).
    int[] pending = new int[n];
    int[] userPtr = new int[halo + 1];
    for (int r = 0; r < n; r++) {
      for (int e = c.rowPtr()[r]; e < c.rowPtr()[r + 1]; e++) {
        int slot = c.colIdx()[e];
        if (slot >= n) {
          pending[r]++;
          userPtr[slot - n + 1]++;
        }
      }
    }
    for (int j = 0; j < halo; j++) {
      userPtr[j + 1] += userPtr[j];
    }
    int[] users = new int[userPtr[halo]];
    int[] fill = Arrays.copyOf(userPtr, halo);
    ReadyRows ready = new ReadyRows(n);
    for (int r = 0; r < n; r++) {
      for (int e = c.rowPtr()[r]; e < c.rowPtr()[r + 1]; e++) {
        int slot = c.colIdx()[e];
        if (slot >= n) {
          users[fill[slot - n]++] = r;
        }
      }
      if (pending[r] == 0) {
        ready.add(r);
      }
    }
    // Rows with only local sources go first, while the first chunks are in flight.
    aggregator.aggregate(ready.take());
    for (int left = expectedBlocks(); left > 0; ) {
      Received b = next(mesh, sender, ready.size() > 0 ? 0 : 200);
      if (b == null) {
        if (ready.size() > 0) {
          aggregator.aggregate(ready.take());
        }
        continue;
      }
      copy(b, pending, users, userPtr, ready, n);
      left--;
      if (ready.size() >= BATCH) {
        aggregator.aggregate(ready.take());
      }
    }
    aggregator.aggregate(ready.take());
  }

  /** A row block and the worker that sent it. */
  private record Received(int from, RowBlock block) {}

  private Received next(WorkerMesh mesh, Background sender, long waitMillis) throws Exception {
    WorkerMesh.Inbound in = mesh.poll(waitMillis);
    if (in == null) {
      sender.check();
      return null;
    }
    if (!(in.message() instanceof RowBlock b) || b.layer() != layer) {
      WorkerMesh.releaseQuietly(in.message());
      throw new TransportException("layer " + layer + ": unexpected message from worker " + in.from() + ": "
          + in.message());
    }
    if (recvSlots[in.from()] == null) {
      b.release();
      throw new TransportException("layer " + layer + ": rows from worker " + in.from() + " were not requested");
    }
    return new Received(in.from(), b);
  }

  /**
   * Copies a received block into its halo rows and releases it; with {@code pending}, counts down the rows that
   * use each arrived slot and queues those now complete.
   */
  private void copy(Received r, int[] pending, int[] users, int[] userPtr, ReadyRows ready, int n) {
    RowBlock b = r.block();
    try {
      int[] slots = recvSlots[r.from()];
      int base = b.chunk() * chunkRows;
      if (base + b.rowCount() > slots.length) {
        throw new IllegalStateException("layer " + layer + ": chunk " + b.chunk() + " of worker " + r.from()
            + " overruns the " + slots.length + " requested rows");
      }
      float[] data = msg.data();
      for (int i = 0; i < b.rowCount(); i++) {
        int slot = slots[base + i];
        b.copyRowTo(i, data, msg.offset(slot));
        if (pending != null) {
          int j = slot - n;
          for (int u = userPtr[j]; u < userPtr[j + 1]; u++) {
            int row = users[u];
            if (--pending[row] == 0) {
              ready.add(row);
            }
          }
        }
      }
    } finally {
      b.release();
    }
  }

  /** Destination rows whose inputs are complete, not yet aggregated. */
  private static final class ReadyRows {
    private int[] rows;
    private int size;

    ReadyRows(int capacity) {
      rows = new int[Math.max(16, Math.min(capacity, BATCH * 2))];
    }

    void add(int r) {
      if (size == rows.length) {
        rows = Arrays.copyOf(rows, size * 2);
      }
      rows[size++] = r;
    }

    int size() {
      return size;
    }

    int[] take() {
      int[] out = Arrays.copyOf(rows, size);
      size = 0;
      Arrays.sort(out);
      return out;
    }
  }
}
