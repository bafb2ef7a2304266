package org.yarngnn.partition;

import java.util.ArrayList;
import java.util.List;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;

/**
 * In-memory construction of P partitions: the nodes table is read and ownership chosen (ranges for dense ids,
 * hash otherwise), then the edge files are read in parallel and each edge routed to its destination's owner as
 * (destination local index, source id rank): 8 bytes an edge, 12 weighted. Each partition's block is then built
 * by {@link PartitionBlockBuilder#buildFromRanks}, one partition after another, each on every core. Transient
 * peak besides the finished CSR: the routed edges plus the CSR builder's 8 bytes an edge (12 weighted) and its
 * per-thread copy of the largest destination bucket, and a second copy of the feature rows while they are
 * split by owner.
 */
public final class PartitionBuilder {
  private static final int CHUNK = 4096;

  private PartitionBuilder() {}

  /** The partitions and the build's statistics. */
  public record Result(List<GraphPartition> partitions, PartitionedGraphStats stats) {}

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
    List<GraphPartition> out = buildAll(layout, rows, routed);
    long t2 = System.nanoTime();
    List<PartitionStats> stats = new ArrayList<>();
    for (GraphPartition g : out) {
      stats.add(g.stats());
    }
    return new Result(out, new PartitionedGraphStats(layout.ownership, stats, (t1 - t0) / 1e9, (t2 - t1) / 1e9));
  }

  private static EdgeBuffer[] newBuffers(int parts, boolean weighted, long each) {
    EdgeBuffer[] b = new EdgeBuffer[parts];
    for (int p = 0; p < parts; p++) {
      b[p] = new EdgeBuffer((int) Math.min(Integer.MAX_VALUE - 16, Math.max(1 << 12, each)), weighted);
    }
    return b;
  }

  /**
   * One partition after another, each built with every core (the passes inside run on the common fork-join
   * pool): partitions are as skewed as the graph's in-degrees, so this balances better than a thread per
   * partition, and each partition's routed edges are released as soon as its block is built.
   */
  private static List<GraphPartition> buildAll(RankLayout layout, NodeRows rows, EdgeBuffer[] routed) {
    List<GraphPartition> out = new ArrayList<>();
    for (int p = 0; p < routed.length; p++) {
      out.add(buildOne(layout, rows, routed, p));
    }
    return out;
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
    RowRanges.parallel(ranks.length, 1 << 12, (from, to) -> {
      for (int i = from; i < to; i++) {
        int g = layout.index(ranks[i]);
        rows.features.copyRow(g, features.data(), i * width);
        if (labels != null) {
          labels[i] = allLabels[g];
        }
        if (splits != null) {
          splits[i] = allSplits[g];
        }
      }
    });
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
    /** One partition: every node is local and its local index is its rank. */
    private final boolean single;

    Router(RankLayout layout, EdgeBuffer[] shared, boolean weighted) {
      this.layout = layout;
      this.single = shared.length == 1;
      this.shared = shared;
      this.chunks = new EdgeBuffer[shared.length];
      for (int p = 0; p < shared.length; p++) {
        chunks[p] = new EdgeBuffer(CHUNK, weighted);
      }
    }

    void route(int d, int s, float w) {
      int rd = layout.rank(d);
      int p = single ? 0 : layout.ownerOfRank[rd];
      EdgeBuffer c = chunks[p];
      c.add(single ? rd : layout.localOfRank[rd], layout.rank(s), w);
      if (c.full()) {
        shared[p].append(c.dst, c.src, c.weight, c.size);
        c.clear();
      }
    }

    /** Routes a batch; {@code d} and {@code s} are overwritten. */
    void routeAll(int[] d, int[] s, float[] w, int n) {
      if (single) {
        // Local index = rank for both ends: convert in place and append the batch in one go.
        for (int i = 0; i < n; i++) {
          d[i] = layout.rank(d[i]);
          s[i] = layout.rank(s[i]);
        }
        flush();
        shared[0].append(d, s, w, n);
        return;
      }
      for (int i = 0; i < n; i++) {
        route(d[i], s[i], w == null ? 1f : w[i]);
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

    @Override
    void acceptAll(int[] d, int[] s, float[] w, int n) {
      router.routeAll(d, s, w, n);
    }
  }
}
