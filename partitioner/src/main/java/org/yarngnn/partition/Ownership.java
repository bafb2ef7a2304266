package org.yarngnn.partition;

import java.util.Locale;

/**
 * Which of {@code parts} partitions owns a node: a pure function of the node's id, so every reader, mapper and
 * worker routes the same way without a lookup table. Dense ids {@code 0..n-1} get contiguous ranges (partition
 * {@code p} owns {@code [floor(p*n/P), floor((p+1)*n/P))}); any other ids are spread by a well-mixed hash.
 * Serialised as {@code range:P:n} or {@code hash:P} for the manifest and job configuration.
 */
public final class Ownership {
  /** How ownership is chosen for a build: from the ids, or declared. */
  public enum Kind {
    /** Ranges when the node ids are exactly 0..n-1, hash otherwise. */
    AUTO,
    RANGE,
    HASH;

    public static Kind byName(String name) {
      try {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--ownership must be auto, range or hash, not '" + name + "'");
      }
    }
  }

  /** Linear scans over more range starts than this cost more than the division they save. */
  private static final int MAX_SCANNED_PARTS = 8;

  private final int parts;
  /** Node count of the dense range 0..n-1, or -1 for hash ownership. */
  private final long rangeNodes;
  /**
   * First id of each range, for range ownership over a few parts: {@link #owner} is on every edge's hot path, and
   * a few comparisons beat a 64-bit division. Null otherwise.
   */
  private final long[] starts;

  private Ownership(int parts, long rangeNodes) {
    if (parts < 1) {
      throw new IllegalArgumentException("partitions must be >= 1, got " + parts);
    }
    this.parts = parts;
    this.rangeNodes = rangeNodes;
    if (rangeNodes >= 0 && parts <= MAX_SCANNED_PARTS) {
      starts = new long[parts];
      for (int p = 0; p < parts; p++) {
        starts[p] = Math.floorDiv((long) p * rangeNodes, parts);
      }
    } else {
      starts = null;
    }
  }

  public static Ownership hash(int parts) {
    return new Ownership(parts, -1);
  }

  /** Contiguous ranges over dense ids {@code 0..nodes-1}; ids outside that range fall back to the hash. */
  public static Ownership ranges(int parts, long nodes) {
    if (nodes < 0) {
      throw new IllegalArgumentException("node count must be >= 0, got " + nodes);
    }
    return new Ownership(parts, nodes);
  }

  /**
   * The ownership for {@code kind} given the distinct node ids' count, minimum and maximum: ranges when the ids
   * are exactly {@code 0..count-1} (distinct ids with min 0 and max count-1 are exactly that set).
   */
  public static Ownership choose(Kind kind, int parts, long count, long minId, long maxId) {
    boolean dense = count == 0 || (minId == 0 && maxId == count - 1);
    switch (kind) {
      case HASH:
        return hash(parts);
      case RANGE:
        if (!dense) {
          throw new IllegalArgumentException("--ownership range needs node ids 0.." + (count - 1)
              + ", but they span " + minId + ".." + maxId);
        }
        return ranges(parts, count);
      default:
        return dense ? ranges(parts, count) : hash(parts);
    }
  }

  public int parts() {
    return parts;
  }

  public boolean isRange() {
    return rangeNodes >= 0;
  }

  /** The owner of node {@code id}, in {@code [0, parts)}. */
  public int owner(long id) {
    if (rangeNodes > 0 && id >= 0 && id < rangeNodes) {
      if (starts != null) {
        // Ranges may be empty (more parts than nodes): the owner is the last range starting at or before id.
        int p = parts - 1;
        while (starts[p] > id) {
          p--;
        }
        return p;
      }
      // Largest p with floor(p*n/P) <= id; (id+1)*P cannot overflow for n*P < 2^63.
      return (int) (((id + 1) * parts - 1) / rangeNodes);
    }
    // Lemire's multiply-shift maps the high 32 mixed bits onto [0, parts) without a division.
    return (int) (((Mixing.mix64(id) >>> 32) * parts) >>> 32);
  }

  /** Node count n of the dense range 0..n-1 (range ownership), or -1 for hash ownership. */
  public long rangeNodes() {
    return rangeNodes;
  }

  /** First id of partition {@code p}'s range (range ownership only). */
  public long rangeStart(int p) {
    if (!isRange()) {
      throw new IllegalStateException("hash ownership has no ranges");
    }
    return Math.floorDiv((long) p * rangeNodes, parts);
  }

  /** The manifest form: {@code range:P:n} or {@code hash:P}. */
  @Override
  public String toString() {
    return isRange() ? "range:" + parts + ":" + rangeNodes : "hash:" + parts;
  }

  public static Ownership parse(String s) {
    String[] f = s.trim().split(":");
    try {
      if (f.length == 2 && f[0].equals("hash")) {
        return hash(Integer.parseInt(f[1]));
      }
      if (f.length == 3 && f[0].equals("range")) {
        return ranges(Integer.parseInt(f[1]), Long.parseLong(f[2]));
      }
    } catch (NumberFormatException e) {
      // fall through to the common message
    }
    throw new IllegalArgumentException("bad ownership '" + s + "' (expected range:P:n or hash:P)");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Ownership && ((Ownership) o).parts == parts && ((Ownership) o).rangeNodes == rangeNodes;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(rangeNodes) * 31 + parts;
  }
}
