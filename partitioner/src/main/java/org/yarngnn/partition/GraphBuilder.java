package org.yarngnn.partition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.CsrBuilder;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.io.EdgeSink;
import org.yarngnn.io.EdgeTable;
import org.yarngnn.io.InputException;
import org.yarngnn.io.NodeSink;
import org.yarngnn.io.NodeSplit;
import org.yarngnn.io.NodeTable;

/**
 * Builds a whole graph in one JVM: the nodes table gives the nodes (duplicates refused), the edge files are read
 * in parallel into primitive arrays (endpoints checked against the nodes), and the in-edge CSR is built by
 * {@link CsrBuilder}'s counting sorts with rows ordered by source id.
 */
public final class GraphBuilder {
  private GraphBuilder() {}

  public static LocalGraph build(EdgeTable edges, NodeTable nodes, GraphBuildOptions options) {
    long t0 = System.nanoTime();
    NodeRows rows = readNodes(nodes);
    EdgeBuffer buffer = options.missingFeatures() == MissingFeatures.ZERO
        ? readEdgesAddingMissing(edges, rows, options)
        : readEdgesParallel(edges, rows.index, options);
    long t1 = System.nanoTime();

    int n = rows.index.size();
    long[] ids = rows.ids();
    int[] rank = rows.index.isIdentity() ? null : idRanks(ids);
    Csr csr = CsrBuilder.build(n, n, buffer.dst, buffer.src, buffer.weight, buffer.size, rank);
    GraphBlock block = new GraphBlock(ids, new long[0], csr);
    long t2 = System.nanoTime();

    int maxDeg = 0;
    long isolated = 0;
    boolean[] hasOut = new boolean[n];
    int[] col = csr.colIdx();
    for (int e = 0; e < csr.numEdges(); e++) {
      hasOut[col[e]] = true;
    }
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

  /** rank[i] = position of ids[i] in ascending id order. */
  static int[] idRanks(long[] ids) {
    long[] sorted = ids.clone();
    Arrays.parallelSort(sorted);
    int[] rank = new int[ids.length];
    Arrays.parallelSetAll(rank, i -> Arrays.binarySearch(sorted, ids[i]));
    return rank;
  }

  private static NodeRows readNodes(NodeTable nodes) {
    NodeRows rows = new NodeRows(nodes.featureWidth(), nodes.hasLabels(), nodes.hasSplits());
    nodes.read(rows);
    return rows;
  }

  private static EdgeBuffer readEdgesParallel(EdgeTable edges, NodeIndex index, GraphBuildOptions options) {
    List<org.apache.hadoop.fs.Path> files = edges.files();
    int threads = Math.max(1, Math.min(options.threads(), files.size()));
    if (threads == 1) {
      EdgeCollector c = new EdgeCollector(index, edges.weighted(), options.undirected(), null);
      edges.read(c);
      return c.buffer;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<EdgeBuffer>> parts = new ArrayList<>();
      for (int f = 0; f < files.size(); f++) {
        int file = f;
        parts.add(pool.submit(() -> {
          EdgeCollector c = new EdgeCollector(index, edges.weighted(), options.undirected(), null);
          edges.readFile(file, c);
          return c.buffer;
        }));
      }
      EdgeBuffer all = null;
      for (Future<EdgeBuffer> part : parts) {
        EdgeBuffer b = part.get();
        if (all == null) {
          all = b;
        } else {
          all.addAll(b);
        }
      }
      return all;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading edges", e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Single-threaded, since unknown endpoints become new nodes of the shared index. */
  private static EdgeBuffer readEdgesAddingMissing(EdgeTable edges, NodeRows rows, GraphBuildOptions options) {
    EdgeCollector c = new EdgeCollector(rows.index, edges.weighted(), options.undirected(), rows);
    edges.read(c);
    return c.buffer;
  }

  /** Turns edge rows into local indices, refusing (or adding) endpoints without a node row. */
  private static final class EdgeCollector implements EdgeSink {
    private final NodeIndex index;
    private final boolean undirected;
    private final NodeRows addMissing;
    final EdgeBuffer buffer;
    private String file;

    EdgeCollector(NodeIndex index, boolean weighted, boolean undirected, NodeRows addMissing) {
      this.index = index;
      this.undirected = undirected;
      this.addMissing = addMissing;
      this.buffer = new EdgeBuffer(1 << 16, weighted);
    }

    @Override
    public void beginFile(String file) {
      this.file = file;
    }

    @Override
    public void edge(long src, long dst, float weight, long row) {
      int s = resolve(src, row, "src");
      int d = resolve(dst, row, "dst");
      buffer.add(d, s, weight);
      if (undirected && s != d) {
        buffer.add(s, d, weight);
      }
    }

    private int resolve(long id, long row, String column) {
      int i = index.get(id);
      if (i >= 0) {
        return i;
      }
      if (addMissing != null) {
        return addMissing.addMissing(id);
      }
      throw InputException.at(file, row, column + " " + id
          + " has no row in the nodes table (use --missing-features zero to give it zero features)");
    }
  }

  /** Collects the nodes table: index, features, labels and splits in table order. */
  private static final class NodeRows implements NodeSink {
    final NodeIndex index = new NodeIndex(1 << 16);
    final FeatureRows features;
    private long[] ids = new long[1 << 12];
    private int[] labels;
    private byte[] splits;
    private String file;

    NodeRows(int width, boolean hasLabels, boolean hasSplits) {
      features = new FeatureRows(width);
      labels = hasLabels ? new int[ids.length] : null;
      splits = hasSplits ? new byte[ids.length] : null;
    }

    @Override
    public void beginFile(String file) {
      this.file = file;
    }

    @Override
    public void node(long id, int label, byte split, float[] feats, long row) {
      int i = index.add(id);
      if (i < 0) {
        throw InputException.at(file, row, "duplicate node id " + id);
      }
      append(i, id, label, split);
      features.add(feats);
    }

    int addMissing(long id) {
      int i = index.add(id);
      append(i, id, -1, NodeSplit.NONE);
      features.addZero();
      return i;
    }

    private void append(int i, long id, int label, byte split) {
      if (i == ids.length) {
        int cap = ids.length * 2;
        ids = Arrays.copyOf(ids, cap);
        labels = labels == null ? null : Arrays.copyOf(labels, cap);
        splits = splits == null ? null : Arrays.copyOf(splits, cap);
      }
      ids[i] = id;
      if (labels != null) {
        labels[i] = label;
      }
      if (splits != null) {
        splits[i] = split;
      }
    }

    long[] ids() {
      return Arrays.copyOf(ids, index.size());
    }

    int[] labels() {
      return labels == null ? null : Arrays.copyOf(labels, index.size());
    }

    byte[] splits() {
      return splits == null ? null : Arrays.copyOf(splits, index.size());
    }
  }
}
