package org.yarngnn.app.infer;

import java.util.Arrays;

/** The in-edges one worker owns, as they arrive: destination local index, source global id, optional weight. */
final class OwnedEdges {
  int[] dst = new int[1 << 16];
  long[] src = new long[1 << 16];
  float[] weight;
  int size;

  OwnedEdges(boolean weighted) {
    weight = weighted ? new float[dst.length] : null;
  }

  void add(int d, long s, float w) {
    if (size == dst.length) {
      int cap = (int) Math.min(Integer.MAX_VALUE - 16, size * 2L);
      if (cap == size) {
        throw new IllegalStateException("more than " + size + " in-edges on one worker; use more workers");
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
}
