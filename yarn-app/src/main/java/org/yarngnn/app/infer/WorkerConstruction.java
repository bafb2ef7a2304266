package org.yarngnn.app.infer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.io.model.ModelFiles;
import org.yarngnn.app.transport.Command;
import org.yarngnn.app.transport.Message;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionBlockBuilder;
import org.yarngnn.partition.format.PartitionedGraph;

/**
 * A graph worker's construction (Deal's 1-D partitioning): node rows routed to their owners, then edges routed to
 * their destinations' owners, each owner building the CSR of its nodes' in-edges (remote sources become halo
 * slots). Or, from a pre-partitioned graph, only this worker's partition files are read.
 */
final class WorkerConstruction {
  private static final int EDGE_BLOCK_ROWS = 16384;
  private static final int MAX_EDGE_READERS = 8;
  /** Edge blocks this worker read for itself that may wait for its consumer. */
  private static final int LOCAL_EDGE_BLOCKS = 8;
  /** Splits smaller than this cost more in per-split setup than they gain in balance. */
  private static final long MIN_SPLIT_ROWS = 1 << 20;
  /** A split's row-group count meaning the whole file ({@link EdgeTable#readSplit} reads it as a file). */
  private static final int WHOLE_FILE = -1;
  /** The command a worker sends each peer after its last construction block of a phase. */
  private static final String END = "end";

  /** Node rows routed to this worker, owned by it: the input of edge routing. */
  record NodesRouted(OwnedNodes owned, Ownership ownership, List<Path> nodeFiles, boolean fused) {}

  private final Configuration conf;
  private final InferOptions spec;
  private final int index;
  private final int workers;
  private final WorkerMesh mesh;
  private final WorkerFigures figures;

  WorkerConstruction(Configuration conf, InferOptions spec, int index, int workers, WorkerMesh mesh,
      WorkerFigures figures) {
    this.conf = conf;
    this.spec = spec;
    this.index = index;
    this.workers = workers;
    this.mesh = mesh;
    this.figures = figures;
  }

  /** Whether table file {@code file} is this worker's to read. */
  boolean mine(int file) {
    return file % workers == index;
  }

  /** Sends every read node row to its owner; receives and indexes the rows this worker owns. */
  NodesRouted routeNodes(FeatureLoader.NodesRead read, Ownership ownership) throws Exception {
    OwnedNodes owned = new OwnedNodes(read.rowWidth());
    List<NodeBlock> local = new ArrayList<>();
    List<Path> files = read.table().files();
    Background sender = new Background("route-nodes-" + index, () -> {
      for (NodeBlock b : read.blocks()) {
        NodeBlock[] split = splitByOwner(b, ownership);
        for (int q = 0; q < workers; q++) {
          if (split[q] == null) {
            continue;
          }
          if (q == index) {
            synchronized (local) {
              local.add(split[q]);
            }
          } else {
            mesh.send(q, split[q]);
          }
        }
      }
      endMarkers(1);
    });
    consumeUntilEnds(new PhaseEnds("route-nodes", index, workers, NodeBlock.class), sender,
        m -> owned.addAll((NodeBlock) m, files));
    for (NodeBlock b : local) {
      owned.addAll(b, files);
    }
    read.blocks().clear();
    return new NodesRouted(owned, ownership, files, read.fused());
  }

  private NodeBlock[] splitByOwner(NodeBlock b, Ownership ownership) throws Exception {
    int[] owner = new int[b.count()];
    int[] counts = new int[workers];
    for (int i = 0; i < owner.length; i++) {
      owner[i] = ownership.owner(b.ids()[i]);
      counts[owner[i]]++;
    }
    NodeBlockBuilder[] parts = new NodeBlockBuilder[workers];
    NodeBlock[] out = new NodeBlock[workers];
    for (int q = 0; q < workers; q++) {
      if (counts[q] > 0) {
        int dest = q;
        parts[q] = new NodeBlockBuilder(b.file(), b.width(), b.labels() != null, nb -> out[dest] = nb, counts[q]);
      }
    }
    for (int i = 0; i < owner.length; i++) {
      parts[owner[i]].add(b.ids()[i], b.rows()[i], b.labels() == null ? -1 : b.labels()[i],
          b.splits() == null ? 0 : b.splits()[i], b.values(), i * b.width());
    }
    for (NodeBlockBuilder p : parts) {
      if (p != null) {
        p.flush();
      }
    }
    return out;
  }

  private void endMarkers(int phase) throws Exception {
    for (int q = 0; q < workers; q++) {
      if (q != index) {
        mesh.send(q, new Command(END, phase));
      }
    }
  }

  /** A consumer of construction messages on the worker's main thread. */
  @FunctionalInterface
  private interface Consumer {
    void accept(Message m) throws Exception;
  }

  /** Processes inbound construction messages (releasing each) until every peer sent its end marker. */
  private void consumeUntilEnds(PhaseEnds ends, Background sender, Consumer consumer) throws Exception {
    while (!ends.allEnded()) {
      WorkerMesh.Inbound in = mesh.poll(200);
      if (in == null) {
        sender.check();
        continue;
      }
      if (in.message() instanceof Command c && c.name().equals(END)) {
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
   * edges to owners, adds the ones it owns as they come (its own share through a short queue, peers' as they
   * arrive), and builds the partition.
   */
  WorkerPartition buildEdges(NodesRouted routed) throws Exception {
    OwnedNodes owned = routed.owned();
    Ownership ownership = routed.ownership();
    EdgeTable edges = EdgeTable.open(conf, spec.edges(),
        TableReadOptions.builder().format(spec.edgesFormat()).build());
    boolean zero = spec.missingFeatures() == MissingFeatures.ZERO;
    owned.renumberConsecutive();
    // Without zero-filling no node joins from here on: the rows are gathered into one matrix while edges are read
    // (the consumer thread mostly waits on the readers then). With it, edges may add nodes: gathered at the end.
    DenseMatrix[] rows = new DenseMatrix[1];
    Background gather = zero ? null : new Background("gather-rows-" + index, () -> rows[0] = owned.takeRows());
    OwnedEdges in = new OwnedEdges(edges.weighted());
    List<String> names = new ArrayList<>();
    for (Path f : edges.files()) {
      names.add(f.toString());
    }
    EdgeReceiver receiver = new EdgeReceiver(owned, in, ownership, index, names, zero);
    // Bounded, as peers' blocks are by the transport's credits: the readers wait while the consumer is behind.
    BlockingQueue<EdgeBlock> local = new ArrayBlockingQueue<>(LOCAL_EDGE_BLOCKS);
    AtomicBoolean cancelled = new AtomicBoolean();
    EdgeBlockBuilder.Sink sink = (q, b) -> {
      if (q != index) {
        mesh.send(q, b);
        return;
      }
      while (!local.offer(b, 100, TimeUnit.MILLISECONDS)) {
        if (cancelled.get()) {
          throw new IllegalStateException("edge reading cancelled");
        }
      }
    };
    long t0 = System.nanoTime();
    List<EdgeTable.Split> splits = edgeSplits(edges);
    AtomicInteger next = new AtomicInteger();
    int threads = Math.max(1, Math.min(edgeReaders(), splits.size()));
    ReaderThreads readers = new ReaderThreads("route-edges-" + index, threads, () -> {
      EdgeRouter router = new EdgeRouter(ownership, workers, edges.weighted(), spec.undirected(), zero,
          EDGE_BLOCK_ROWS, sink);
      for (int i = next.getAndIncrement(); i < splits.size(); i = next.getAndIncrement()) {
        EdgeTable.Split split = splits.get(i);
        router.file(split.file());
        edges.readSplit(split, router);
      }
      router.flush();
    }, () -> endMarkers(2));
    try {
      PhaseEnds ends = new PhaseEnds("edges", index, workers, EdgeBlock.class);
      while (!ends.allEnded() || !readers.done() || !local.isEmpty()) {
        EdgeBlock mine = local.poll();
        if (mine != null) {
          receiver.add(mine);
        }
        // Alternate own blocks with peers' so that neither waits on the other; wake up often while reading.
        WorkerMesh.Inbound m = mesh.poll(mine != null ? 0 : readers.done() ? 200 : 1);
        if (m == null) {
          readers.check();
          continue;
        }
        if (m.message() instanceof Command c && c.name().equals(END)) {
          ends.end(m.from());
          continue;
        }
        ends.data(m.from(), m.message());
        receiver.add((EdgeBlock) m.message());
        WorkerMesh.release(m.message());
      }
      readers.join();
    } finally {
      cancelled.set(true);
    }
    long t1 = System.nanoTime();
    if (gather != null) {
      gather.join();
    } else {
      rows[0] = owned.takeRows();
    }
    long t2 = System.nanoTime();
    GraphBlock graph = PartitionBlockBuilder.build(owned.ids(), owned.index, in.dst, in.src, in.weight, in.size);
    figures.put("edgeReaders", readers.count());
    figures.put("edgesRouteSeconds", (t1 - t0) / 1e9);
    figures.put("edgesRowsWaitSeconds", (t2 - t1) / 1e9);
    figures.put("edgesBuildSeconds", (System.nanoTime() - t2) / 1e9);
    return new WorkerPartition(graph, owned.index, ownership, rows[0], routed.fused());
  }

  /** Edge reading threads: half the compute threads (the consumer, transport and --local peers share the rest). */
  private int edgeReaders() {
    return Math.max(1, Math.min(MAX_EDGE_READERS, spec.threads() / 2));
  }

  /**
   * This worker's edge files as units of reading: whole files for one reader; for several, Parquet files cut at
   * row groups into a few pieces per reader so that even one large file is read in parallel.
   */
  private List<EdgeTable.Split> edgeSplits(EdgeTable edges) {
    List<EdgeTable.Split> out = new ArrayList<>();
    int readers = edgeReaders();
    if (readers == 1) {
      for (int f = 0; f < edges.files().size(); f++) {
        if (mine(f)) {
          out.add(new EdgeTable.Split(f, 0, WHOLE_FILE, -1));
        }
      }
      return out;
    }
    long target = Math.max(MIN_SPLIT_ROWS, edges.countHint() / workers / (4L * readers));
    for (EdgeTable.Split s : edges.splits(target)) {
      if (mine(s.file())) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * Loads this worker's partition of a pre-partitioned graph ({@code --graph}): only its own files are read, and
   * with fusion the feature rows are transformed by the first layer as they are loaded.
   */
  WorkerPartition loadPartition(Model model, FeatureLoader features) {
    PartitionedGraph pg = PartitionedGraph.open(conf, new Path(spec.graph()));
    ModelFiles.checkInputWidth(model, spec.model(), pg.featureWidth(), spec.graph());
    GraphPartition part = pg.loadPartition(index);
    GraphBlock graph = part.block();
    return new WorkerPartition(graph, PartitionBlockBuilder.indexOf(graph.nodeIds()), part.ownership(),
        features.load(part.features()), spec.fusion());
  }
}
