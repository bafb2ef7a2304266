package org.yarngnn.compute.kernel;

import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * The right-hand operand B (k x n) of {@link Gemm}, packed once into column panels (weights are packed once per
 * layer and reused for every row block). Panel {@code q} holds columns {@code [col(q), col(q) + width(q))} for all
 * k rows, row after row, so the kernel streams one panel with unit stride. The panel widths are the kernel's
 * choice (whole vectors for the Vector API kernel); the last panel is zero-padded past column n so a kernel may
 * compute whole vectors there and keep only the valid columns.
 */
public final class PackedMatrix {
  private final int rows;
  private final int cols;
  private final int[] panelCol;
  private final int[] panelWidth;
  private final int[] panelOffset;
  private final float[] data;

  private PackedMatrix(int rows, int cols, int[] panelCol, int[] panelWidth, int[] panelOffset, float[] data) {
    this.rows = rows;
    this.cols = cols;
    this.panelCol = panelCol;
    this.panelWidth = panelWidth;
    this.panelOffset = panelOffset;
    this.data = data;
  }

  /** Packs {@code b} in the panel layout of the kernel {@link Gemm} uses in this JVM. */
  public static PackedMatrix pack(DenseMatrix b) {
    return pack(b, Gemm.kernel());
  }

  static PackedMatrix pack(DenseMatrix b, GemmKernel kernel) {
    return pack(b, kernel.panelWidths(b.cols()));
  }

  /** Packs {@code b} into panels of the given widths, which together must cover its columns. */
  static PackedMatrix pack(DenseMatrix b, int[] widths) {
    int k = b.rows();
    int n = b.cols();
    for (int q = 0, c = 0; q < widths.length; c += widths[q], q++) {
      if (widths[q] < 1 || c >= n) {
        throw new IllegalArgumentException("panel " + q + " of width " + widths[q] + " starts at column " + c
            + " of " + n);
      }
    }
    PackedMatrix p = layout(k, n, widths);
    float[] src = b.data();
    for (int q = 0; q < widths.length; q++) {
      int w = widths[q];
      int valid = Math.min(w, n - p.panelCol[q]);
      for (int r = 0; r < k; r++) {
        System.arraycopy(src, r * n + p.panelCol[q], p.data, p.panelOffset[q] + r * w, valid);
      }
    }
    return p;
  }

  /**
   * Packs B = the transpose of {@code n} row-major rows of width {@code k} at {@code offset} of {@code rows} (so
   * B is k x n and C = A * B holds the dot products of A's rows with those rows), in the layout of the kernel in
   * use. Retrieval multiplies every query block by each candidate block this way; {@code reuse} (null, or an
   * earlier result) gives its array back when the shape is the same, so streaming equal blocks packs into one
   * buffer instead of allocating one per block.
   */
  public static PackedMatrix packTransposed(float[] rows, int offset, int n, int k, PackedMatrix reuse) {
    if (n < 0 || k < 0 || offset < 0 || offset + (long) n * k > rows.length) {
      throw new IllegalArgumentException(n + " rows of width " + k + " at " + offset + " of " + rows.length);
    }
    int[] widths = Gemm.kernel().panelWidths(n);
    PackedMatrix p = reuse != null && reuse.rows == k && reuse.cols == n
        && java.util.Arrays.equals(reuse.panelWidth, widths) ? reuse : layout(k, n, widths);
    float[] packed = p.data;
    for (int q = 0; q < widths.length; q++) {
      int w = widths[q];
      int col0 = p.panelCol[q];
      int valid = Math.min(w, n - col0);
      int base = p.panelOffset[q];
      for (int j = 0; j < valid; j++) {
        int src = offset + (col0 + j) * k;
        for (int r = 0; r < k; r++) {
          packed[base + r * w + j] = rows[src + r];
        }
      }
      // Padding columns stay zero from allocation: only valid columns are ever written.
    }
    return p;
  }

  /** An all-zero packed matrix of k x n in panels of {@code widths}. */
  private static PackedMatrix layout(int k, int n, int[] widths) {
    int panels = widths.length;
    int[] col = new int[panels];
    int[] offset = new int[panels];
    long size = 0;
    int c = 0;
    for (int q = 0; q < panels; q++) {
      col[q] = c;
      offset[q] = (int) Math.min(size, Integer.MAX_VALUE);
      c += widths[q];
      size += (long) widths[q] * k;
    }
    if (c < n || size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("panels cover " + c + " of " + n + " columns, " + size + " values");
    }
    return new PackedMatrix(k, n, col, widths.clone(), offset, new float[(int) size]);
  }

  public int rows() {
    return rows;
  }

  public int cols() {
    return cols;
  }

  /** Number of column panels. */
  public int panels() {
    return panelCol.length;
  }

  /** First column of panel {@code q}. */
  int panelCol(int q) {
    return panelCol[q];
  }

  /** Width of panel {@code q} including padding: its row stride in {@link #data()}. */
  int panelWidth(int q) {
    return panelWidth[q];
  }

  /** Columns of panel {@code q} that are real columns of B. */
  int panelValidCols(int q) {
    return Math.min(panelWidth[q], cols - panelCol[q]);
  }

  /** Offset in {@link #data()} of row {@code p} of panel {@code q}. */
  int offset(int q, int p) {
    return panelOffset[q] + p * panelWidth[q];
  }

  /** Element (p, j) of B. */
  public float get(int p, int j) {
    int q = panels() - 1;
    while (panelCol[q] > j) {
      q--;
    }
    return data[offset(q, p) + j - panelCol[q]];
  }

  float[] data() {
    return data;
  }

  /** Bytes held by the packed panels. */
  public long sizeInBytes() {
    return 4L * data.length;
  }
}
