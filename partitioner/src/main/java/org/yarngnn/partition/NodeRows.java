package org.yarngnn.partition;

import java.util.Arrays;
import org.yarngnn.io.table.InputException;
import org.yarngnn.io.table.NodeSink;
import org.yarngnn.io.table.NodeSplit;
import org.yarngnn.io.table.NodeTable;

/**
 * The nodes table collected in table order: an index of the ids (a duplicate is refused naming its row),
 * features, labels and splits. The global index of a node is its position in table order.
 */
final class NodeRows implements NodeSink {
  final NodeIndex index;
  final FeatureRows features;
  private long[] ids = new long[1 << 12];
  private int[] labels;
  private byte[] splits;
  private String file;

  NodeRows(int width, boolean hasLabels, boolean hasSplits, long expected) {
    index = new NodeIndex((int) Math.max(1 << 10, Math.min(1 << 29, expected)));
    features = new FeatureRows(width);
    labels = hasLabels ? new int[ids.length] : null;
    splits = hasSplits ? new byte[ids.length] : null;
  }

  static NodeRows read(NodeTable nodes) {
    NodeRows rows = new NodeRows(nodes.featureWidth(), nodes.hasLabels(), nodes.hasSplits(), nodes.countHint());
    nodes.read(rows);
    return rows;
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

  /** Adds an edge endpoint without a node row as a node with zero features (--missing-features zero). */
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

  int size() {
    return index.size();
  }

  /** The ids array (length may exceed {@link #size()}). */
  long[] rawIds() {
    return ids;
  }

  int[] rawLabels() {
    return labels;
  }

  byte[] rawSplits() {
    return splits;
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
