package org.yarngnn.partition;

import java.util.Arrays;

/**
 * Maps global int64 node ids to dense local indices {@code 0..size-1}. Open addressing over primitive arrays
 * (no boxing: graphs have hundreds of millions of ids), with a fast path when the ids are consecutive in
 * insertion order ({@code b..b+n-1}: a dense table, or a range owner's share of one): then no table exists at
 * all (it is built from the run the first time an id breaks it), so such ids cost neither the table's memory nor
 * a cache miss per lookup. Built single-threaded,
 * then read-only and safe for concurrent lookups.
 */
public final class NodeIndex {
  /** Marks a free slot; the id equal to it (an ordinary id) is kept beside the table, in {@link #emptyIdIndex}. */
  private static final long EMPTY = Long.MIN_VALUE;

  private final int expected;
  /** Null while {@link #run} holds. */
  private long[] keys;
  private int[] values;
  private int mask;
  private int size;
  /** While true, the id of index i is {@code base + i}: lookups and inserts need no table. */
  private boolean run = true;
  private long base;
  /** In table mode, the index of id {@link #EMPTY}, or -1 when absent. */
  private int emptyIdIndex = -1;

  public NodeIndex(int expected) {
    this.expected = Math.max(0, expected);
  }

  public int size() {
    return size;
  }

  /** True when the ids are exactly {@code first..first+count-1} in insertion order (a range owner's whole share). */
  public boolean isRun(long first, long count) {
    return run && size == count && (count == 0 || base == first);
  }

  /** True when ids are exactly 0..size-1 in insertion order (the dense case). */
  public boolean isIdentity() {
    return run && (base == 0 || size == 0);
  }

  /**
   * Adds {@code id} with the next index and returns that index, or returns {@code -1 - existing} when the id is
   * already present (the caller reports the duplicate).
   */
  public int add(long id) {
    if (run) {
      if (size == 0) {
        base = id;
      }
      long i = id - base;
      if (i == size && id >= base) {
        return size++;
      }
      if (i >= 0 && i < size && id >= base) {
        return -1 - (int) i;
      }
      tableFromRun();
    }
    if (id == EMPTY) {
      if (emptyIdIndex >= 0) {
        return -1 - emptyIdIndex;
      }
      emptyIdIndex = size;
      return size++;
    }
    if ((size + 1) * 2L > keys.length) {
      grow();
    }
    int slot = slot(id);
    while (keys[slot] != EMPTY) {
      if (keys[slot] == id) {
        return -1 - values[slot];
      }
      slot = (slot + 1) & mask;
    }
    keys[slot] = id;
    values[slot] = size;
    return size++;
  }

  /** Ids base..base+size-1 were added in order; from now on a table is needed. */
  private void tableFromRun() {
    int cap = Integer.highestOneBit(Math.max(4, (int) Math.min(1 << 30, Math.max(expected, size + 1) * 2L)) - 1) << 1;
    keys = new long[cap];
    values = new int[cap];
    Arrays.fill(keys, EMPTY);
    mask = cap - 1;
    run = false;
    int n = size;
    size = 0;
    for (long i = 0; i < n; i++) {
      add(base + i);
    }
  }

  /** The index of {@code id}, or -1 when absent. */
  public int get(long id) {
    if (run) {
      long i = id - base;
      return i >= 0 && i < size && id >= base ? (int) i : -1;
    }
    if (id == EMPTY) {
      return emptyIdIndex;
    }
    int slot = slot(id);
    while (true) {
      long k = keys[slot];
      if (k == id) {
        return values[slot];
      }
      if (k == EMPTY) {
        return -1;
      }
      slot = (slot + 1) & mask;
    }
  }

  private int slot(long id) {
    return (int) Mixing.mix64(id) & mask;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new int[oldKeys.length * 2];
    Arrays.fill(keys, EMPTY);
    mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        int slot = slot(oldKeys[i]);
        while (keys[slot] != EMPTY) {
          slot = (slot + 1) & mask;
        }
        keys[slot] = oldKeys[i];
        values[slot] = oldValues[i];
      }
    }
  }

  /** The ids in index order: element {@code i} is the id whose index is {@code i}. */
  public long[] keysInOrder() {
    long[] ids = new long[size];
    if (run) {
      Arrays.setAll(ids, i -> base + i);
      return ids;
    }
    for (int slot = 0; slot < keys.length; slot++) {
      if (keys[slot] != EMPTY) {
        ids[values[slot]] = keys[slot];
      }
    }
    if (emptyIdIndex >= 0) {
      ids[emptyIdIndex] = EMPTY;
    }
    return ids;
  }

  /** Bytes held by the table. */
  public long sizeInBytes() {
    return keys == null ? 0 : 12L * keys.length;
  }
}
