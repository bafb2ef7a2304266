package org.yarngnn.io.table;

import java.util.ArrayList;
import java.util.List;

/** Test helper: collects nodes read from a table (features copied). */
final class Nodes implements NodeSink {
  final List<Long> ids = new ArrayList<>();
  final List<Integer> labels = new ArrayList<>();
  final List<Byte> splits = new ArrayList<>();
  final List<float[]> features = new ArrayList<>();
  final List<Long> rows = new ArrayList<>();

  @Override
  public void node(long id, int label, byte split, float[] f, long row) {
    ids.add(id);
    labels.add(label);
    splits.add(split);
    features.add(f.clone());
    rows.add(row);
  }

  static Nodes read(NodeTable table) {
    Nodes n = new Nodes();
    table.read(n);
    return n;
  }
}
