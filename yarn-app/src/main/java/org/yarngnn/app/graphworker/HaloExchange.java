package org.yarngnn.app.graphworker;

import java.util.Arrays;
import java.util.BitSet;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.app.transport.RowBlock;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * One layer's exchange of message rows between workers (Deal's distributed SpMM/SDDMM input): each worker sends
 * each peer exactly the rows that peer's sampled in-edges reference, in chunks of {@code chunkRows}, and copies
 * what it receives into its halo rows. Pipelined, a destination row is aggregated as soon as the last halo row it
 * needs has arrived, so aggregation overlaps the transfer of later chunks; memory stays bounded by the
 * transport's per-stream credits.
 *
 * <p>Every received block is checked against the plan before anything is copied ({@link #check}): its layer, its
 * width, its chunk index within the chunks requested from that peer, its row count that chunk's, and that the
 * chunk did not come before; a peer asked for nothing may send nothing. A violation is a {@link ProtocolException}
 * naming the peer, layer and chunk, and leaves the halo rows as they were.
 */
public final class HaloExchange {
  /** Streams of the gradient direction start here (the forward direction's stream is the layer). */
  public static final int GRADIENT_STREAMS = 1 << 16;

  /** Aggregates a batch of ready destination rows (sorted). */
  @FunctionalInterface
  public interface Aggregator {
    void aggregate(int[] rows);
  }

  private static final int BATCH = 4096;

  private final int stream;
  private final int layer;
  private final boolean accumulate;
  private final GraphBlock edges;
  private final DenseMatrix msg;
  private final int[][] sendRows;
  private final int[][] recvSlots;
  private final int chunkRows;
  /** Per peer, the chunks received so far. */
  private final BitSet[] received;

  public HaloExchange(int layer, GraphBlock edges, DenseMatrix msg, int[][] sendRows, int[][] recvSlots,
      int chunkRows) {
    this(layer, layer, false, edges, msg, sendRows, recvSlots, chunkRows);
  }

  /**
   * The transpose of layer {@code layer}'s forward exchange under the same plan, on its own stream: every
   * worker sends each owner the message gradients of the halo slots it asked that owner for ({@code recvSlots},
   * same order, same chunks), and adds what it receives into the own rows it sent that peer ({@code sendRows}).
   * Blocks are credited and checked against the plan exactly as in the forward direction.
   */
  public static HaloExchange gradients(int layer, DenseMatrix dMsg, int[][] sendRows, int[][] recvSlots,
      int chunkRows) {
    return new HaloExchange(GRADIENT_STREAMS + layer, layer, true, null, dMsg, recvSlots, sendRows, chunkRows);
  }

  private HaloExchange(int stream, int layer, boolean accumulate, GraphBlock edges, DenseMatrix msg,
      int[][] sendRows, int[][] recvSlots, int chunkRows) {
    this.stream = stream;
    this.accumulate = accumulate;
    this.layer = layer;
    this.edges = edges;
    this.msg = msg;
    this.sendRows = sendRows;
    this.recvSlots = recvSlots;
    this.chunkRows = Math.max(1, Math.min(chunkRows, RowBlock.rowsPerFrame(msg.cols())));
    this.received = new BitSet[recvSlots.length];
    for (int q = 0; q < received.length; q++) {
      received[q] = new BitSet();
    }
  }

  /** Sends every peer its rows, chunks of all peers interleaved so every receiver makes progress. */
  public void sendAll(WorkerMesh mesh, int self) throws Exception {
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
        mesh.send(q, RowBlock.gather(stream, layer, c, to == rows.length, rows, from, to, msg.data(), msg.cols()));
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
  public void receiveAll(WorkerMesh mesh, Background sender) throws Exception {
    for (int left = expectedBlocks(); left > 0; ) {
      Received b = next(mesh, sender, 200);
      if (b != null) {
        copy(b, null, null, null, null, 0);
        left--;
      }
    }
  }

  /**
   * Receives blocks and aggregates each destination row once all its halo rows are in; {@code halo} are the users
   * of this exchange's in-edge block (shared by the exchanges over the same block, see {@link HaloPlan#users}).
   */
  public void receiveAndAggregate(WorkerMesh mesh, Background sender, Aggregator aggregator, HaloUsers halo)
      throws Exception {
    if (accumulate) {
      throw new IllegalStateException("gradients are summed, not aggregated");
    }
    if (!halo.describes(edges)) {
      throw new IllegalArgumentException("layer " + layer + ": the halo users of another in-edge block");
    }
    int n = edges.numNodes();
    // pending[r] = halo in-edges of row r not yet arrived.
    int[] pending = halo.waitCounts();
    int[] users = halo.users();
    int[] userPtr = halo.userPtr();
    ReadyRows ready = new ReadyRows(n);
    for (int r = 0; r < n; r++) {
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
    if (!(in.message() instanceof RowBlock b)) {
      WorkerMesh.releaseQuietly(in.message());
      throw new ProtocolException("layer " + layer + ": unexpected message from worker " + in.from() + ": "
          + in.message());
    }
    checkOrRelease(in.from(), b);
    return new Received(in.from(), b);
  }

  /** Checks and copies one block received from {@code from} (releasing it), as the receive loops do. */
  void accept(int from, RowBlock b) {
    checkOrRelease(from, b);
    copy(new Received(from, b), null, null, null, null, 0);
  }

  private void checkOrRelease(int from, RowBlock b) {
    try {
      check(from, b);
    } catch (RuntimeException e) {
      b.release();
      throw e;
    }
  }

  /**
   * Checks {@code b} from peer {@code from} against the plan and marks its chunk received; throws, changing
   * nothing, if the block is not one that peer owes this exchange.
   */
  void check(int from, RowBlock b) {
    String where = "layer " + layer + ": chunk " + b.chunk() + " from worker " + from;
    if (from < 0 || from >= recvSlots.length) {
      throw new ProtocolException(where + ": not a peer");
    }
    if (b.layer() != layer || b.stream() != stream) {
      throw new ProtocolException(where + " is of layer " + b.layer() + " on stream " + b.stream() + ", not "
          + stream);
    }
    if (b.width() != msg.cols()) {
      throw new ProtocolException(where + " has rows of width " + b.width() + ", the layer's are " + msg.cols());
    }
    int requested = recvSlots[from] == null ? 0 : recvSlots[from].length;
    int chunks = chunks(requested);
    if (chunks == 0) {
      throw new ProtocolException(where + ": no rows were requested from worker " + from);
    }
    if (b.chunk() < 0 || b.chunk() >= chunks) {
      throw new ProtocolException(where + " is outside the " + chunks + " chunks requested from it");
    }
    int rows = Math.min(chunkRows, requested - b.chunk() * chunkRows);
    if (b.rowCount() != rows) {
      throw new ProtocolException(where + " has " + b.rowCount() + " rows, " + rows + " requested");
    }
    if (received[from].get(b.chunk())) {
      throw new ProtocolException(where + " came twice");
    }
    received[from].set(b.chunk());
  }

  /**
   * Copies a received, {@link #check checked} block into its halo rows and releases it; with {@code pending}, counts down the rows that
   * use each arrived slot and queues those now complete.
   */
  private void copy(Received r, int[] pending, int[] users, int[] userPtr, ReadyRows ready, int n) {
    RowBlock b = r.block();
    try {
      int[] slots = recvSlots[r.from()];
      int base = b.chunk() * chunkRows; // checked: within the requested rows
      float[] data = msg.data();
      float[] sum = accumulate ? new float[msg.cols()] : null;
      for (int i = 0; i < b.rowCount(); i++) {
        int slot = slots[base + i];
        if (accumulate) {
          b.copyRowTo(i, sum, 0);
          int o = msg.offset(slot);
          for (int c = 0; c < sum.length; c++) {
            data[o + c] += sum[c];
          }
          continue;
        }
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
