package org.yarngnn.partition;

import org.yarngnn.io.EdgeSink;
import org.yarngnn.io.InputException;

/**
 * Turns edge rows into global node indices (table order of the nodes), refusing endpoints without a node row or,
 * under --missing-features zero, adding them; subclasses decide where each resolved edge goes.
 */
abstract class EdgeCollector implements EdgeSink {
  private final NodeIndex index;
  private final boolean undirected;
  private final NodeRows addMissing;
  private String file;

  EdgeCollector(NodeIndex index, boolean undirected, NodeRows addMissing) {
    this.index = index;
    this.undirected = undirected;
    this.addMissing = addMissing;
  }

  /** One resolved edge from global index {@code s} to {@code d}. */
  abstract void accept(int d, int s, float weight);

  @Override
  public void beginFile(String file) {
    this.file = file;
  }

  @Override
  public void edge(long src, long dst, float weight, long row) {
    int s = resolve(src, row, "src");
    int d = resolve(dst, row, "dst");
    accept(d, s, weight);
    if (undirected && s != d) {
      accept(s, d, weight);
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
    throw InputException.at(file, row, danglingMessage(column, id));
  }

  static String danglingMessage(String column, long id) {
    return column + " " + id
        + " has no row in the nodes table (use --missing-features zero to give it zero features)";
  }
}
