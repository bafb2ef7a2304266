package org.yarngnn.partition;

import java.util.Arrays;
import java.util.List;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.CsrBuilder;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.RowRanges;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.NodeTable;

/**
 * Builds a whole graph in one JVM: the nodes table gives the nodes (duplicates refused), the edge files are read
 * in parallel into one set of primitive arrays (endpoints checked against the nodes), and the in-edge CSR is built by
 * {@link CsrBuilder}'s counting sorts with rows ordered by source id. {@link #buildPartitions} builds the same
 * graph as P owner partitions.
 */
public final class GraphBuilder {
  private GraphBuilder() {}

  /** The whole graph; nodes in nodes-table order (then endpoints added under --missing-features zero). */
  public static LocalGraph build(EdgeTable edges, NodeTable nodes, GraphBuildOptions options) {
    long t0 = System.nanoTime();
    NodeRows rows = NodeRows.read(nodes);
    EdgeBuffer buffer = readEdges(edges, rows, options);
    long t1 = System.nanoTime();

    int n = rows.size();
    long[] ids = rows.ids();
    int[] rank = rows.index.isIdentity() ? null : idRanks(ids);
    Csr csr = CsrBuilder.build(n, n, buffer.dst, buffer.src, buffer.weight, buffer.size, rank);
    GraphBlock block = new GraphBlock(ids, new long[0], csr);
    long t2 = System.nanoTime();

    int maxDeg = 0;
    long isolated = 0;
    boolean[] hasOut = new boolean[n];
    int[] col = csr.colIdx();
    // Threads only ever store true, and byte elements are written without tearing: no lost marks.
    RowRanges.parallel((int) csr.numEdges(), 1 << 16, (from, to) -> {
      for (int e = from; e < to; e++) {
        hasOut[col[e]] = true;
      }
    });
    for (int r = 0; r < n; r++) {
      int d = csr.degree(r);
      maxDeg = Math.max(maxDeg, d);
      if (d == 0 && !hasOut[r]) {
        isolated++;
      }
    }
    GraphStats stats = new GraphStats(n, csr.numEdges(), isolated, maxDeg, csr.sizeInBytes(),
        (t1 - t0) / 1e9, (t2 - t1) / 1e9);
    return new LocalGraph(block, rows.features.toMatrix(), rows.labels(), rows.splits(), stats);
  }

  /**
   * The graph as {@code parts} owner partitions (see {@link PartitionBuilder}); partition p is element p.
   * Statistics are in each partition's {@code stats()}; {@link PartitionBuilder#build} also returns the totals.
   */
  public static List<GraphPartition> buildPartitions(EdgeTable edges, NodeTable nodes, int parts,
      GraphBuildOptions options) {
    return PartitionBuilder.build(edges, nodes, parts, options).partitions();
  }

  /** rank[i] = position of ids[i] in ascending id order. */
  static int[] idRanks(long[] ids) {
    long[] sorted = ids.clone();
    Arrays.parallelSort(sorted);
    int[] rank = new int[ids.length];
    Arrays.parallelSetAll(rank, i -> Arrays.binarySearch(sorted, ids[i]));
    return rank;
  }

  /**
   * Edges as global node indices, read on several threads into one buffer presized from the table's row count;
   * unknown endpoints become nodes (in one thread, in table order) under --missing-features zero. The order of
   * the edges in the buffer depends on thread timing; the CSR built from them does not.
   */
  private static EdgeBuffer readEdges(EdgeTable edges, NodeRows rows, GraphBuildOptions options) {
    boolean weighted = edges.weighted();
    if (options.missingFeatures() == MissingFeatures.ZERO) {
      BufferCollector c = new BufferCollector(rows.index, options.undirected(), rows, weighted);
      edges.read(c);
      return c.buffer;
    }
    long hint = edges.countHint() * (options.undirected() ? 2 : 1);
    EdgeBuffer all = new EdgeBuffer((int) Math.min(Integer.MAX_VALUE - 16, hint), weighted);
    for (BufferCollector c : ParallelEdgeReader.read(edges, options.threads(),
        f -> BufferCollector.into(all, rows.index, options.undirected()))) {
      c.flush();
    }
    return all;
  }
}
