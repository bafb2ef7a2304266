package org.yarngnn.app.train;

import java.util.BitSet;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.yarngnn.app.graphworker.HaloPlan;
import org.yarngnn.app.graphworker.WorkerMesh;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.app.transport.RowBlock;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The halo exchange of bounded asynchrony ({@code --staleness S}): rows travel tagged with the epoch that made
 * them, a receiver thread files every complete copy a peer sent, and a gather at epoch {@code e} takes each
 * peer's newest copy from epochs {@code e - S .. e}, waiting only when it has none that fresh. So a fast worker
 * never waits for a slow one's current epoch, and no row it reads is more than {@code S} epochs old.
 *
 * <p>Three directions share the {@link HaloPlan}: forward message rows (own rows to the peers that asked for
 * them), message gradients of halo slots back to their owners (summed into the own rows sent), and the rows
 * of the evaluation of a weights version (as stale as the training's, or exact for the final one). On the
 * wire a block's stream names the direction and layer ({@link #STREAMS} + direction * 4096 + layer) and its
 * {@code layer} field carries the epoch (or the evaluated version).
 *
 * <p>Every block is checked before it is filed: a known stream, the plan's width and its chunk's row count, a
 * chunk inside the rows requested, not twice, and an epoch within the window a peer can be ahead or behind
 * ({@code S} epochs either way by the epoch gate, so at most {@code 2S + 2} copies per peer, layer and direction
 * are ever kept; one beyond is a protocol violation, never an unbounded buffer).
 */
final class StaleHalo implements AutoCloseable {
  static final int STREAMS = 1 << 20;
  static final int FORWARD = 0;
  static final int GRADIENT = 1;
  static final int EVALUATE = 2;

  private final WorkerMesh mesh;
  private final int self;
  /** [layer][peer]: own rows sent to the peer (forward), and halo slots its rows fill. */
  private final int[][][] sendRows;
  private final int[][][] recvSlots;
  private final int[] widths;
  private final int staleness;
  private final int chunkRows;
  private final int peers;
  /** [direction][layer][peer]: epoch -> copy being filled or complete. */
  private final Map<Integer, Copy>[][][] copies;
  private final Object lock = new Object();
  private Throwable failure;
  private volatile boolean closed;
  private Thread receiver;

  /** One epoch's rows from one peer. */
  private static final class Copy {
    final float[] values;
    final BitSet chunks = new BitSet();
    final int expected;

    Copy(int values, int expected) {
      this.values = new float[values];
      this.expected = expected;
    }

    boolean complete() {
      return chunks.cardinality() == expected;
    }
  }

  /** The exchanges of {@code plan}; {@code widths[k]}: layer {@code k}'s message width. */
  StaleHalo(WorkerMesh mesh, int self, HaloPlan plan, int[] widths, int staleness, int chunkRows) {
    this(mesh, self, perLayer(plan, true), perLayer(plan, false), widths, staleness, chunkRows);
  }

  private static int[][][] perLayer(HaloPlan plan, boolean send) {
    int[][][] r = new int[plan.layers()][][];
    for (int k = 0; k < r.length; k++) {
      r[k] = send ? plan.sendRows(k) : plan.recvSlots(k);
    }
    return r;
  }

  /** {@code sendRows[k][q]}, {@code recvSlots[k][q]}: as {@link HaloPlan}'s (null or empty for none). */
  @SuppressWarnings("unchecked")
  StaleHalo(WorkerMesh mesh, int self, int[][][] sendRows, int[][][] recvSlots, int[] widths, int staleness,
      int chunkRows) {
    this.mesh = mesh;
    this.self = self;
    this.sendRows = sendRows;
    this.recvSlots = recvSlots;
    this.widths = widths.clone();
    this.staleness = staleness;
    this.peers = mesh.workers();
    int widest = 1;
    for (int w : widths) {
      widest = Math.max(widest, w);
    }
    this.chunkRows = Math.max(1, Math.min(chunkRows, RowBlock.rowsPerFrame(widest)));
    copies = new Map[3][widths.length][peers];
    for (Map<Integer, Copy>[][] d : copies) {
      for (Map<Integer, Copy>[] l : d) {
        for (int q = 0; q < peers; q++) {
          l[q] = new TreeMap<>();
        }
      }
    }
  }

  /** Starts the thread that takes every row block the peers send. */
  void start() {
    receiver = new Thread(this::receive, "stale-halo-" + self);
    receiver.setDaemon(true);
    receiver.start();
  }

  /** Rows this worker sends peer {@code q} in {@code direction} at layer {@code k} (indices into the matrix). */
  private int[] sendIndex(int direction, int k, int q) {
    int[] r = direction == GRADIENT ? recvSlots[k][q] : sendRows[k][q];
    return r == null ? new int[0] : r;
  }

  /** Rows peer {@code q} sends here in {@code direction} at layer {@code k}. */
  private int[] receiveIndex(int direction, int k, int q) {
    int[] r = direction == GRADIENT ? sendRows[k][q] : recvSlots[k][q];
    return r == null ? new int[0] : r;
  }

  private int chunks(int rows) {
    return (rows + chunkRows - 1) / chunkRows;
  }

  /**
   * Sends every peer its rows of {@code m} for {@code direction}, layer {@code k}, tagged {@code epoch}; returns
   * once every block is handed to the transport (so {@code m} may change after).
   */
  void send(int direction, int k, int epoch, DenseMatrix m) throws Exception {
    int stream = STREAMS + direction * 4096 + k;
    for (int q = 0; q < peers; q++) {
      if (q == self) {
        continue;
      }
      int[] rows = sendIndex(direction, k, q);
      int n = chunks(rows.length);
      for (int c = 0; c < n; c++) {
        int from = c * chunkRows;
        int to = Math.min(rows.length, from + chunkRows);
        mesh.send(q, RowBlock.gather(stream, epoch, c, c == n - 1, rows, from, to, m.data(), m.cols()));
      }
    }
    checkFailure();
  }

  /**
   * Copies each peer's newest rows of {@code direction} (FORWARD or EVALUATE) and layer {@code k} from epochs
   * (evaluated versions) {@code oldest .. epoch} into their halo slots of {@code msg}, waiting for one that
   * fresh; returns how many epochs old the oldest one used is.
   */
  int fill(int direction, int k, int epoch, int oldest, DenseMatrix msg, long timeoutMillis) throws Exception {
    if (oldest < epoch - staleness || oldest > epoch) {
      throw new IllegalArgumentException("rows of epochs " + oldest + ".." + epoch + " with --staleness " + staleness);
    }
    int stale = 0;
    for (int q = 0; q < peers; q++) {
      int[] slots = receiveIndex(direction, k, q);
      if (q == self || slots.length == 0) {
        continue;
      }
      Map.Entry<Integer, Copy> e = await(direction, k, q, epoch, oldest, timeoutMillis);
      float[] v = e.getValue().values;
      int w = msg.cols();
      for (int i = 0; i < slots.length; i++) {
        System.arraycopy(v, i * w, msg.data(), msg.offset(slots[i]), w);
      }
      stale = Math.max(stale, epoch - e.getKey());
      drop(direction, k, q, e.getKey()); // later reads take this copy or a newer one
    }
    return stale;
  }

  /**
   * Adds each peer's newest message gradients of layer {@code k} (from epochs {@code epoch - S .. epoch}) into the
   * own rows of {@code dMsg} that were sent to it; returns how many epochs old the oldest one used is.
   */
  int addGradients(int k, int epoch, DenseMatrix dMsg, long timeoutMillis) throws Exception {
    int oldest = epoch - staleness;
    int stale = 0;
    for (int q = 0; q < peers; q++) {
      int[] rows = receiveIndex(GRADIENT, k, q);
      if (q == self || rows.length == 0) {
        continue;
      }
      Map.Entry<Integer, Copy> e = await(GRADIENT, k, q, epoch, oldest, timeoutMillis);
      float[] v = e.getValue().values;
      int w = dMsg.cols();
      float[] d = dMsg.data();
      for (int i = 0; i < rows.length; i++) {
        int o = dMsg.offset(rows[i]);
        for (int c = 0; c < w; c++) {
          d[o + c] += v[i * w + c];
        }
      }
      stale = Math.max(stale, epoch - e.getKey());
      drop(GRADIENT, k, q, e.getKey());
    }
    return stale;
  }

  /** The newest complete copy from {@code q} with an epoch in {@code [oldest, newest]}, waiting for one. */
  private Map.Entry<Integer, Copy> await(int direction, int k, int q, int newest, int oldest, long timeoutMillis)
      throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    synchronized (lock) {
      while (true) {
        checkFailure();
        Map.Entry<Integer, Copy> best = null;
        for (Map.Entry<Integer, Copy> e : copies[direction][k][q].entrySet()) {
          if (e.getKey() >= oldest && e.getKey() <= newest && e.getValue().complete()) {
            best = e;
          }
        }
        if (best != null) {
          return best;
        }
        long left = deadline - System.currentTimeMillis();
        if (left <= 0) {
          throw new TransportException("worker " + self + ": no rows of layer " + k + " from worker " + q
              + " for epoch " + oldest + ".." + newest + " within " + timeoutMillis / 1000 + " s");
        }
        lock.wait(Math.min(left, 200));
      }
    }
  }

  /**
   * Forgets {@code q}'s copies older than {@code below}, the copy a read just took: a later read (a later epoch,
   * so a window ending later) takes that copy or a newer one.
   */
  private void drop(int direction, int k, int q, int below) {
    synchronized (lock) {
      Iterator<Integer> it = copies[direction][k][q].keySet().iterator();
      while (it.hasNext()) {
        if (it.next() < below) {
          it.remove();
        }
      }
    }
  }

  private void receive() {
    try {
      while (!closed) {
        WorkerMesh.Inbound in = mesh.poll(200);
        if (in == null) {
          continue;
        }
        if (!(in.message() instanceof RowBlock b)) {
          WorkerMesh.releaseQuietly(in.message());
          throw new ProtocolException("unexpected message from worker " + in.from() + " while training: "
              + in.message());
        }
        try {
          file(in.from(), b);
        } finally {
          b.release();
        }
      }
    } catch (Throwable t) {
      if (!closed) {
        synchronized (lock) {
          failure = t;
          lock.notifyAll();
        }
      }
    }
  }

  /** Checks {@code b} from peer {@code from} and copies it into its epoch's copy. */
  void file(int from, RowBlock b) {
    int direction = (b.stream() - STREAMS) / 4096;
    int k = (b.stream() - STREAMS) % 4096;
    String where = "chunk " + b.chunk() + " of epoch " + b.layer() + " from worker " + from;
    if (from < 0 || from >= peers || from == self) {
      throw new ProtocolException(where + ": not a peer");
    }
    if (b.stream() < STREAMS || direction > EVALUATE || k >= widths.length) {
      throw new ProtocolException(where + " on stream " + b.stream() + ", which no exchange uses");
    }
    if (b.width() != widths[k]) {
      throw new ProtocolException(where + " has rows of width " + b.width() + ", layer " + k + "'s are "
          + widths[k]);
    }
    int requested = receiveIndex(direction, k, from).length;
    int chunks = chunks(requested);
    if (b.chunk() < 0 || b.chunk() >= chunks) {
      throw new ProtocolException(where + " is outside the " + chunks + " chunks of layer " + k);
    }
    int rows = Math.min(chunkRows, requested - b.chunk() * chunkRows);
    if (b.rowCount() != rows) {
      throw new ProtocolException(where + " has " + b.rowCount() + " rows, " + rows + " requested");
    }
    if (b.layer() < 1) {
      throw new ProtocolException(where + ": no such epoch");
    }
    synchronized (lock) {
      Map<Integer, Copy> m = copies[direction][k][from];
      Copy c = m.get(b.layer());
      if (c == null) {
        if (m.size() >= 2 * staleness + 2) {
          throw new ProtocolException(where + ": more than " + (2 * staleness + 2) + " epochs of layer " + k
              + " in flight (--staleness " + staleness + ")");
        }
        c = new Copy(requested * widths[k], chunks);
        m.put(b.layer(), c);
      }
      if (c.chunks.get(b.chunk())) {
        throw new ProtocolException(where + " came twice");
      }
      c.chunks.set(b.chunk());
      b.copyValuesTo(c.values, b.chunk() * chunkRows * widths[k]);
      if (c.complete()) {
        lock.notifyAll();
      }
    }
  }

  private void checkFailure() throws Exception {
    Throwable f;
    synchronized (lock) {
      f = failure;
    }
    if (f instanceof Exception e) {
      throw e;
    }
    if (f != null) {
      throw new IllegalStateException(f);
    }
  }

  /** Waits up to {@code millis} for the receiver to stop after the last exchange. */
  @Override
  public void close() {
    closed = true;
    if (receiver != null) {
      try {
        receiver.join(TimeUnit.SECONDS.toMillis(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
