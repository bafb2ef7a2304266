package org.yarngnn.io.table;

import java.util.ArrayList;
import java.util.List;

/** Test helper: collects edges read from a table. */
public final class Edges implements EdgeSink {
  public final List<long[]> rows = new ArrayList<>();
  public final List<Float> weights = new ArrayList<>();
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

  public static Edges read(EdgeTable table) {
    Edges e = new Edges();
    table.read(e);
    return e;
  }
}
