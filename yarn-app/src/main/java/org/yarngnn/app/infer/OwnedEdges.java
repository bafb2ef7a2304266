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
    reserve(1);
    dst[size] = d;
    src[size] = s;
    if (weight != null) {
      weight[size] = w;
    }
    size++;
  }

  /** Makes room for {@code more} edges after {@link #size}, so that a block can be appended without checks. */
  void reserve(int more) {
    long need = (long) size + more;
    if (need <= dst.length) {
      return;
    }
    if (need > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("more than " + size + " in-edges on one worker; use more workers");
    }
    int cap = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, dst.length * 2L));
    dst = Arrays.copyOf(dst, cap);
    src = Arrays.copyOf(src, cap);
    if (weight != null) {
      weight = Arrays.copyOf(weight, cap);
    }
  }
}
