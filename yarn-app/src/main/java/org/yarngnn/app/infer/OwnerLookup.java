package org.yarngnn.app.infer;

import org.yarngnn.partition.Ownership;

/**
 * {@link Ownership#owner} for the per-edge hot loops of construction: under range ownership with a few workers the
 * owner is found by comparing with the ranges' first ids instead of a 64-bit division per id; anything else (hash
 * ownership, ids outside the dense range, many workers) asks the ownership itself, so the answer is always the same.
 */
final class OwnerLookup {
  /** Linear scans over more boundaries than this cost more than the division they save. */
  private static final int MAX_SCANNED_PARTS = 8;

  private final Ownership ownership;
  /** First id of each range and, last, the node count; null when {@link #of} delegates. */
  private final long[] starts;
  private final long nodes;

  OwnerLookup(Ownership ownership) {
    this.ownership = ownership;
    int parts = ownership.parts();
    if (ownership.isRange() && parts <= MAX_SCANNED_PARTS) {
      starts = new long[parts + 1];
      for (int p = 0; p <= parts; p++) {
        starts[p] = ownership.rangeStart(p);
      }
      nodes = starts[parts];
    } else {
      starts = null;
      nodes = -1;
    }
  }

  /** The owner of node {@code id}, as {@link Ownership#owner}. */
  int of(long id) {
    if (starts != null && id >= 0 && id < nodes) {
      // Ranges may be empty (more parts than nodes): the owner is the last range starting at or before id.
      int p = starts.length - 2;
      while (starts[p] > id) {
        p--;
      }
      return p;
    }
    return ownership.owner(id);
  }
}
