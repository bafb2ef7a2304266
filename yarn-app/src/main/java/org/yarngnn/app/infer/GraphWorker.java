package org.yarngnn.app.infer;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.ModelFiles;
import org.yarngnn.app.transport.Command;
import org.yarngnn.app.transport.Done;
import org.yarngnn.app.transport.Endpoint;
import org.yarngnn.app.transport.Failure;
import org.yarngnn.app.transport.Hello;
import org.yarngnn.app.transport.InboundQueue;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.PeerConnection;
import org.yarngnn.app.transport.PeerTable;
import org.yarngnn.app.transport.RowBlock;
import org.yarngnn.app.transport.TransportClient;
import org.yarngnn.app.transport.TransportOptions;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.infer.LayerwiseInference;
import org.yarngnn.compute.infer.RowNormalization;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.layer.Layer;
import org.yarngnn.compute.model.Model;
import org.yarngnn.compute.model.ModelFormatException;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.EdgeTable;
import org.yarngnn.io.EmbeddingWriter;
import org.yarngnn.io.InputException;
import org.yarngnn.io.NodeSink;
import org.yarngnn.io.NodeTable;
import org.yarngnn.io.OutputCommit;
import org.yarngnn.io.TableReadOptions;
import org.yarngnn.partition.GraphPartition;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.NodeIndex;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionBlockBuilder;
import org.yarngnn.partition.PartitionedGraph;

/**
 * A long-lived graph worker (a YARN container, or a thread with {@code --local}). It registers with the driver,
 * then runs the driver's rounds: read its share of the node files; route node rows to their owners; read its share
 * of the edge files and route each edge to its destination's owner; build its partition (in-edges of its own
 * nodes, remote sources as halo slots); plan, per layer, which rows each peer needs; then one round per layer
 * (transform own rows once, stream peers the rows they asked for in chunks, aggregate as chunks arrive); and
 * write its own part file. Every row is computed exactly once per layer across all workers.
 */
public final class GraphWorker {
  static final long PEER_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(10);
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
  /** Part files one worker may write in parallel; also the stride of part numbers between workers. */
  static final int PARTS_PER_WORKER = 8;

  private final Configuration conf;
  private final int index;
  private final int workers;
  private final String driverHost;
  private final int driverPort;
  private final String advertisedHost;

  private InferenceJobSpec spec;
  private LayerwiseInference engine;
  private Model model;
  private WorkerMesh mesh;
  private List<Endpoint> endpoints;
  private Ownership ownership;
  private final WorkerStats stats = new WorkerStats();

  private NodeTable nodeTable;
  private List<NodeBlock> readNodes = new ArrayList<>();
  private OwnedNodes owned;
  /** Whether this job's first-layer rows were transformed where they were read (see {@link #fuse}). */
  private boolean fused;
  /** Global id to local index of this worker's nodes, for resolving peers' halo requests. */
  private NodeIndex nodeIndex;
  private GraphBlock graph;
  private GraphBlock[] layerEdges;
  private int[][][] sendRows;
  private int[][][] recvSlots;
  private DenseMatrix h;

  public GraphWorker(Configuration conf, int index, int workers, String driverHost, int driverPort,
      String advertisedHost) {
    this.conf = conf;
    this.index = index;
    this.workers = workers;
    this.driverHost = driverHost;
    this.driverPort = driverPort;
    this.advertisedHost = advertisedHost;
  }

  /** Runs until the driver says exit (returns 0) or something fails (reported to the driver; returns 1). */
  public int run() {
    InboundQueue control = new InboundQueue();
    TransportOptions options = TransportOptions.builder().codec(InferenceCodec.CODEC).build();
    try (TransportClient client = new TransportClient(options, control)) {
      client.start();
      PeerConnection driver = client.connect(driverHost, driverPort);
      try {
        mesh = new WorkerMesh(index, workers, options);
        driver.sendBlocking(new Hello(index, advertisedHost, mesh.port()));
        return serve(driver, control);
      } catch (Exception | OutOfMemoryError | StackOverflowError e) {
        String kind = e instanceof InputException || e instanceof ModelFormatException ? "input" : "error";
        try {
          driver.sendBlocking(new Failure(kind + ": worker " + index + ": " + describe(e)));
          driver.closeFuture().get(5, TimeUnit.SECONDS);
        } catch (Exception ignored) {
          // The driver is gone too; the exit status says enough.
        }
        if (kind.equals("input")) {
          // Reported: the driver fails the job as bad input. A non-zero exit would race that report as a
          // container failure with a less precise reason.
          return 0;
        }
        e.printStackTrace();
        return 1;
      } finally {
        if (mesh != null) {
          mesh.close();
        }
      }
    } catch (Exception e) {
      System.err.println("yarn-gnn worker " + index + ": cannot reach the driver at " + driverHost + ":"
          + driverPort + ": " + describe(e));
      return 1;
    }
  }

  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null && sb.length() < 1000; t = t.getCause() == t ? null : t.getCause()) {
      if (sb.length() > 0) {
        sb.append(": ");
      }
      sb.append(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage());
    }
    return sb.toString();
  }

  private int serve(PeerConnection driver, InboundQueue control) throws Exception {
    while (true) {
      InboundQueue.Event ev = control.take();
      if (ev.isClose()) {
        throw new IOException("the driver closed the connection"
            + (ev.cause() == null ? "" : ": " + ev.cause().getMessage()));
      }
      Message m = ev.message();
      if (m instanceof PeerTable t) {
        endpoints = t.endpoints();
        continue;
      }
      if (!(m instanceof Command c)) {
        throw new IOException("unexpected message from the driver: " + m);
      }
      if (spec != null && (index + "@" + c.name()).equals(spec.haltAt())) {
        // Test hook: in a container, die the way a killed container dies, without a word to anyone.
        if (System.getenv("CONTAINER_ID") != null) {
          Runtime.getRuntime().halt(137);
        }
        throw new IllegalStateException("worker " + index + " halted by " + "yarngnn.test.halt-worker");
      }
      long t0 = System.nanoTime();
      String result = "";
      switch (c.name()) {
        case "job":
          job(InferenceJobSpec.fromBytes(c.payload()));
          break;
        case "read-nodes":
          result = readNodes();
          break;
        case "route-nodes":
          routeNodes(Ownership.parse(new String(c.payload(), StandardCharsets.UTF_8)));
          break;
        case "edges":
          result = routeEdgesAndBuild();
          break;
        case "load":
          result = loadPartition();
          break;
        case "plan":
          plan();
          break;
        case "layer":
          layer((int) c.arg());
          break;
        case "write":
          write();
          break;
        case "exit":
          driver.sendBlocking(new Done(c.arg(), stats.summary(mesh).getBytes(StandardCharsets.UTF_8)));
          return 0;
        default:
          throw new IOException("unknown command " + c.name());
      }
      stats.phase(c.name() + (c.name().equals("layer") ? c.arg() : ""), (System.nanoTime() - t0) / 1e9);
      driver.sendBlocking(new Done(c.arg(), result.getBytes(StandardCharsets.UTF_8)));
    }
  }

  private void job(InferenceJobSpec s) throws Exception {
    spec = s;
    model = ModelFiles.read(conf, new Path(s.model()));
    engine = new LayerwiseInference(model, s.seed());
    mesh.connect(endpoints, PEER_TIMEOUT_MS);
  }

  // ---- construction -------------------------------------------------------------------------------------------

  private boolean mine(int file) {
    return file % workers == index;
  }

  /** Reads this worker's node files; reports "count min max width". */
  private String readNodes() throws Exception {
    nodeTable = NodeTable.open(conf, new Path(spec.nodes()),
        TableReadOptions.builder().format(spec.nodesFormat()).build());
    int width = nodeTable.featureWidth();
    ModelFiles.checkInputWidth(model, spec.model(), width, spec.nodes());
    boolean labelled = nodeTable.hasLabels() || nodeTable.hasSplits();
    long[] minMax = {Long.MAX_VALUE, Long.MIN_VALUE, 0};
    // Fusion ships the first layer's row-local products instead of raw rows: only when they are narrower
    // (a sage layer's [H W_self | H W_neigh] is twice its output width).
    fused = spec.fusion() && engine.layers().get(0).linearWidth() < width;
    boolean rowNormalize = "row".equals(model.spec().inputNormalize());
    float[] scratch = new float[width];
    for (int f = 0; f < nodeTable.files().size(); f++) {
      if (!mine(f)) {
        continue;
      }
      int file = f;
      NodeBlockBuilder b = new NodeBlockBuilder(file, width, labelled,
          nb -> readNodes.add(fused ? fuse(nb) : nb));
      nodeTable.readFile(f, new NodeSink() {
        @Override
        public void node(long id, int label, byte split, float[] features, long row) {
          minMax[0] = Math.min(minMax[0], id);
          minMax[1] = Math.max(minMax[1], id);
          minMax[2]++;
          if (rowNormalize) {
            // Input normalisation is row-local: done where the row is read, before anything else.
            System.arraycopy(features, 0, scratch, 0, width);
            RowNormalization.divideBySum(scratch, 0, width);
            b.add(id, row, label, split, scratch);
          } else {
            b.add(id, row, label, split, features);
          }
        }
      });
      b.flush();
    }
    return minMax[2] + " " + minMax[0] + " " + minMax[1] + " " + width;
  }

  /**
   * Fusion of feature loading with the first layer: the block's raw rows become the first layer's
   * graph-independent products ({@link Layer#linear}), so raw features are never kept whole nor sent.
   */
  private NodeBlock fuse(NodeBlock raw) {
    Layer first = engine.layers().get(0);
    DenseMatrix in = new DenseMatrix(raw.count(), raw.width(), raw.values());
    DenseMatrix lin = new DenseMatrix(raw.count(), first.linearWidth());
    first.linear(in, 0, raw.count(), lin);
    return new NodeBlock(raw.file(), raw.ids(), raw.rows(), raw.labels(), raw.splits(), lin.cols(), lin.data());
  }

  /** Sends every read node row to its owner; receives and indexes the rows this worker owns. */
  private void routeNodes(Ownership own) throws Exception {
    ownership = own;
    owned = new OwnedNodes(fused ? engine.layers().get(0).linearWidth() : nodeTable.featureWidth());
    List<NodeBlock> local = new ArrayList<>();
    List<NodeBlock> toRoute = readNodes;
    readNodes = null;
    Background sender = new Background("route-nodes-" + index, () -> {
      for (NodeBlock b : toRoute) {
        NodeBlock[] split = splitByOwner(b);
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
        m -> owned.addAll((NodeBlock) m, nodeTable.files()));
    for (NodeBlock b : local) {
      owned.addAll(b, nodeTable.files());
    }
  }

  private NodeBlock[] splitByOwner(NodeBlock b) throws Exception {
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
   * arrive), and builds the partition; reports its sizes.
   */
  private String routeEdgesAndBuild() throws Exception {
    EdgeTable edges = EdgeTable.open(conf, new Path(spec.edges()),
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
    graph = PartitionBlockBuilder.build(owned.ids(), owned.index, in.dst, in.src, in.weight, in.size);
    nodeIndex = owned.index;
    h = rows[0];
    stats.put("edgeReaders", readers.count());
    stats.put("edgesRouteSeconds", (t1 - t0) / 1e9);
    stats.put("edgesRowsWaitSeconds", (t2 - t1) / 1e9);
    stats.put("edgesBuildSeconds", (System.nanoTime() - t2) / 1e9);
    stats.put("nodes", graph.numNodes());
    stats.put("edges", graph.inEdges().numEdges());
    stats.put("halo", graph.haloIds().length);
    return graph.numNodes() + " " + graph.inEdges().numEdges() + " " + graph.haloIds().length;
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
  private String loadPartition() {
    PartitionedGraph pg = PartitionedGraph.open(conf, new Path(spec.graph()));
    ModelFiles.checkInputWidth(model, spec.model(), pg.featureWidth(), spec.graph());
    GraphPartition part = pg.loadPartition(index);
    ownership = part.ownership();
    graph = part.block();
    nodeIndex = PartitionBlockBuilder.indexOf(graph.nodeIds());
    DenseMatrix features = part.features();
    RowNormalization.applyInput(model.spec().inputNormalize(), features);
    fused = spec.fusion();
    if (fused) {
      Layer first = engine.layers().get(0);
      h = new DenseMatrix(features.rows(), first.linearWidth());
      RowRanges.parallel(features.rows(), 256, (from, to) -> first.linear(features, from, to, h));
    } else {
      h = features;
    }
    stats.put("nodes", graph.numNodes());
    stats.put("edges", graph.inEdges().numEdges());
    stats.put("halo", graph.haloIds().length);
    return graph.numNodes() + " " + graph.inEdges().numEdges() + " " + graph.haloIds().length;
  }

  // ---- plan and layer rounds ------------------------------------------------------------------------------------

  /** Samples every layer once and exchanges, per layer, which rows each peer needs from each owner. */
  private void plan() throws Exception {
    List<Layer> layers = engine.layers();
    int depth = layers.size();
    int n = graph.numNodes();
    long[] halo = graph.haloIds();
    layerEdges = new GraphBlock[depth];
    sendRows = new int[depth][workers][];
    recvSlots = new int[depth][workers][];
    int[] haloOwner = new int[halo.length];
    for (int j = 0; j < halo.length; j++) {
      haloOwner[j] = ownership.owner(halo[j]);
    }
    for (int k = 0; k < depth; k++) {
      layerEdges[k] = engine.sampled(k, graph);
      boolean[] used = new boolean[halo.length];
      Csr c = layerEdges[k].inEdges();
      for (int e = 0; e < c.numEdges(); e++) {
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
        recvSlots[k][q] = new int[counts[q]];
      }
      int[] fill = new int[workers];
      for (int j = 0; j < halo.length; j++) {
        if (used[j]) {
          int q = haloOwner[j];
          ids[q][fill[q]] = halo[j];
          recvSlots[k][q][fill[q]++] = n + j;
        }
      }
      for (int q = 0; q < workers; q++) {
        if (q != index) {
          mesh.send(q, new HaloRequest(k, ids[q]));
        }
      }
      sendRows[k][index] = new int[0];
    }
    for (int received = 0; received < depth * (workers - 1); received++) {
      WorkerMesh.Inbound in = mesh.take(PEER_TIMEOUT_MS);
      HaloRequest r = (HaloRequest) in.message();
      int[] rows = new int[r.ids().length];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = nodeIndex.get(r.ids()[i]);
        if (rows[i] < 0) {
          throw new InputException(spec.edges() + ": edge source " + r.ids()[i]
              + " has no row in the nodes table (use --missing-features zero to give it zero features)");
        }
      }
      sendRows[r.layer()][in.from()] = rows;
    }
  }

  private void layer(int k) throws Exception {
    Layer layer = engine.layers().get(k);
    GraphBlock edges = layerEdges[k];
    int n = graph.numNodes();
    DenseMatrix msg = new DenseMatrix(graph.numSlots(), layer.messageWidth());
    DenseMatrix self = layer.selfWidth() > 0 ? new DenseMatrix(n, layer.selfWidth()) : null;
    DenseMatrix input = h;
    long t0 = System.nanoTime();
    if (k == 0 && fused) {
      RowRanges.parallel(n, 256, (from, to) -> layer.completeTransform(graph, input, from, to, msg, self));
    } else {
      RowRanges.parallel(n, 256, (from, to) -> layer.transform(graph, input, from, to, msg, self));
    }
    h = null;
    long t1 = System.nanoTime();
    DenseMatrix out = new DenseMatrix(n, layer.outWidth());
    HaloExchange exchange = new HaloExchange(k, edges, msg, sendRows[k], recvSlots[k], spec.chunkRows());
    Background sender = new Background("halo-send-" + index, () -> exchange.sendAll(mesh, index));
    if (spec.pipelining()) {
      exchange.receiveAndAggregate(mesh, sender, rows -> aggregate(layer, edges, msg, self, rows, out));
    } else {
      exchange.receiveAll(mesh, sender);
      RowRanges.parallel(n, 256, (from, to) -> layer.aggregate(edges, msg, self, from, to, out));
    }
    sender.join();
    h = out;
    stats.add("transformSeconds", (t1 - t0) / 1e9);
    stats.add("exchangeAggregateSeconds", (System.nanoTime() - t1) / 1e9);
  }

  /** Aggregates a list of ready rows, contiguous runs at a time, in parallel. */
  private static void aggregate(Layer layer, GraphBlock edges, DenseMatrix msg, DenseMatrix self, int[] rows,
      DenseMatrix out) {
    RowRanges.parallel(rows.length, 128, (from, to) -> {
      int p = from;
      while (p < to) {
        int q = p + 1;
        while (q < to && rows[q] == rows[q - 1] + 1) {
          q++;
        }
        layer.aggregate(edges, msg, self, rows[p], rows[q - 1] + 1, out);
        p = q;
      }
    });
  }

  /**
   * Writes this worker's rows as part files, several in parallel (encoding dominates writing): parts
   * {@code index * PARTS_PER_WORKER + t}, so part numbers never collide between workers.
   */
  private void write() throws Exception {
    RowNormalization.applyOutput(model.spec().outputNormalize(), h);
    boolean predict = model.spec().predict();
    int[] pred = predict ? LayerwiseInference.predictions(h) : null;
    long[] ids = graph.nodeIds();
    int parts = Math.max(1, Math.min(PARTS_PER_WORKER, Math.min(spec.threads(), (ids.length + 65535) / 65536)));
    List<Background> writers = new ArrayList<>();
    for (int t = 0; t < parts; t++) {
      int from = (int) ((long) ids.length * t / parts);
      int to = (int) ((long) ids.length * (t + 1) / parts);
      Path file = new Path(spec.workDir(), OutputCommit.partName(index * PARTS_PER_WORKER + t,
          spec.outputFormat()));
      writers.add(new Background("write-" + index + "-" + t, () -> {
        try (EmbeddingWriter w = EmbeddingWriter.create(conf, file, spec.outputFormat(), h.cols(), predict)) {
          for (int r = from; r < to; r++) {
            w.write(ids[r], h.data(), h.offset(r), predict ? pred[r] : -1);
          }
        }
      }));
    }
    for (Background w : writers) {
      w.join();
    }
  }

  /** Per-worker figures reported to the driver at exit. */
  static final class WorkerStats {
    private final Map<String, Double> values = new LinkedHashMap<>();

    synchronized void put(String key, double v) {
      values.put(key, v);
    }

    synchronized void add(String key, double v) {
      values.merge(key, v, Double::sum);
    }

    void phase(String name, double seconds) {
      put("t." + name, seconds);
    }

    synchronized String summary(WorkerMesh mesh) {
      long[] bytes = mesh.bytes();
      values.put("bytesSent", (double) bytes[0]);
      values.put("bytesReceived", (double) bytes[1]);
      long peak = 0;
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
          peak += pool.getPeakUsage().getUsed();
        }
      }
      values.put("peakHeapBytes", (double) peak);
      StringBuilder sb = new StringBuilder();
      values.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
      return sb.toString();
    }
  }
}
