package org.yarngnn.app.infer;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.yarngnn.compute.tensor.DenseMatrix;
import org.yarngnn.io.InputException;
import org.yarngnn.io.NodeSplit;
import org.yarngnn.partition.NodeIndex;

/**
 * The nodes one worker owns, as they arrive from the readers: index, ids, optional label and split, and one row
 * of {@code width} floats each (raw features, or the first layer's row-local transform when fused). Filled by
 * the worker's consumer thread only.
 */
final class OwnedNodes {
  private static final int BLOCK_ROWS = 1 << 14;

  final NodeIndex index = new NodeIndex(1 << 16);
  private final int width;
  private long[] ids = new long[1 << 12];
  private int[] labels = new int[1 << 12];
  private byte[] splits = new byte[1 << 12];
  private float[][] blocks = new float[16][];
  private boolean labelled;

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
