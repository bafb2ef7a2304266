package org.yarngnn.compute.layer;

import org.yarngnn.compute.kernel.Gemm;
import org.yarngnn.compute.kernel.PackedMatrix;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The row-local products of the layers' transform step: {@code dest row = input row * W}, then an optional
 * per-row finishing step, either for a contiguous range of nodes or for rows that arrive in arbitrary node
 * order (fusion with loading), with identical arithmetic in both cases.
 */
final class DenseRows {
  /** Rows per Gemm call in the scattered case: enough for the register-blocked kernel, small for the cache. */
  private static final int BLOCK = 64;

  /** Completes the row of local node {@code node} held at {@code buf[off..]} in place. */
  @FunctionalInterface
  interface Finisher {
    void finish(int node, float[] buf, int off);
  }

  private DenseRows() {}

  /** Rows {@code [from, to)} of {@code dest} = rows {@code [from, to)} of {@code h} times {@code w}, finished. */
  static void multiply(DenseMatrix h, int from, int to, PackedMatrix w, DenseMatrix dest, Finisher f) {
    if (to <= from) {
      return;
    }
    Gemm.multiply(h.data(), h.offset(from), h.cols(), to - from, w, dest.data(), dest.offset(from), dest.cols());
    if (f != null) {
      for (int r = from; r < to; r++) {
        f.finish(r, dest.data(), dest.offset(r));
      }
    }
  }

  /**
   * Rows {@code [from, to)} of {@code h} = the same rows times the square {@code w}, in place: each block of rows
   * is copied out first, so the product reads its inputs whole (the values {@link #multiply} gives).
   */
  static void multiplyInPlace(DenseMatrix h, int from, int to, PackedMatrix w) {
    int ld = h.cols();
    float[] buf = Scratch.floats(Scratch.TRANSFORM, Math.min(BLOCK, Math.max(to - from, 1)) * ld);
    for (int b = from; b < to; b += BLOCK) {
      int m = Math.min(BLOCK, to - b);
      System.arraycopy(h.data(), h.offset(b), buf, 0, m * ld);
      Gemm.multiply(buf, 0, ld, m, w, h.data(), h.offset(b), ld);
    }
  }

  /**
   * Row {@code nodes[r]} of {@code dest} = row {@code r} of {@code h} times {@code w}, finished, for
   * {@code r < count}; the first {@code width} columns of each finished row are copied.
   */
  static void multiplyScattered(DenseMatrix h, int[] nodes, int count, PackedMatrix w, DenseMatrix dest, int width,
      Finisher f) {
    int ld = dest.cols();
    float[] buf = Scratch.floats(Scratch.TRANSFORM, Math.min(BLOCK, Math.max(count, 1)) * ld);
    for (int b = 0; b < count; b += BLOCK) {
      int m = Math.min(BLOCK, count - b);
      Gemm.multiply(h.data(), h.offset(b), h.cols(), m, w, buf, 0, ld);
      for (int r = 0; r < m; r++) {
        int node = nodes[b + r];
        if (f != null) {
          f.finish(node, buf, r * ld);
        }
        System.arraycopy(buf, r * ld, dest.data(), dest.offset(node), width);
      }
    }
  }

  /**
   * Rows {@code [from, to)} of {@code dest}, columns {@code col..col+w.cols()}, = rows {@code [from, to)} of
   * {@code h} times {@code w}: one product of a fused layer's linear part.
   */
  static void multiplyInto(DenseMatrix h, int from, int to, PackedMatrix w, DenseMatrix dest, int col) {
    if (to > from) {
      Gemm.multiply(h.data(), h.offset(from), h.cols(), to - from, w, dest.data(), dest.offset(from) + col,
          dest.cols());
    }
  }

  /** Copies columns {@code [col, col+width)} of rows {@code [from, to)} of {@code src} to the same rows of dest. */
  static void copyColumns(DenseMatrix src, int col, int width, int from, int to, DenseMatrix dest) {
    for (int r = from; r < to; r++) {
      System.arraycopy(src.data(), src.offset(r) + col, dest.data(), dest.offset(r), width);
    }
  }

  /** Copies rows {@code [from, to)} of {@code h} to the same rows of {@code dest} (first h.cols() columns). */
  static void copy(DenseMatrix h, int from, int to, DenseMatrix dest) {
    for (int r = from; r < to; r++) {
      System.arraycopy(h.data(), h.offset(r), dest.data(), dest.offset(r), h.cols());
    }
  }

  /** Copies row {@code r} of {@code h} to row {@code nodes[r]} of {@code dest}, for {@code r < count}. */
  static void copyScattered(DenseMatrix h, int[] nodes, int count, DenseMatrix dest) {
    for (int r = 0; r < count; r++) {
      System.arraycopy(h.data(), h.offset(r), dest.data(), dest.offset(nodes[r]), h.cols());
    }
  }
}
