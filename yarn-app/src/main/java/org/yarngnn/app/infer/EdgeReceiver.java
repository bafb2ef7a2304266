package org.yarngnn.app.infer;

import java.util.Arrays;
import java.util.List;
import org.yarngnn.io.table.InputException;
import org.yarngnn.partition.NodeIndex;
import org.yarngnn.partition.Ownership;

/**
 * Adds routed {@link EdgeBlock}s to the in-edges a worker owns, a block at a time: destinations resolved to local
 * indices, a source this worker owns checked for a node row, weights copied in bulk. Endpoints without a node row
 * are refused naming the edge's file and row, or under --missing-features zero added with zero features.
 * Single-threaded: only the worker's consumer thread calls it.
 */
final class EdgeReceiver {
  private final OwnedNodes owned;
  private final OwnedEdges in;
  private final Ownership owners;
  private final int self;
  private final List<String> files;
  private final boolean zero;

  EdgeReceiver(OwnedNodes owned, OwnedEdges in, Ownership owners, int self, List<String> files, boolean zero) {
    this.owned = owned;
    this.in = in;
    this.owners = owners;
    this.self = self;
    this.files = files;
    this.zero = zero;
  }

  void add(EdgeBlock b) {
    int n = b.count();
    long[] dst = b.dst();
    if (b.touch()) {
      for (int i = 0; i < n; i++) {
        if (owned.index.get(dst[i]) < 0) {
          owned.addMissing(dst[i]);
        }
      }
      return;
    }
    long[] src = b.src();
    in.reserve(n);
    int[] inDst = in.dst;
    long[] inSrc = in.src;
    int k = in.size;
    NodeIndex index = owned.index;
    for (int i = 0; i < n; i++) {
      int d = index.get(dst[i]);
      if (d < 0) {
        d = missing(b, i, "dst", dst[i]);
      }
      long s = src[i];
      if (index.get(s) < 0 && owners.owner(s) == self) {
        missing(b, i, "src", s);
      }
      inDst[k] = d;
      inSrc[k] = s;
      k++;
    }
    if (in.weight != null) {
      if (b.weights() != null) {
        System.arraycopy(b.weights(), 0, in.weight, in.size, n);
      } else {
        Arrays.fill(in.weight, in.size, k, 1f);
      }
    }
    in.size = k;
  }

  /** Edge {@code i}'s endpoint without a node row: added with zero features, or refused naming file and row. */
  private int missing(EdgeBlock b, int i, String column, long id) {
    if (!zero) {
      throw InputException.at(files.get(b.file()), b.rows()[i], column + " " + id
          + " has no row in the nodes table (use --missing-features zero to give it zero features)");
    }
    return owned.addMissing(id);
  }
}
