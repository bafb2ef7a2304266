package org.yarngnn.partition;

import java.util.Arrays;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.NodeSplit;

/**
 * The partition job's reduce logic, free of Hadoop: consumes one partition's records in shuffle order (nodes by
 * ascending id, then references by id, then edges) and assembles the partition, or keeps the first bad-input
 * finding (duplicate id, dangling endpoint) in table order. Edges are held as (int32 local destination, int64
 * source id, float32 weight when weighted) until {@link PartitionBlockBuilder} builds the block.
 */
final class PartitionAssembler {
  private final int partition;
  private final Ownership ownership;
  private final boolean weighted;
  private final boolean zeroMissing;
  private final FeatureRows features;
  private long[] ids = new long[1024];
  private int[] labels;
  private byte[] splits;
  private int tableNodes;
  /** After the node phase: final ids (table nodes merged with added missing ones) and their table rows. */
  private long[] finalIds;
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
  // The run of equal ids in the node phase: its smallest and second smallest (file, row).
  private long runId;
  private InputError runFirst;
  private InputError runSecond;

  PartitionAssembler(int partition, Ownership ownership, int width, boolean weighted, boolean hasLabels,
      boolean hasSplits, MissingFeatures missing) {
    this.partition = partition;
    this.ownership = ownership;
    this.weighted = weighted;
    this.zeroMissing = missing == MissingFeatures.ZERO;
    this.features = new FeatureRows(width);
    this.labels = hasLabels ? new int[ids.length] : null;
    this.splits = hasSplits ? new byte[ids.length] : null;
    this.w = weighted ? new float[dst.length] : null;
  }

  /** Feeds one record (in shuffle order). */
  void accept(GraphRecord r) {
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
      case PartitionKey.NODE: node(r); break;
      case PartitionKey.REF: reference(r); break;
      default: edge(r); break;
    }
  }

  private void node(GraphRecord r) {
    InputError here = new InputError(InputError.NODES, r.file, r.row, 0, "duplicate node id " + r.id, false);
    if (tableNodes > 0 && r.id == runId) {
      // Several rows with one id: the second in table order is the first offending row.
      if (here.compareTo(runFirst) < 0) {
        runSecond = runFirst;
        runFirst = here;
      } else {
        runSecond = InputError.min(runSecond, here);
      }
      return;
    }
    closeRun();
    runId = r.id;
    runFirst = here;
    if (tableNodes == ids.length) {
      int cap = ids.length * 2;
      ids = Arrays.copyOf(ids, cap);
      labels = labels == null ? null : Arrays.copyOf(labels, cap);
      splits = splits == null ? null : Arrays.copyOf(splits, cap);
    }
    ids[tableNodes] = r.id;
    if (labels != null) {
      labels[tableNodes] = r.label;
    }
    if (splits != null) {
      splits[tableNodes] = r.split;
    }
    features.add(r.features);
    tableNodes++;
  }

  private void closeRun() {
    if (runSecond != null) {
      error = InputError.min(error, runSecond);
    }
    runSecond = null;
  }

  private void endNodes() {
    closeRun();
    finalIds = Arrays.copyOf(ids, tableNodes);
    if (!zeroMissing) {
      index = null;
      buildIndex();
    }
  }

  private void buildIndex() {
    index = new NodeIndex(finalIds.length);
    for (long id : finalIds) {
      index.add(id);
    }
  }

  private void reference(GraphRecord r) {
    if (zeroMissing) {
      // References arrive in ascending id order: a missing id not yet recorded is new.
      if (Arrays.binarySearch(finalIds, r.id) < 0 && (numMissing == 0 || missing[numMissing - 1] != r.id)) {
        if (numMissing == missing.length) {
          missing = Arrays.copyOf(missing, numMissing * 2);
        }
        missing[numMissing++] = r.id;
      }
      return;
    }
    if (index.get(r.id) < 0) {
      danglingAt(r, r.column, r.id);
    }
  }

  /** Merges the added missing ids into the ascending node order. */
  private void endReferences() {
    if (zeroMissing) {
      int n = tableNodes + numMissing;
      long[] merged = new long[n];
      tableRowOf = new int[n];
      int i = 0;
      int j = 0;
      for (int k = 0; k < n; k++) {
        if (j == numMissing || (i < tableNodes && finalIds[i] < missing[j])) {
          tableRowOf[k] = i;
          merged[k] = finalIds[i++];
        } else {
          tableRowOf[k] = -1;
          merged[k] = missing[j++];
        }
      }
      finalIds = merged;
      buildIndex();
    } else if (index == null) {
      buildIndex();
    }
  }

  private void edge(GraphRecord r) {
    boolean reversed = r.column == 1;
    int d = index.get(r.id);
    if (d < 0) {
      danglingAt(r, reversed ? 0 : 1, r.id);
      return;
    }
    if (ownership.owner(r.from) == partition && index.get(r.from) < 0) {
      danglingAt(r, reversed ? 1 : 0, r.from);
      return;
    }
    if (error != null) {
      return;
    }
    if (edges == dst.length) {
      int cap = (int) Math.min(Integer.MAX_VALUE - 16, dst.length * 3L / 2);
      if (cap == edges) {
        throw new IllegalStateException("more than " + edges + " edges in partition " + partition
            + "; use more partitions");
      }
      dst = Arrays.copyOf(dst, cap);
      src = Arrays.copyOf(src, cap);
      w = w == null ? null : Arrays.copyOf(w, cap);
    }
    dst[edges] = d;
    src[edges] = r.from;
    if (w != null) {
      w[edges] = r.weight;
    }
    edges++;
  }

  private void danglingAt(GraphRecord r, int column, long id) {
    error = InputError.min(error, new InputError(InputError.EDGES, r.file, r.row, column,
        EdgeCollector.danglingMessage(column == 0 ? "src" : "dst", id), false));
  }

  /** The first bad-input finding, or null. */
  InputError error() {
    if (finalIds == null) {
      closeRun();
    }
    return error;
  }

  /** The assembled partition; call only when {@link #error()} is null. */
  GraphPartition finish() {
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
