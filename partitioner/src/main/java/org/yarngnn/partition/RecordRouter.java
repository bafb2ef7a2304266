package org.yarngnn.partition;

import org.yarngnn.io.EdgeSink;
import org.yarngnn.io.NodeSink;

/**
 * The partition job's map logic, free of Hadoop: turns table rows into keyed records for their owners. A node
 * row goes to its owner. An edge goes to its destination's owner; its source is checked by the source's owner
 * through a reference record when that is another partition (the destination's owner checks a local source
 * itself). Under --missing-features zero both endpoints are referenced, so owners can add missing nodes before
 * their edges arrive. Under --undirected the reverse edge is routed the same way.
 */
final class RecordRouter implements EdgeSink, NodeSink {
  /** Receives each routed record; the key and record objects are reused. */
  interface Emitter {
    void emit(PartitionKey key, GraphRecord record);
  }

  private final Ownership ownership;
  private final boolean undirected;
  private final boolean referenceAll;
  private final int width;
  private final int file;
  private final Emitter out;
  private final PartitionKey key = new PartitionKey();
  private final GraphRecord rec = new GraphRecord();

  RecordRouter(Ownership ownership, boolean undirected, MissingFeatures missing, int width, int file,
      Emitter out) {
    this.ownership = ownership;
    this.undirected = undirected;
    this.referenceAll = missing == MissingFeatures.ZERO;
    this.width = width;
    this.file = file;
    this.out = out;
  }

  @Override
  public void beginFile(String name) {
    // Records carry the file index the router was made for.
  }

  @Override
  public void node(long id, int label, byte split, float[] features, long row) {
    out.emit(key.set(ownership.owner(id), PartitionKey.NODE, id),
        rec.node(id, label, split, features, width, file, row));
  }

  @Override
  public void edge(long src, long dst, float weight, long row) {
    route(dst, src, weight, false, row);
    if (undirected && src != dst) {
      route(src, dst, weight, true, row);
    }
  }

  private void route(long to, long from, float weight, boolean reversed, long row) {
    int toOwner = ownership.owner(to);
    int fromOwner = ownership.owner(from);
    int fromColumn = reversed ? 1 : 0;
    if (referenceAll || fromOwner != toOwner) {
      out.emit(key.set(fromOwner, PartitionKey.REF, from), rec.ref(from, fromColumn, file, row));
    }
    if (referenceAll) {
      out.emit(key.set(toOwner, PartitionKey.REF, to), rec.ref(to, 1 - fromColumn, file, row));
    }
    out.emit(key.set(toOwner, PartitionKey.EDGE, 0), rec.edge(to, from, weight, reversed, file, row));
  }
}
