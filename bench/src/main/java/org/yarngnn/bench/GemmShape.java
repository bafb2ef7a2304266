package org.yarngnn.bench;

/** A GEMM shape written {@code MxKxN} (C[M x N] = A[M x K] * B[K x N]), as the benchmarks' {@code shape} param. */
record GemmShape(int m, int k, int n) {
  /** EJML runs single-threaded at a few GFLOP/s: on tall shapes it gets a slice of this many rows. */
  static final int EJML_MAX_ROWS = 65_536;

  static GemmShape parse(String s) {
    String[] p = s.split("x");
    if (p.length != 3) {
      throw new IllegalArgumentException("shape " + s + " is not MxKxN");
    }
    return new GemmShape(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]));
  }

  /** Rows EJML multiplies for this shape. */
  int ejmlRows() {
    return Math.min(m, EJML_MAX_ROWS);
  }

  /** Floating-point operations of C = A * B over {@code rows} rows (one multiply and one add per term). */
  double flops(int rows) {
    return 2.0 * rows * k * n;
  }
}
