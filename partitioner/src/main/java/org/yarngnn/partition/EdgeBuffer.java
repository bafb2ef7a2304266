package org.yarngnn.partition;

import java.util.Arrays;

/** Growable primitive arrays of edges (destination, source, optional weight) as int indices: 8 bytes an edge. */
final class EdgeBuffer {
  int[] dst;
  int[] src;
  float[] weight;
  int size;

  EdgeBuffer(int capacity, boolean weighted) {
    dst = new int[Math.max(16, capacity)];
    src = new int[dst.length];
    weight = weighted ? new float[dst.length] : null;
  }

  void add(int d, int s, float w) {
    if (size == dst.length) {
      grow(size + 1);
    }
    dst[size] = d;
    src[size] = s;
    if (weight != null) {
      weight[size] = w;
    }
    size++;
  }

  /** Appends {@code count} edges from the arrays; synchronized so reader threads can flush chunks into one buffer. */
  synchronized void append(int[] d, int[] s, float[] w, int count) {
    if (size + count > dst.length) {
      grow((long) size + count);
    }
    System.arraycopy(d, 0, dst, size, count);
    System.arraycopy(s, 0, src, size, count);
    if (weight != null) {
      System.arraycopy(w, 0, weight, size, count);
    }
    size += count;
  }

  void addAll(EdgeBuffer other) {
    append(other.dst, other.src, other.weight, other.size);
  }

  boolean full() {
    return size == dst.length;
  }

  void clear() {
    size = 0;
  }

  /** Bytes held by the arrays. */
  long sizeInBytes() {
    return (long) dst.length * (weight == null ? 8 : 12);
  }

  private void grow(long needed) {
    // 1.5x growth keeps the slack (and the copy's transient peak) smaller than doubling.
    long cap = Math.max(needed, dst.length + (dst.length >> 1));
    if (needed > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("more than " + size + " edges in one partition; use more partitions");
    }
    int c = (int) Math.min(Integer.MAX_VALUE - 16, cap);
    dst = Arrays.copyOf(dst, c);
    src = Arrays.copyOf(src, c);
    if (weight != null) {
      weight = Arrays.copyOf(weight, c);
    }
  }
}
