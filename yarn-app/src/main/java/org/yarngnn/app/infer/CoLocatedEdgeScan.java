package org.yarngnn.app.infer;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.partition.OwnEdgeFilter;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionAssembler;
import org.yarngnn.partition.SharedEdges;
import org.yarngnn.compute.graph.Csr;

/**
 * One read of a raw edge table for all the graph workers of one JVM ({@code --local}) when each keeps its share of
 * every row ({@link EdgeReading#ALL}). Read apart, every worker decoded every row: with two workers on two cores,
 * twice the decoding of one worker alone. Here the workers' reading threads pull the table's splits from one
 * queue, and each decoded block goes to every worker's {@link OwnEdgeFilter} and its assembler's writer, so each
 * row is decoded once in the JVM and each worker still keeps (and checks) exactly what it would keep reading
 * alone. Workers in other JVMs (YARN containers) read apart as before.
 *
 * <p>When the ids are dense and every worker owns a run of them (range ownership, directed), the rows are not
 * filtered per worker at all: they go once into one {@link SharedEdges}, built into one CSR of every node on all
 * the cores, from which each worker takes its rows ({@link #sharedRows}); only rows with an endpoint outside the
 * ids go through the workers' filters, for their findings.
 *
 * <p>Single use: the first time all workers reach their edge phase they read together; a scan that was used, or
 * broken by a worker's failure, leaves any later edge phase (a construction started over) to read apart. A failure
 * of any reading thread fails every worker's edge phase, since each worker's edges come from all the threads.
 */
public final class CoLocatedEdgeScan extends CoLocatedRendezvous {
  private final PartitionAssembler.DirectEdges[] directs;
  private final AtomicInteger next = new AtomicInteger();
  private Ownership ownership;
  private boolean undirected;
  private List<EdgeTable.Split> splits;
  private int joined;
  private int threadsLeft;
  private boolean used;
  /** Whether every joined worker can take its rows from a shared CSR ({@link PartitionAssembler#rangeOfDenseIds}). */
  private boolean allRanges = true;
  private boolean weighted;
  private long expectedEdges;
  /** The shared store while it is written, in the shared case; else null. */
  private SharedEdges store;
  private boolean shared;
  /** The shared CSR once built, until every worker took its rows; whether a worker is building it. */
  private Csr all;
  private boolean building;
  private int taken;
  /** Whether the job's workers may share one message matrix when their rows come from a shared CSR. */
  private final boolean messagesSharable;

  /** A scan for the {@code workers} graph workers of one job, all threads of this JVM. */
  public CoLocatedEdgeScan(int workers) {
    this(workers, false);
  }

  /**
   * As above; {@code messagesSharable}: whether the job's layers can read their peers' message rows in place
   * ({@link #sharedMessages}; all-node inference without pipelining or worker recovery).
   */
  public CoLocatedEdgeScan(int workers, boolean messagesSharable) {
    this(workers, GraphWorker.PEER_TIMEOUT_MS, messagesSharable);
  }

  CoLocatedEdgeScan(int workers, long timeoutMs) {
    this(workers, timeoutMs, false);
  }

  CoLocatedEdgeScan(int workers, long timeoutMs, boolean messagesSharable) {
    super(workers, timeoutMs, "edge reading", "construction");
    this.directs = new PartitionAssembler.DirectEdges[workers];
    this.messagesSharable = messagesSharable;
  }

  /**
   * Worker {@code index} joins with its assembler's writers {@code direct} and {@code threads} reading threads,
   * and waits for the others. Returns false, at once, when the scan was used or broken (the worker reads apart);
   * true when all have joined (the first joiner's {@code splits}, made for every worker's threads, are read).
   * Throws when a peer fails, {@code abandoned} turns true or the peers do not come in time.
   * {@code rangeOfDenseIds}: whether this worker's partition can take its rows from a shared CSR, which the scan
   * builds when every worker can ({@link #shared}); {@code weighted} and {@code expectedEdges} (the table's) size
   * its store.
   */
  synchronized boolean join(int index, PartitionAssembler.DirectEdges direct, Ownership ownership,
      boolean undirected, int threads, Supplier<List<EdgeTable.Split>> splits, BooleanSupplier abandoned,
      boolean rangeOfDenseIds, boolean weighted, long expectedEdges) throws InterruptedException {
    if (used || broken() || directs[index] != null) {
      return false;
    }
    if (joined == 0) {
      this.ownership = ownership;
      this.undirected = undirected;
      this.splits = splits.get();
    } else if (!ownership.equals(this.ownership) || undirected != this.undirected) {
      throw breakWith("worker " + index + " joined the co-located edge scan with another ownership");
    }
    directs[index] = direct;
    threadsLeft += threads;
    allRanges &= rangeOfDenseIds;
    this.weighted |= weighted;
    this.expectedEdges = Math.max(this.expectedEdges, expectedEdges);
    joined++;
    if (joined == workers) {
      used = true;
      if (allRanges && !undirected && ownership.isRange()) {
        store = new SharedEdges(ownership.rangeNodes(), this.weighted, this.expectedEdges);
        shared = true;
      }
      notifyAll();
      return true;
    }
    await(() -> joined == workers, index, abandoned, "the other workers to reach their edge phase");
    return true;
  }

  /**
   * One reading thread's work (call once per thread a worker joined with): the next splits, each block to every
   * worker's filter; its writers flushed at the end. {@code check} throws when this thread's worker is abandoned.
   */
  void read(EdgeTable edges, Runnable check) {
    try {
      PartitionAssembler.DirectEdges.Writer[] writers = new PartitionAssembler.DirectEdges.Writer[workers];
      EdgeSink[] filters = new EdgeSink[workers];
      for (int q = 0; q < workers; q++) {
        writers[q] = directs[q].writer();
        filters[q] = new OwnEdgeFilter(ownership, undirected, q, writers[q]);
      }
      EdgeSink filtered = new FanOut(filters);
      SharedEdges.Writer shared = store == null ? null : store.writer(filtered);
      EdgeSink sink = shared == null ? filtered : shared;
      for (int i = next.getAndIncrement(); i < splits.size(); i = next.getAndIncrement()) {
        check.run();
        checkNotBroken();
        EdgeTable.Split split = splits.get(i);
        for (PartitionAssembler.DirectEdges.Writer w : writers) {
          w.file(split.file());
        }
        edges.readSplit(split, sink);
      }
      if (shared != null) {
        shared.flush();
      }
      for (PartitionAssembler.DirectEdges.Writer w : writers) {
        w.flush();
      }
    } catch (RuntimeException | Error e) {
      fail(e);
      throw e;
    } finally {
      threadEnded();
    }
  }

  /**
   * Waits until every worker's reading threads have ended, after which worker {@code index}'s writers may be
   * closed; throws if any of them failed.
   */
  synchronized void awaitReaders(int index, BooleanSupplier abandoned) throws InterruptedException {
    await(() -> threadsLeft == 0, index, abandoned, "the other workers' edge reading");
    checkNotBroken();
  }

  /** Whether the workers' rows come from one shared CSR ({@link #sharedRows}); known once all have joined. */
  synchronized boolean shared() {
    return shared;
  }

  /**
   * Whether, their rows coming from one shared CSR, the workers also share one message matrix: their blocks are
   * then taken in range columns ({@link PartitionAssembler#finish(Csr, boolean)}); known once all have joined.
   */
  synchronized boolean sharedMessages() {
    return shared && messagesSharable;
  }

  /**
   * The CSR of every node, built from the shared store by the first worker to ask (on all the cores, while the
   * others wait); call after {@link #awaitReaders}, and {@link #rowsTaken} once this worker's rows are sliced.
   */
  Csr sharedRows(int index, BooleanSupplier abandoned) throws InterruptedException {
    synchronized (this) {
      if (!shared || taken == workers) {
        throw new IllegalStateException("no shared edges to take worker " + index + "'s rows from");
      }
      if (building || all != null) {
        await(() -> all != null, index, abandoned, "the shared CSR's build");
        return all;
      }
      building = true;
    }
    try {
      Csr built = store.build();
      synchronized (this) {
        all = built;
        store = null;
        notifyAll();
        return built;
      }
    } catch (RuntimeException | Error e) {
      fail(e);
      throw e;
    }
  }

  /** Worker {@code index} has its rows: once every worker has, the shared CSR is let go. */
  synchronized void rowsTaken(int index) {
    if (++taken == workers) {
      all = null;
    }
  }

  private synchronized void threadEnded() {
    threadsLeft--;
    notifyAll();
  }

  /** Each block and row to every sink, in worker order (the arrays are the reader's until the call returns). */
  private static final class FanOut implements EdgeSink {
    private final EdgeSink[] sinks;

    FanOut(EdgeSink[] sinks) {
      this.sinks = sinks;
    }

    @Override
    public void beginFile(String file) {
      for (EdgeSink s : sinks) {
        s.beginFile(file);
      }
    }

    @Override
    public void edge(long src, long dst, float weight, long row) {
      for (EdgeSink s : sinks) {
        s.edge(src, dst, weight, row);
      }
    }

    @Override
    public void edges(long[] src, long[] dst, float[] weight, int count, long firstRow) {
      for (EdgeSink s : sinks) {
        s.edges(src, dst, weight, count, firstRow);
      }
    }
  }
}
