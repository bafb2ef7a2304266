package org.yarngnn.app.graphworker;

import java.util.Locale;

/**
 * How graph workers read a raw edge table ({@code --edge-reading}). SHARE: each reads a contiguous run of the
 * files and routes every edge it does not own to its destination's owner (with a reference for the source's owner
 * to check), so each row is decoded once in all. ALL: each reads every file and keeps its own share
 * ({@code OwnEdgeFilter}), so nothing crosses between workers but every row is decoded once per worker. Decoding
 * a row costs a fraction of routing it (encoding, sending, receiving, decoding it again, and its reference), so for
 * a few workers reading everything is cheaper, and for many it is not: AUTO reads everything up to
 * {@link #MAX_READING_ALL} workers.
 */
public enum EdgeReading {
  AUTO,
  SHARE,
  ALL;

  /** AUTO's limit: the largest worker count for which every worker reads every edge. */
  public static final int MAX_READING_ALL = 4;

  public static EdgeReading byName(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--edge-reading must be auto, share or all, not '" + name + "'");
    }
  }

  /** SHARE or ALL for a job of {@code workers} graph workers. */
  public EdgeReading resolve(int workers) {
    if (this != AUTO) {
      return this;
    }
    return workers <= MAX_READING_ALL ? ALL : SHARE;
  }

  String optionValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
