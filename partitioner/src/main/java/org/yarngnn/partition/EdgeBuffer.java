package org.yarngnn.partition;

import java.util.Arrays;

/** Growable primitive arrays of edges (destination, source, optional weight) as local indices. */
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
      int cap = (int) Math.min(Integer.MAX_VALUE - 16, dst.length * 2L);
      if (cap == size) {
        throw new IllegalStateException("more than " + size + " edges in one partition; use more partitions");
      }
      dst = Arrays.copyOf(dst, cap);
      src = Arrays.copyOf(src, cap);
      if (weight != null) {
        weight = Arrays.copyOf(weight, cap);
      }
    }
    dst[size] = d;
    src[size] = s;
    if (weight != null) {
      weight[size] = w;
    }
    size++;
  }

  /** Appends all edges of {@code other}. */
  void addAll(EdgeBuffer other) {
    for (int i = 0; i < other.size; i++) {
      add(other.dst[i], other.src[i], other.weight == null ? 1f : other.weight[i]);
    }
  }
}
