package org.yarngnn.app.infer;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.partition.NodeIndex;

/**
 * The nodes one worker owns, as they arrive from the readers: index, ids, optional label and split, and one row
 * of {@code width} floats each (raw features, or the first layer's row-local transform when fused). Filled by
 * the worker's consumer thread only; {@link #takeRows} may run on another thread once no node can be added.
 */
final class OwnedNodes {
  private static final int BLOCK_ROWS = 1 << 14;

  /** Replaced once, by {@link #renumberConsecutive}, before any edge is looked up. */
  NodeIndex index = new NodeIndex(1 << 16);
  private final int width;
  private long[] ids = new long[1 << 12];
  private int[] labels = new int[1 << 12];
  private byte[] splits = new byte[1 << 12];
  private float[][] blocks = new float[16][];
  private boolean labelled;
  /**
   * After {@link #renumberConsecutive}: where the row of local index {@code j < storedAt.length} sits in the
   * blocks (rows stay where they arrived until {@link #takeRows} moves them once). Null before.
   */
  private int[] storedAt;

  OwnedNodes(int width) {
    this.width = width;
  }

  int size() {
    return index.size();
  }

  int width() {
    return width;
  }

  void addAll(NodeBlock b, List<Path> files) {
    if (storedAt != null) {
      throw new IllegalStateException("node rows added after renumbering");
    }
    labelled |= b.labels() != null;
    for (int i = 0; i < b.count(); i++) {
      int local = index.add(b.ids()[i]);
      if (local < 0) {
        throw InputException.at(files.get(b.file()).toString(), b.rows()[i], "duplicate node id " + b.ids()[i]);
      }
      append(local, b.ids()[i], b.labels() == null ? -1 : b.labels()[i],
          b.splits() == null ? NodeSplit.NONE : b.splits()[i]);
      System.arraycopy(b.values(), i * width, block(local), (local % BLOCK_ROWS) * width, width);
    }
  }

  /**
   * When the ids are one consecutive run {@code min..min+n-1} that arrived out of order (a range owner's share,
   * routed from several readers), renumbers the local indices in id order: the index then needs no table, so
   * every later lookup (each edge's endpoints, halo requests) is a subtraction instead of a cache miss in a hash
   * table. Rows move to their new places in {@link #takeRows}, which copies them anyway. Returns whether it
   * renumbered.
   */
  boolean renumberConsecutive() {
    int n = size();
    if (n == 0 || storedAt != null) {
      return false;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    boolean inOrder = true;
    for (int i = 0; i < n; i++) {
      min = Math.min(min, ids[i]);
      max = Math.max(max, ids[i]);
      inOrder &= i == 0 || ids[i] == ids[i - 1] + 1;
    }
    // Distinct ids (duplicates were refused) spanning exactly n values are exactly min..max.
    if (inOrder || max - min != n - 1) {
      return false;
    }
    int[] at = new int[n];
    long[] newIds = new long[ids.length];
    int[] newLabels = new int[labels.length];
    byte[] newSplits = new byte[splits.length];
    for (int i = 0; i < n; i++) {
      int j = (int) (ids[i] - min);
      at[j] = i;
      newIds[j] = ids[i];
      newLabels[j] = labels[i];
      newSplits[j] = splits[i];
    }
    NodeIndex renumbered = new NodeIndex(n);
    for (int j = 0; j < n; j++) {
      renumbered.add(newIds[j]);
    }
    ids = newIds;
    labels = newLabels;
    splits = newSplits;
    index = renumbered;
    storedAt = at;
    return true;
  }

  /** Adds a node known only from an edge (--missing-features zero): zero row, no label. */
  int addMissing(long id) {
    int local = index.add(id);
    append(local, id, -1, NodeSplit.NONE);
    block(local);
    return local;
  }

  private float[] block(int local) {
    int b = local / BLOCK_ROWS;
    if (b >= blocks.length) {
      blocks = Arrays.copyOf(blocks, blocks.length * 2);
    }
    if (blocks[b] == null) {
      blocks[b] = new float[BLOCK_ROWS * width];
    }
    return blocks[b];
  }

  private void append(int local, long id, int label, byte split) {
    if (local == ids.length) {
      ids = Arrays.copyOf(ids, local * 2);
      labels = Arrays.copyOf(labels, local * 2);
      splits = Arrays.copyOf(splits, local * 2);
    }
    ids[local] = id;
    labels[local] = label;
    splits[local] = split;
  }

  long[] ids() {
    return Arrays.copyOf(ids, size());
  }

  int[] labels() {
    return labelled ? Arrays.copyOf(labels, size()) : null;
  }

  byte[] splits() {
    return labelled ? Arrays.copyOf(splits, size()) : null;
  }

  /** The rows as one matrix, releasing the blocks. */
  DenseMatrix takeRows() {
    int n = size();
    DenseMatrix m = new DenseMatrix(n, width);
    if (storedAt != null) {
      for (int j = 0; j < storedAt.length; j++) {
        int p = storedAt[j];
        System.arraycopy(blocks[p / BLOCK_ROWS], (p % BLOCK_ROWS) * width, m.data(), j * width, width);
      }
      // Nodes added after renumbering (zero rows) sit at their own index: the matrix is zero there already.
      Arrays.fill(blocks, null);
      return m;
    }
    for (int b = 0; b * BLOCK_ROWS < n; b++) {
      int rows = Math.min(BLOCK_ROWS, n - b * BLOCK_ROWS);
      if (blocks[b] != null) {
        System.arraycopy(blocks[b], 0, m.data(), b * BLOCK_ROWS * width, rows * width);
      }
      blocks[b] = null;
    }
    return m;
  }
}
