package org.yarngnn.partition;

import java.util.Arrays;

/**
 * Maps global int64 node ids to dense local indices {@code 0..size-1}. Open addressing over primitive arrays
 * (no boxing: graphs have hundreds of millions of ids), with an identity fast path when the ids are exactly
 * {@code 0..n-1} in order: then no table exists at all (it is built from the identity the first time an id
 * breaks it), so dense tables cost neither the table's memory nor a cache miss per id. Built single-threaded,
 * then read-only and safe for concurrent lookups.
 */
public final class NodeIndex {
  private static final long EMPTY = Long.MIN_VALUE;

  private final int expected;
  /** Null while {@link #identity} holds. */
  private long[] keys;
  private int[] values;
  private int mask;
  private int size;
  /** While true, every id inserted so far equals its index: lookups and inserts need no table. */
  private boolean identity = true;

  public NodeIndex(int expected) {
    this.expected = Math.max(0, expected);
  }

  public int size() {
    return size;
  }

  /** True when ids are exactly 0..size-1 in insertion order (the dense case). */
  public boolean isIdentity() {
    return identity;
  }

  /**
   * Adds {@code id} with the next index and returns that index, or returns {@code -1 - existing} when the id is
   * already present (the caller reports the duplicate).
   */
  public int add(long id) {
    if (identity) {
      if (id == size) {
        return size++;
      }
      if (id >= 0 && id < size) {
        return -1 - (int) id;
      }
      tableFromIdentity();
    }
    if (id == EMPTY) {
      throw new IllegalArgumentException("node id " + id + " is reserved");
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

  /** Ids 0..size-1 were added in order; from now on a table is needed. */
  private void tableFromIdentity() {
    int cap = Integer.highestOneBit(Math.max(4, (int) Math.min(1 << 30, Math.max(expected, size + 1) * 2L)) - 1) << 1;
    keys = new long[cap];
    values = new int[cap];
    Arrays.fill(keys, EMPTY);
    mask = cap - 1;
    identity = false;
    int n = size;
    size = 0;
    for (long id = 0; id < n; id++) {
      add(id);
    }
  }

  /** The index of {@code id}, or -1 when absent. */
  public int get(long id) {
    if (identity) {
      return id >= 0 && id < size ? (int) id : -1;
    }
    if (id == EMPTY) {
      return -1;
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
    if (identity) {
      Arrays.setAll(ids, i -> i);
      return ids;
    }
    for (int slot = 0; slot < keys.length; slot++) {
      if (keys[slot] != EMPTY) {
        ids[values[slot]] = keys[slot];
      }
    }
    return ids;
  }

  /** Bytes held by the table. */
  public long sizeInBytes() {
    return keys == null ? 0 : 12L * keys.length;
  }
}
