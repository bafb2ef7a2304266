package org.yarngnn.partition;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.EdgeTable;
import org.yarngnn.io.NodeTable;

/**
 * In-memory construction of P partitions: the nodes table is read and ownership chosen (ranges for dense ids,
 * hash otherwise), then the edge files are read in parallel and each edge routed to its destination's owner as
 * (destination local index, source id rank): 8 bytes an edge, 12 weighted. Each partition's block is then built
 * by {@link PartitionBlockBuilder#buildFromRanks} (partitions in parallel). Transient peak besides the finished
 * CSR: the routed edges plus the CSR builder's 4 bytes an edge (8 weighted), and a second copy of the feature
 * rows while they are split by owner.
 */
public final class PartitionBuilder {
  private static final int CHUNK = 4096;

  private PartitionBuilder() {}

  /** The partitions and the build's statistics. */
  public record Result(List<GraphPartition> partitions, PartitioningStats stats) {}

  public static Result build(EdgeTable edges, NodeTable nodes, int parts, GraphBuildOptions options) {
    if (parts < 1) {
      throw new IllegalArgumentException("partitions must be >= 1, got " + parts);
    }
    long t0 = System.nanoTime();
    NodeRows rows = NodeRows.read(nodes);
    boolean weighted = edges.weighted();
    EdgeBuffer[] routed;
    RankLayout layout;
    if (options.missingFeatures() == MissingFeatures.ZERO) {
      // Unknown endpoints join the shared index as they are met, so read in one thread, then route.
      BufferCollector c = new BufferCollector(rows.index, options.undirected(), rows, weighted);
      edges.read(c);
      layout = RankLayout.of(rows, options.ownership(), parts);
      routed = newBuffers(parts, weighted, c.buffer.size / parts);
      Router router = new Router(layout, routed, weighted);
      EdgeBuffer b = c.buffer;
      for (int e = 0; e < b.size; e++) {
        router.route(b.dst[e], b.src[e], b.weight == null ? 1f : b.weight[e]);
      }
      router.flush();
    } else {
      layout = RankLayout.of(rows, options.ownership(), parts);
      long hint = edges.countHint() * (options.undirected() ? 2 : 1);
      routed = newBuffers(parts, weighted, hint / parts + hint / (8L * parts));
      List<RoutingCollector> cs = ParallelEdgeReader.read(edges, options.threads(),
          f -> new RoutingCollector(rows.index, options.undirected(), new Router(layout, routed, weighted)));
      for (RoutingCollector c : cs) {
        c.router.flush();
      }
    }
    long t1 = System.nanoTime();
    List<GraphPartition> out = buildAll(layout, rows, routed, options.threads());
    long t2 = System.nanoTime();
    List<PartitionStats> stats = new ArrayList<>();
    for (GraphPartition g : out) {
      stats.add(g.stats());
    }
    return new Result(out, new PartitioningStats(layout.ownership, stats, (t1 - t0) / 1e9, (t2 - t1) / 1e9));
  }

  private static EdgeBuffer[] newBuffers(int parts, boolean weighted, long each) {
    EdgeBuffer[] b = new EdgeBuffer[parts];
    for (int p = 0; p < parts; p++) {
      b[p] = new EdgeBuffer((int) Math.min(Integer.MAX_VALUE - 16, Math.max(1 << 12, each)), weighted);
    }
    return b;
  }

  private static List<GraphPartition> buildAll(RankLayout layout, NodeRows rows, EdgeBuffer[] routed,
      int threads) {
    int parts = routed.length;
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, parts)), r -> {
      Thread t = new Thread(r, "partition-builder");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<GraphPartition>> fs = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        int part = p;
        fs.add(pool.submit(() -> buildOne(layout, rows, routed, part)));
      }
      List<GraphPartition> out = new ArrayList<>();
      for (Future<GraphPartition> f : fs) {
        out.add(f.get());
      }
      return out;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      if (e.getCause() instanceof Error) {
        throw (Error) e.getCause();
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building partitions", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private static GraphPartition buildOne(RankLayout layout, NodeRows rows, EdgeBuffer[] routed, int p) {
    EdgeBuffer b = routed[p];
    GraphBlock block = PartitionBlockBuilder.buildFromRanks(layout, p, b.dst, b.src, b.weight, b.size);
    routed[p] = null;
    int[] ranks = layout.ranksOf[p];
    int width = rows.features.width();
    DenseMatrix features = new DenseMatrix(ranks.length, width);
    int[] allLabels = rows.rawLabels();
    byte[] allSplits = rows.rawSplits();
    int[] labels = allLabels == null ? null : new int[ranks.length];
    byte[] splits = allSplits == null ? null : new byte[ranks.length];
    for (int i = 0; i < ranks.length; i++) {
      int g = layout.index(ranks[i]);
      rows.features.copyRow(g, features.data(), i * width);
      if (labels != null) {
        labels[i] = allLabels[g];
      }
      if (splits != null) {
        splits[i] = allSplits[g];
      }
    }
    return new GraphPartition(p, routed.length, layout.ownership, block, features, labels, splits,
        PartitionStats.of(p, block));
  }

  /**
   * Routes resolved edges to their destination owner's buffer through small per-reader chunks, so reader
   * threads touch the shared buffers once per chunk.
   */
  private static final class Router {
    private final RankLayout layout;
    private final EdgeBuffer[] shared;
    private final EdgeBuffer[] chunks;

    Router(RankLayout layout, EdgeBuffer[] shared, boolean weighted) {
      this.layout = layout;
      this.shared = shared;
      this.chunks = new EdgeBuffer[shared.length];
      for (int p = 0; p < shared.length; p++) {
        chunks[p] = new EdgeBuffer(CHUNK, weighted);
      }
    }

    void route(int d, int s, float w) {
      int rd = layout.rank(d);
      int p = layout.ownerOfRank[rd];
      EdgeBuffer c = chunks[p];
      c.add(layout.localOfRank[rd], layout.rank(s), w);
      if (c.full()) {
        shared[p].append(c.dst, c.src, c.weight, c.size);
        c.clear();
      }
    }

    void flush() {
      for (int p = 0; p < chunks.length; p++) {
        EdgeBuffer c = chunks[p];
        shared[p].append(c.dst, c.src, c.weight, c.size);
        c.clear();
      }
    }
  }

  private static final class RoutingCollector extends EdgeCollector {
    final Router router;

    RoutingCollector(NodeIndex index, boolean undirected, Router router) {
      super(index, undirected, null);
      this.router = router;
    }

    @Override
    void accept(int d, int s, float weight) {
      router.route(d, s, weight);
    }
  }
}
