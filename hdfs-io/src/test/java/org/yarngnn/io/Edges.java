package org.yarngnn.io;

import java.util.ArrayList;
import java.util.List;

/** Test helper: collects edges read from a table. */
final class Edges implements EdgeSink {
  final List<long[]> rows = new ArrayList<>();
  final List<Float> weights = new ArrayList<>();
  final List<String> files = new ArrayList<>();

  @Override
  public void beginFile(String file) {
    files.add(file);
  }

  @Override
  public void edge(long src, long dst, float weight, long row) {
    rows.add(new long[] {src, dst, row});
    weights.add(weight);
  }

  static Edges read(EdgeTable table) {
    Edges e = new Edges();
    table.read(e);
    return e;
  }
}
