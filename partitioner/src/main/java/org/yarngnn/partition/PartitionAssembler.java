package org.yarngnn.partition;

import java.util.Arrays;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.NodeSplit;

/**
 * The partition job's reduce logic, free of Hadoop: consumes one partition's records in shuffle order (nodes by
 * ascending id, then reference blocks, then edge blocks) and assembles the partition, or keeps the first
 * bad-input finding (duplicate id, dangling endpoint) in table order: findings are compared by (file, row,
 * column), so the order blocks arrive in does not matter. Edges are held as (int32 local destination, int64
 * source id, float32 weight when weighted) until {@link PartitionBlockBuilder} builds the block, whose CSR
 * depends only on the multiset of edges.
 */
public final class PartitionAssembler {
  private final int partition;
  private final Ownership ownership;
  private final boolean weighted;
  private final boolean zeroMissing;
  private final FeatureRows features;
  private final float[] featureRow;
  /** Table node rows as they arrive, each id once (its first arrival), with the (file, row) of its first row. */
  private long[] ids = new long[1024];
  private int[] labels;
  private byte[] splits;
  private int[] nodeFile = new int[1024];
  private long[] nodeRow = new long[1024];
  private int tableNodes;
  private boolean ascending = true;
  /** Id to arrival index, built as the rows arrive (duplicates are found here). */
  private NodeIndex arrived = new NodeIndex(1024);
  /** After the node phase: final ids ascending (table nodes merged with added missing ones) and their rows. */
  private long[] finalIds;
  /** Arrival index of each final id, -1 for an added missing node; null while that is the identity. */
  private int[] tableRowOf;
  private long[] missing = new long[16];
  private int numMissing;
  private NodeIndex index;
  private int[] dst = new int[1024];
  private long[] src = new long[1024];
  private float[] w;
  private int edges;
  private int phase = PartitionKey.NODE;
  private InputError error;

  public PartitionAssembler(int partition, Ownership ownership, int width, boolean weighted, boolean hasLabels,
      boolean hasSplits, MissingFeatures missing) {
    this.partition = partition;
    this.ownership = ownership;
    this.weighted = weighted;
    this.zeroMissing = missing == MissingFeatures.ZERO;
    this.features = new FeatureRows(width);
    this.featureRow = new float[width];
    this.labels = hasLabels ? new int[ids.length] : null;
    this.splits = hasSplits ? new byte[ids.length] : null;
    this.w = weighted ? new float[dst.length] : null;
  }

  /** Feeds one record (in shuffle order). */
  public void accept(GraphRecord r) {
    if (r.kind < phase) {
      throw new IllegalStateException("record of kind " + r.kind + " after kind " + phase);
    }
    if (r.kind > PartitionKey.NODE && finalIds == null) {
      endNodes();
    }
    if (r.kind == PartitionKey.EDGE && index == null) {
      endReferences();
    }
    phase = r.kind;
    switch (r.kind) {
      case PartitionKey.NODE: nodes(r.nodes); break;
      case PartitionKey.REF: references(r.refs); break;
      default: edges(r.edges); break;
    }
  }

  private void nodes(NodeBlock b) {
    int width = features.width();
    for (int i = 0; i < b.count; i++) {
      long id = b.ids[i];
      int k = arrived.add(id);
      if (k < 0) {
        duplicate(-1 - k, id, b.file, b.row(i));
        continue;
      }
      if (k == ids.length) {
        int cap = ids.length * 2;
        ids = Arrays.copyOf(ids, cap);
        nodeFile = Arrays.copyOf(nodeFile, cap);
        nodeRow = Arrays.copyOf(nodeRow, cap);
        labels = labels == null ? null : Arrays.copyOf(labels, cap);
        splits = splits == null ? null : Arrays.copyOf(splits, cap);
      }
      ascending &= k == 0 || ids[k - 1] < id;
      ids[k] = id;
      nodeFile[k] = b.file;
      nodeRow[k] = b.row(i);
      if (labels != null) {
        labels[k] = b.label(i);
      }
      if (splits != null) {
        splits[k] = b.split(i);
      }
      System.arraycopy(b.features, i * width, featureRow, 0, width);
      features.add(featureRow);
      tableNodes++;
    }
  }

  /**
   * Another row of the id first kept at arrival index {@code k}. Of all rows with one id, the second in table
   * order is the offending one: each repeat offers the later of itself and the earliest row seen so far, and the
   * smallest offer is that second row, whatever order the blocks arrive in.
   */
  private void duplicate(int k, long id, int file, long row) {
    boolean earlier = file < nodeFile[k] || (file == nodeFile[k] && row < nodeRow[k]);
    InputError offer = earlier
        ? new InputError(InputError.NODES, nodeFile[k], nodeRow[k], 0, "duplicate node id " + id, false)
        : new InputError(InputError.NODES, file, row, 0, "duplicate node id " + id, false);
    if (earlier) {
      nodeFile[k] = file;
      nodeRow[k] = row;
    }
    error = InputError.min(error, offer);
  }

  private void endNodes() {
    finalIds = Arrays.copyOf(ids, tableNodes);
    if (ascending) {
      // Arrival order is id order (one sorted node file, say): the arrival index is already the local index.
      index = arrived;
    } else {
      Arrays.sort(finalIds);
      tableRowOf = new int[tableNodes];
      for (int k = 0; k < tableNodes; k++) {
        tableRowOf[k] = arrived.get(finalIds[k]);
      }
      buildIndex();
    }
    arrived = null;
    nodeFile = null;
    nodeRow = null;
    if (zeroMissing) {
      index = null;
    }
  }

  private void buildIndex() {
    index = new NodeIndex(finalIds.length);
    for (long id : finalIds) {
      index.add(id);
    }
  }

  private void references(RefBlock b) {
    if (zeroMissing) {
      for (int i = 0; i < b.count; i++) {
        long id = b.ids[i];
        if (Arrays.binarySearch(finalIds, id) < 0) {
          if (numMissing == missing.length) {
            compactMissing();
          }
          missing[numMissing++] = id;
        }
      }
      return;
    }
    for (int i = 0; i < b.count; i++) {
      if (index.get(b.ids[i]) < 0) {
        danglingAt(b, i, b.column(i), b.ids[i]);
      }
    }
  }

  /**
   * Sorts and deduplicates the missing ids (blocks repeat them), and doubles their array when that leaves it more
   * than half full, so repeats never take more than twice the distinct ids' memory.
   */
  private void compactMissing() {
    Arrays.sort(missing, 0, numMissing);
    int distinct = 0;
    for (int k = 0; k < numMissing; k++) {
      if (distinct == 0 || missing[distinct - 1] != missing[k]) {
        missing[distinct++] = missing[k];
      }
    }
    numMissing = distinct;
    if (numMissing * 2 > missing.length) {
      missing = Arrays.copyOf(missing, missing.length * 2);
    }
  }

  /** Merges the added missing ids into the ascending node order. */
  private void endReferences() {
    if (zeroMissing) {
      compactMissing();
      int n = tableNodes + numMissing;
      long[] merged = new long[n];
      int i = 0;
      int j = 0;
      int[] rowOf = new int[n];
      for (int k = 0; k < n; k++) {
        if (j == numMissing || (i < tableNodes && finalIds[i] < missing[j])) {
          rowOf[k] = tableRowOf == null ? i : tableRowOf[i];
          merged[k] = finalIds[i++];
        } else {
          rowOf[k] = -1;
          merged[k] = missing[j++];
        }
      }
      finalIds = merged;
      tableRowOf = rowOf;
      buildIndex();
    } else if (index == null) {
      buildIndex();
    }
  }

  private void edges(EdgeBlock b) {
    ensureEdgeCapacity(b.count);
    for (int i = 0; i < b.count; i++) {
      int d = index.get(b.to[i]);
      if (d < 0) {
        danglingAt(b, i, b.reversed(i) ? 0 : 1, b.to[i]);
        continue;
      }
      long from = b.from[i];
      if (ownership.owner(from) == partition && index.get(from) < 0) {
        danglingAt(b, i, b.reversed(i) ? 1 : 0, from);
        continue;
      }
      dst[edges] = d;
      src[edges] = from;
      if (w != null) {
        w[edges] = b.weight(i);
      }
      edges++;
    }
    if (error != null) {
      // Nothing is built from a partition with bad input; only smaller findings matter from here on.
      edges = 0;
    }
  }

  private void ensureEdgeCapacity(int more) {
    if ((long) edges + more <= dst.length) {
      return;
    }
    long need = (long) edges + more;
    if (need > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("more than " + (Integer.MAX_VALUE - 16) + " edges in partition "
          + partition + "; use more partitions");
    }
    int cap = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, dst.length * 3L / 2));
    dst = Arrays.copyOf(dst, cap);
    src = Arrays.copyOf(src, cap);
    w = w == null ? null : Arrays.copyOf(w, cap);
  }

  private void danglingAt(RowBlock b, int i, int column, long id) {
    InputError here = new InputError(InputError.EDGES, b.file, b.row(i), column,
        EdgeCollector.danglingMessage(column == 0 ? "src" : "dst", id), false);
    error = InputError.min(error, here);
  }

  /** The first bad-input finding, or null. */
  public InputError error() {
    return error;
  }

  /** The assembled partition; call only when {@link #error()} is null. */
  public GraphPartition finish() {
    if (finalIds == null) {
      endNodes();
    }
    if (index == null) {
      endReferences();
    }
    if (error != null) {
      throw new IllegalStateException("partition " + partition + " has bad input: " + error.message());
    }
    int n = finalIds.length;
    GraphBlock block = PartitionBlockBuilder.build(finalIds, index, dst, src, weighted ? w : null, edges);
    dst = null;
    src = null;
    w = null;
    DenseMatrix f = new DenseMatrix(n, features.width());
    int[] l = labels == null ? null : new int[n];
    byte[] s = splits == null ? null : new byte[n];
    for (int k = 0; k < n; k++) {
      int row = tableRowOf == null ? k : tableRowOf[k];
      if (row >= 0) {
        features.copyRow(row, f.data(), k * features.width());
      }
      if (l != null) {
        l[k] = row >= 0 ? labels[row] : -1;
      }
      if (s != null) {
        s[k] = row >= 0 ? splits[row] : NodeSplit.NONE;
      }
    }
    return new GraphPartition(partition, ownership.parts(), ownership, block, f, l, s,
        PartitionStats.of(partition, block));
  }
}
