package org.yarngnn.app.graphworker;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.ProtocolException;
import org.yarngnn.app.transport.TransportException;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.model.Model;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.io.table.EdgeSink;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.GraphRecord;
import org.yarngnn.partition.InputFinding;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.OwnEdgeFilter;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionAssembler;
import org.yarngnn.partition.PartitionBlockBuilder;
import org.yarngnn.partition.RecordRouter;
import org.yarngnn.partition.format.PartitionedGraph;

/**
 * A graph worker's construction (Deal's 1-D partitioning) on the construction core that the partition job also
 * runs: each reading thread routes rows with a {@link RecordRouter} (node rows to their owners; edges to their
 * destinations' owners, with references that let the sources' owners check them), whose blocks go to peers as
 * {@link ConstructionBlock} frames, while the edges this worker keeps go into its own {@link PartitionAssembler}
 * as they are read (node rows, and edges under --missing-features zero, as blocks, never encoded).
 * The assembler, fed by the worker's consumer thread, checks every endpoint against its owner's node rows and
 * keeps the first finding in table order; after the edge phase the workers exchange their findings
 * ({@link ConstructionFinding}) and all report the smallest as bad input. Or, from a pre-partitioned graph, only
 * this worker's partition files are read.
 */
public final class WorkerConstruction {
  private static final int EDGE_BLOCK_ROWS = 16384;
  private static final int MAX_EDGE_READERS = 8;
  /** Own blocks waiting for the consumer at most: the readers wait while it is behind, as peers' windows make. */
  private static final int LOCAL_BLOCKS = 8;
  /** Splits smaller than this cost more in per-split setup than they gain in balance. */
  private static final long MIN_SPLIT_ROWS = 1 << 20;
  /** A split's row-group count meaning the whole file ({@link EdgeTable#readSplit} reads it as a file). */
  private static final int WHOLE_FILE = -1;
  /** How long {@link #stop} waits for a routing thread to end before it interrupts it, and after. */
  private static final long STOP_WAIT_MS = TimeUnit.SECONDS.toMillis(60);

  /** Node rows routed to this worker and assembled: the input of edge routing. */
  public record NodesRouted(PartitionAssembler assembler, EdgeTable edges, Ownership ownership, List<Path> nodeFiles,
      int width, boolean fused, boolean labels) {}

  private final Configuration conf;
  private final GraphJobOptions spec;
  private final int index;
  private final int workers;
  private final WorkerMesh mesh;
  private final WorkerFigures figures;
  /** Told this worker's node count when its edges are all read, before the partition is built from them. */
  private LongConsumer slotsKnown = slots -> { };
  /** The threads the phases started (the consumer is the worker's own thread): {@link #stop} waits for them. */
  private final List<Background> started = new CopyOnWriteArrayList<>();
  /** Set by {@link #stop}: the routing threads give up at their next block. */
  private final AtomicBoolean abandoned = new AtomicBoolean();
  /** Link prediction's held-out edges taken out of the rows read (null: every row carries messages). */
  private ReadEdgeFilter edgeFilter;

  public WorkerConstruction(Configuration conf, GraphJobOptions spec, int index, int workers, WorkerMesh mesh,
      WorkerFigures figures) {
    this.conf = conf;
    this.spec = spec;
    this.index = index;
    this.workers = workers;
    this.mesh = mesh;
    this.figures = figures;
  }

  /**
   * Whether file {@code file} of a table of {@code files} is this worker's to read: a contiguous run of the
   * table's files per worker, as range ownership gives each worker a contiguous run of ids. A table written in id
   * order (by a sorted job, or in chunks of ids) is then read mostly where it is owned, and its rows reach the
   * assembler without being routed or copied; any other layout is routed as it would be anyway.
   */
  public boolean mine(int file, int files) {
    return share(file, files, workers) == index;
  }

  /** The worker of {@code workers} that reads file {@code file} of {@code files}. */
  static int share(int file, int files, int workers) {
    return (int) ((long) file * workers / files);
  }

  /**
   * Passes every edge row read through {@code f} before ownership filtering. The worker then reads the whole table
   * itself ({@link EdgeReading#ALL}, never routing; under --missing-features zero, routing to itself alone): {@code
   * f} sees every row, so it can keep the filtered-out rows this worker owns however the table's files are laid
   * out. A partition loaded from a partitioned graph passes {@code f} whole.
   */
  public void filterEdges(ReadEdgeFilter f) {
    edgeFilter = f;
  }

  /** Sends every read node row to its owner; receives and assembles the rows this worker owns. */
  public NodesRouted routeNodes(FeatureLoader.NodesRead read, Ownership ownership) throws Exception {
    EdgeTable edges = EdgeTable.open(conf, new Path(spec.get(GraphJobOptions.EDGES)),
        TableReadOptions.builder().format(spec.get(GraphJobOptions.EDGES_FORMAT)).build());
    int width = read.rowWidth();
    PartitionAssembler assembler = new PartitionAssembler(index, ownership, width, edges.weighted(), read.labels(),
        read.labels(), spec.get(GraphJobOptions.MISSING_FEATURES));
    if (ownership.isRange()) {
      // The driver chose range ownership from the ids' count, minimum and maximum: every node id is below the
      // range's count, so sources are held as ints (half the memory, and the block is built over them).
      assembler.denseNodeIds();
      assembler.expectNodes(ownership.rangeStart(index + 1) - ownership.rangeStart(index));
    }
    // Own blocks, assembled between peers' as they come (not all at the end, after the peers' last).
    Queue<GraphRecord> local = new ConcurrentLinkedQueue<>();
    AtomicLong routed = new AtomicLong();
    Background sender = new Background("route-nodes-" + index, () -> {
      RecordRouter router = new RecordRouter(ownership, false, spec.get(GraphJobOptions.MISSING_FEATURES), width, 0,
          EDGE_BLOCK_ROWS,
          (key, r) -> {
            if (key.partition() == index) {
              checkNotAbandoned();
              local.add(r.take());
            } else {
              routed.addAndGet(r.count());
              sendBlock(key.partition(), r);
            }
          });
      for (FeatureLoader.Rows b : read.blocks()) {
        if (allMine(ownership, b)) {
          // Read where they are owned (one worker, or a file laid out by owner): assembled as read, not copied.
          checkNotAbandoned();
          local.add(GraphRecord.nodeRows(b.file(), b.count(), b.ids(), b.rows(), b.width(), b.values(), b.offset(),
              b.labels(), b.splits()));
          continue;
        }
        router.file(b.file());
        for (int i = 0; i < b.count(); i++) {
          router.node(b.ids()[i], b.label(i), b.split(i), b.values(), b.offset() + i * b.width(), b.rows()[i]);
        }
      }
      router.finish();
      endMarkers(1);
    });
    started.add(sender);
    GraphRecord decoded = new GraphRecord();
    consumeUntilEnds(sender, local, assembler,
        m -> assembler.accept(((ConstructionBlock) m).toRecord(decoded, width)));
    // The sender has finished (joined): the rest of its own blocks are in the queue.
    for (GraphRecord r = local.poll(); r != null; r = local.poll()) {
      assembler.accept(r);
    }
    read.blocks().clear();
    assembler.endNodes();
    // Rows read by a worker that does not own them (0 for a table read where it is owned, see mine()).
    figures.put("nodeRowsRouted", routed.get());
    return new NodesRouted(assembler, edges, ownership, read.table().files(), width, read.fused(), read.labels());
  }

  /** Whether every row of {@code b} is this worker's. */
  private boolean allMine(Ownership ownership, FeatureLoader.Rows b) {
    for (int i = 0; i < b.count(); i++) {
      if (ownership.owner(b.ids()[i]) != index) {
        return false;
      }
    }
    return true;
  }

  /** Encodes a routed block for peer {@code q} and sends it, waiting for the transport's credit. */
  private void sendBlock(int q, GraphRecord r) {
    checkNotAbandoned();
    try {
      mesh.send(q, ConstructionBlock.of(r));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("routing interrupted", e);
    } catch (TransportException e) {
      throw new IllegalStateException("routing to worker " + q + ": " + e.getMessage(), e);
    }
  }

  private void endMarkers(int phase) throws Exception {
    checkNotAbandoned();
    for (int q = 0; q < workers; q++) {
      if (q != index) {
        mesh.send(q, new PhaseEnd(phase));
      }
    }
  }

  /** A consumer of construction messages on the worker's main thread. */
  @FunctionalInterface
  private interface Consumer {
    void accept(Message m) throws Exception;
  }

  /**
   * Processes inbound construction messages (releasing each) until every peer sent its end marker once, taking
   * turns with this worker's own blocks ({@code own}, into {@code assembler}).
   */
  private void consumeUntilEnds(Background sender, Queue<GraphRecord> own, PartitionAssembler assembler,
      Consumer consumer) throws Exception {
    PhaseEnds ends = new PhaseEnds("route-nodes", index, workers, ConstructionBlock.class);
    while (!ends.allEnded()) {
      GraphRecord mine = own.poll();
      if (mine != null) {
        assembler.accept(mine);
      }
      // Wake up often while own blocks may still come.
      WorkerMesh.Inbound in = mesh.poll(mine != null ? 0 : sender.done() ? 200 : 1);
      if (in == null) {
        sender.check();
        continue;
      }
      if (in.message() instanceof PhaseEnd) {
        ends.end(in.from());
        continue;
      }
      ends.data(in.from(), in.message());
      consumer.accept(in.message());
      WorkerMesh.release(in.message());
    }
    sender.join();
  }

  /**
   * Reads this worker's share of the edge files (on a few threads when the worker has cores to spare), routes
   * edges and references to owners, assembles the ones it owns as they come (its own share written straight in
   * by the readers, or under --missing-features zero through a short queue; peers' as they arrive), reports the first bad-input finding of all workers, and builds the partition.
   */
  public WorkerPartition buildEdges(NodesRouted routed) throws Exception {
    PartitionAssembler assembler = routed.assembler();
    Ownership ownership = routed.ownership();
    EdgeTable edges = routed.edges();
    boolean zero = spec.get(GraphJobOptions.MISSING_FEATURES) == MissingFeatures.ZERO;
    // Without zero-filling no node joins from here on: the rows are gathered into one matrix while edges are read
    // (the consumer thread mostly waits on the readers then). With it, edges may add nodes: gathered at the end.
    Background gather = zero ? null : new Background("gather-rows-" + index, assembler::gatherRows);
    if (gather != null) {
      started.add(gather);
    }
    BlockingQueue<GraphRecord> local = new ArrayBlockingQueue<>(LOCAL_BLOCKS);
    AtomicBoolean cancelled = new AtomicBoolean();
    // Held-out edges under --missing-features zero: every worker reads every row (the filter must see them all)
    // and keeps only what its router makes for itself; peers' blocks are dropped, as the peers make their own.
    boolean wholeTable = edgeFilter != null;
    RecordRouter.Emitter emitter = (key, r) -> {
      int q = key.partition();
      if (q != index) {
        if (!wholeTable) {
          sendBlock(q, r);
        }
        return;
      }
      GraphRecord own = r.take();
      try {
        while (!local.offer(own, 100, TimeUnit.MILLISECONDS)) {
          if (cancelled.get() || abandoned.get()) {
            throw new IllegalStateException("edge reading cancelled");
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("edge reading interrupted", e);
      }
    };
    if (workers == 1 && !zero) {
      // A lone worker's slots are its nodes, all known now: the first layer's matrix is allocated while the edges
      // are read, two threads' work that it slows a little, rather than during the build, whose end it held up
      // (the layer waited 0.5-0.8 s on the allocating thread alone).
      slotsKnown.accept(assembler.index().size());
      slotsKnown = slots -> { };
    }
    long t0 = System.nanoTime();
    assembler.expectEdges(edgeShare(edges.countHint()));
    if (!zero && (workers == 1 || edgeFilter != null || spec.get(GraphJobOptions.EDGE_READING)
        .resolve(workers) == EdgeReading.ALL)) {
      return finishEdges(routed, gather, readWholeTable(routed), t0);
    }
    // Without zero-filling, the edges this worker keeps go straight into its assembler, as a worker alone's do;
    // only peers' edges and references are routed as blocks.
    PartitionAssembler.DirectEdges direct = zero ? null : assembler.directEdges(spec.get(GraphJobOptions.UNDIRECTED));
    List<EdgeTable.Split> splits = edgeSplits(edges, edgeReaders(), wholeTable);
    AtomicInteger next = new AtomicInteger();
    int threads = Math.max(1, Math.min(edgeReaders(), splits.size()));
    ReaderThreads readers = new ReaderThreads("route-edges-" + index, threads, () -> {
      PartitionAssembler.DirectEdges.Writer writer = direct == null ? null : direct.writer();
      RecordRouter router = new RecordRouter(ownership, spec.get(GraphJobOptions.UNDIRECTED),
          spec.get(GraphJobOptions.MISSING_FEATURES), routed.width(),
          0, EDGE_BLOCK_ROWS, emitter, index, writer);
      EdgeSink sink = !wholeTable ? router
          : edgeFilter.wrap(new OwnRows(router, ownership, index), ownership, router::endpoint);
      for (int i = next.getAndIncrement(); i < splits.size(); i = next.getAndIncrement()) {
        EdgeTable.Split split = splits.get(i);
        router.file(split.file());
        edges.readSplit(split, sink);
      }
      router.finish();
      if (writer != null) {
        writer.flush();
      }
    }, () -> endMarkers(2));
    started.addAll(readers.threads());
    InputFinding[] findings = new InputFinding[workers];
    boolean[] found = new boolean[workers];
    GraphRecord decoded = new GraphRecord();
    try {
      PhaseEnds ends = new PhaseEnds("edges", index, workers, ConstructionBlock.class);
      while (!ends.allEnded() || !readers.done() || !local.isEmpty()) {
        GraphRecord mine = local.poll();
        if (mine != null) {
          assembler.accept(mine);
        }
        // Alternate own blocks with peers' so that neither waits on the other; wake up often while reading.
        WorkerMesh.Inbound m = mesh.poll(mine != null ? 0 : readers.done() ? 200 : 1);
        if (m == null) {
          readers.check();
          continue;
        }
        if (m.message() instanceof PhaseEnd) {
          ends.end(m.from());
          continue;
        }
        if (m.message() instanceof ConstructionFinding f && ends.ended(m.from())) {
          // A peer that finished first: its finding follows its end marker.
          found(found, m.from());
          findings[m.from()] = f.error();
          continue;
        }
        ends.data(m.from(), m.message());
        assembler.accept(((ConstructionBlock) m.message()).toRecord(decoded, routed.width()));
        WorkerMesh.release(m.message());
      }
      readers.join();
    } finally {
      cancelled.set(true);
    }
    if (direct != null) {
      direct.close();
    }
    InputFinding first = firstFinding(assembler.error(), findings, found);
    if (first != null) {
      throw first.toException(routed.nodeFiles(), edges.files());
    }
    return finishEdges(routed, gather, readers.count(), t0);
  }

  /**
   * Every edge file read by this worker, written straight into its assembler ({@link
   * PartitionAssembler#directEdges}) on all its threads, without routing blocks, a queue or a second copy: a worker
   * alone keeps every edge; with peers ({@link EdgeReading#ALL}) each keeps its own share ({@link OwnEdgeFilter}),
   * nothing is routed, and the workers then exchange their first findings. Returns the number of reading threads;
   * throws the first bad-input finding of all workers.
   */
  private int readWholeTable(NodesRouted routed) throws Exception {
    EdgeTable edges = routed.edges();
    PartitionAssembler.DirectEdges direct = routed.assembler().directEdges(spec.get(GraphJobOptions.UNDIRECTED));
    // All the worker's threads read: there is no consumer of peers' blocks to leave a core for.
    int maxThreads = Math.max(1, Math.min(MAX_EDGE_READERS, spec.threads()));
    List<EdgeTable.Split> splits = edgeSplits(edges, maxThreads, true);
    Ownership filter = workers == 1 ? null : routed.ownership();
    AtomicInteger next = new AtomicInteger();
    ReaderThreads readers = new ReaderThreads("read-edges-" + index, Math.max(1, Math.min(maxThreads,
        splits.size())), () -> {
      PartitionAssembler.DirectEdges.Writer writer = direct.writer();
      OwnEdgeFilter own = filter == null ? null : new OwnEdgeFilter(filter, spec.get(GraphJobOptions.UNDIRECTED), index,
          writer);
      EdgeSink sink = own == null ? writer : own;
      if (edgeFilter != null) {
        sink = edgeFilter.wrap(sink, routed.ownership(), writer::ownReference);
      }
      for (int i = next.getAndIncrement(); i < splits.size(); i = next.getAndIncrement()) {
        checkNotAbandoned();
        EdgeTable.Split split = splits.get(i);
        writer.file(split.file());
        edges.readSplit(split, sink);
      }
      writer.flush();
    }, () -> { });
    started.addAll(readers.threads());
    readers.join();
    direct.close();
    InputFinding first = firstFinding(routed.assembler().error(), new InputFinding[workers], new boolean[workers]);
    if (first != null) {
      throw first.toException(routed.nodeFiles(), edges.files());
    }
    return readers.count();
  }

  /**
   * Tells {@code r} this worker's row slot count (nodes and halo) once its edges are read, while the partition is
   * built (see {@link PartitionAssembler#onSlotsKnown}): a layer's allocations can start there.
   */
  void onSlotsKnown(LongConsumer r) {
    slotsKnown = r;
  }

  /** Waits for the gathered rows, builds the partition and records the phase's figures. */
  private WorkerPartition finishEdges(NodesRouted routed, Background gather, int readerCount, long t0)
      throws Exception {
    PartitionAssembler assembler = routed.assembler();
    long t1 = System.nanoTime();
    if (gather != null) {
      gather.join();
    }
    long t2 = System.nanoTime();
    assembler.onSlotsKnown(slotsKnown);
    GraphPartition part = assembler.finish();
    figures.put("edgeReaders", readerCount);
    figures.put("edgesRouteSeconds", (t1 - t0) / 1e9);
    figures.put("edgesRowsWaitSeconds", (t2 - t1) / 1e9);
    figures.put("edgesBuildSeconds", (System.nanoTime() - t2) / 1e9);
    return new WorkerPartition(part.block(), assembler.index(), routed.ownership(), part.features(), routed.fused(),
        routed.labels() ? part.labels() : null, routed.labels() ? part.splits() : null);
  }

  private void checkNotAbandoned() {
    if (abandoned.get()) {
      throw new IllegalStateException("worker " + index + ": construction abandoned after a lost worker");
    }
  }

  /**
   * Abandons this construction, which every worker starts over after a lost worker: the routing threads stop at
   * their next block (and a send to a closed peer connection fails at once) and are waited for, so that none
   * sends on the peer connections made anew afterwards. Called on the worker's own thread once the phase that
   * started them has returned or thrown.
   */
  public void stop() throws InterruptedException {
    abandoned.set(true);
    long deadline = System.currentTimeMillis() + STOP_WAIT_MS;
    for (Background b : started) {
      if (!b.await(deadline - System.currentTimeMillis())) {
        b.interrupt();
        if (!b.await(STOP_WAIT_MS)) {
          throw new IllegalStateException("worker " + index + ": construction thread " + b.name()
              + " did not stop");
        }
      }
    }
    started.clear();
  }

  /**
   * Sends this worker's finding (or none) to every peer and waits for theirs (some may have come already):
   * the smallest of all, so every worker reports the same first offending row.
   */
  private InputFinding firstFinding(InputFinding own, InputFinding[] early, boolean[] found) throws Exception {
    int received = 0;
    InputFinding first = own;
    for (int q = 0; q < workers; q++) {
      if (found[q]) {
        first = InputFinding.min(first, early[q]);
        received++;
      }
    }
    for (int q = 0; q < workers; q++) {
      if (q != index) {
        mesh.send(q, new ConstructionFinding(own));
      }
    }
    while (received < workers - 1) {
      WorkerMesh.Inbound m = mesh.take(WorkerMesh.PEER_TIMEOUT_MS);
      if (!(m.message() instanceof ConstructionFinding f)) {
        throw new IllegalStateException("worker " + index + " expected a construction finding from worker "
            + m.from() + ", got " + m.message());
      }
      found(found, m.from());
      first = InputFinding.min(first, f.error());
      received++;
    }
    return first;
  }

  /** Records peer {@code q}'s finding; a second one is a protocol error. */
  private void found(boolean[] found, int q) {
    if (q < 0 || q >= workers || q == index || found[q]) {
      throw new ProtocolException("worker " + index + ": a second construction finding from worker " + q);
    }
    found[q] = true;
  }

  /**
   * Edge reading threads: half the worker's threads when there are peers (its consumer and the transport share the
   * rest; --local workers already split the cores between them, {@link GraphJobOptions#threads()}); all of them for a
   * worker alone, whose consumer only assembles its own blocks (a quarter
   * of a core while one reader keeps a core busy: on 2 cores a second reader cut the routing from 1.17 to 0.94 s,
   * medians of 6 interleaved 1M-node jobs).
   */
  private int edgeReaders() {
    return Math.max(1, Math.min(MAX_EDGE_READERS, workers == 1 ? spec.threads() : spec.threads() / 2));
  }

  /**
   * The edges this worker may expect of a table of {@code rows} (with {@code --undirected} twice as many): all of
   * them alone, else an even share and a quarter more for the skew of degrees (more still grow the arrays).
   */
  long edgeShare(long rows) {
    long all = spec.get(GraphJobOptions.UNDIRECTED) ? 2 * rows : rows;
    return workers == 1 ? all : all / workers + all / workers / 4;
  }

  /**
   * The edge files read as units, this worker's share of them or with {@code wholeTable} all: whole files for one
   * reader; for several, Parquet files cut at row groups into a few pieces per reader so that even one large file
   * is read in parallel.
   */
  private List<EdgeTable.Split> edgeSplits(EdgeTable edges, int readers, boolean wholeTable) {
    int files = edges.files().size();
    List<EdgeTable.Split> out = new ArrayList<>();
    if (readers == 1) {
      for (int f = 0; f < files; f++) {
        if (wholeTable || mine(f, files)) {
          out.add(new EdgeTable.Split(f, 0, WHOLE_FILE, -1));
        }
      }
      return out;
    }
    long target = Math.max(MIN_SPLIT_ROWS, edges.countHint() / (wholeTable ? 1 : workers) / (4L * readers));
    for (EdgeTable.Split s : edges.splits(target)) {
      if (wholeTable || mine(s.file(), files)) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * Loads this worker's partition of a pre-partitioned graph ({@code --graph}): only its own files are read, and
   * with fusion the feature rows are transformed by the first layer as they are loaded; its in-edges pass the
   * {@link #filterEdges} filter as a table's rows would.
   */
  public WorkerPartition loadPartition(Model model, FeatureLoader features) {
    PartitionedGraph pg = PartitionedGraph.open(conf, new Path(spec.get(GraphJobOptions.GRAPH)));
    ModelFiles.checkInputWidth(model, features.modelPath(), pg.featureWidth(), spec.get(GraphJobOptions.GRAPH));
    GraphPartition part = pg.loadPartition(index);
    GraphBlock graph = part.block();
    WorkerPartition p = new WorkerPartition(graph, PartitionBlockBuilder.indexOf(graph.nodeIds()), part.ownership(),
        features.load(part.features()), features.fusion(), features.labels() ? part.labels() : null,
        features.labels() ? part.splits() : null);
    return edgeFilter == null ? p : edgeFilter.filterPartition(p);
  }

  /**
   * The rows with an endpoint {@code index} owns, on to {@code next}: a worker that reads every row routes only
   * those (the others make nothing for it).
   */
  private static final class OwnRows implements EdgeSink {
    private final EdgeSink next;
    private final Ownership ownership;
    private final int index;

    OwnRows(EdgeSink next, Ownership ownership, int index) {
      this.next = next;
      this.ownership = ownership;
      this.index = index;
    }

    @Override
    public void edge(long src, long dst, float weight, long row) {
      if (ownership.owner(dst) == index || ownership.owner(src) == index) {
        next.edge(src, dst, weight, row);
      }
    }
  }
}
