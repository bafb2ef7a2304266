package org.yarngnn.compute.kernel;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API row kernels. {@link #gather} keeps a strip of the output row in registers (up to 8 vectors) while
 * it streams the edges, so each source row is read once per strip and the output row is written once: the loop
 * is bound by the random reads of source rows, and the independent loads of successive edges overlap.
 */
final class VectorSparseRowKernel implements SparseRowKernel {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  private static final int L = S.length();

  private VectorSparseRowKernel() {}

  /** The kernel, or null when the preferred species has no real SIMD (then the scalar kernel is as good). */
  static SparseRowKernel createIfUseful() {
    return S.vectorBitSize() >= 128 ? new VectorSparseRowKernel() : null;
  }

  @Override
  public String name() {
    return "vector-" + S.vectorBitSize() + "bit";
  }

  @Override
  public void gather(int[] col, int start, int end, float[] w, int wOff, float[] colScale, int skipCol,
      float[] x, int xOff, int ldx, float[] out, int outOff, int n) {
    if (start >= end) {
      // A row without edges (many, in a skewed graph) leaves out as it is: no strip loads and stores it back.
      return;
    }
    if (skipCol == SparseRows.NO_SKIP) {
      gatherRun(col, start, end, w, wOff, colScale, x, xOff, ldx, out, outOff, n);
      return;
    }
    // The skipped column is cut out here, so the strip loops have no branch on the data: a taken branch inside
    // them made C2 recompile the shared kernel into a several times slower version (vectors boxed at the merge)
    // for every caller. The runs accumulate into out in edge order, so the sums are the same, bit for bit.
    int run = start;
    for (int e = start; e < end; e++) {
      if (col[e] == skipCol) {
        if (e > run) {
          gatherRun(col, run, e, w, wOff, colScale, x, xOff, ldx, out, outOff, n);
        }
        run = e + 1;
      }
    }
    if (end > run) {
      gatherRun(col, run, end, w, wOff, colScale, x, xOff, ldx, out, outOff, n);
    }
  }

  /** {@link #gather} over edges {@code [start, end)}, all kept. */
  private static void gatherRun(int[] col, int start, int end, float[] w, int wOff, float[] colScale, float[] x,
      int xOff, int ldx, float[] out, int outOff, int n) {
    int c = 0;
    if (w == null && colScale == null) {
      // Unit weights (fma by 1 is the plain sum): a loop of its own, so weighted callers' profiles stay apart.
      for (; c + 8 * L <= n; c += 8 * L) {
        sum8(col, start, end, x, xOff + c, ldx, out, outOff + c);
      }
    } else {
      for (; c + 8 * L <= n; c += 8 * L) {
        gather8(col, start, end, w, wOff, colScale, x, xOff + c, ldx, out, outOff + c);
      }
    }
    for (; c + 4 * L <= n; c += 4 * L) {
      gather4(col, start, end, w, wOff, colScale, x, xOff + c, ldx, out, outOff + c);
    }
    for (; c + L <= n; c += L) {
      gather1(col, start, end, w, wOff, colScale, x, xOff + c, ldx, out, outOff + c);
    }
    if (c < n) {
      ScalarSparseRowKernel.INSTANCE.gather(col, start, end, w, wOff, colScale, SparseRows.NO_SKIP, x, xOff + c,
          ldx, out, outOff + c, n - c);
    }
  }

  private static float weight(int e, int j, float[] w, int wOff, float[] colScale) {
    return (w == null ? 1f : w[wOff + e]) * (colScale == null ? 1f : colScale[j]);
  }

  private static void sum8(int[] col, int start, int end, float[] x, int xOff, int ldx, float[] out, int o) {
    FloatVector a0 = FloatVector.fromArray(S, out, o);
    FloatVector a1 = FloatVector.fromArray(S, out, o + L);
    FloatVector a2 = FloatVector.fromArray(S, out, o + 2 * L);
    FloatVector a3 = FloatVector.fromArray(S, out, o + 3 * L);
    FloatVector a4 = FloatVector.fromArray(S, out, o + 4 * L);
    FloatVector a5 = FloatVector.fromArray(S, out, o + 5 * L);
    FloatVector a6 = FloatVector.fromArray(S, out, o + 6 * L);
    FloatVector a7 = FloatVector.fromArray(S, out, o + 7 * L);
    // The loaded row is the receiver of each add, the accumulator its argument: C2 then knows the receiver's exact
    // class as it parses the loop. With the accumulator (a loop phi, typed FloatVector) as the receiver, inlining
    // add's virtual lanewise call rested on FloatVector.add's type profile, which a C1 compile without profiling
    // leaves empty: C2 then compiled a real call on boxed vectors, and the aggregation ran 4-8x slower.
    for (int e = start; e < end; e++) {
      int xo = col[e] * ldx + xOff;
      a0 = FloatVector.fromArray(S, x, xo).add(a0);
      a1 = FloatVector.fromArray(S, x, xo + L).add(a1);
      a2 = FloatVector.fromArray(S, x, xo + 2 * L).add(a2);
      a3 = FloatVector.fromArray(S, x, xo + 3 * L).add(a3);
      a4 = FloatVector.fromArray(S, x, xo + 4 * L).add(a4);
      a5 = FloatVector.fromArray(S, x, xo + 5 * L).add(a5);
      a6 = FloatVector.fromArray(S, x, xo + 6 * L).add(a6);
      a7 = FloatVector.fromArray(S, x, xo + 7 * L).add(a7);
    }
    a0.intoArray(out, o);
    a1.intoArray(out, o + L);
    a2.intoArray(out, o + 2 * L);
    a3.intoArray(out, o + 3 * L);
    a4.intoArray(out, o + 4 * L);
    a5.intoArray(out, o + 5 * L);
    a6.intoArray(out, o + 6 * L);
    a7.intoArray(out, o + 7 * L);
  }

  private static void gather8(int[] col, int start, int end, float[] w, int wOff, float[] colScale,
      float[] x, int xOff, int ldx, float[] out, int o) {
    FloatVector a0 = FloatVector.fromArray(S, out, o);
    FloatVector a1 = FloatVector.fromArray(S, out, o + L);
    FloatVector a2 = FloatVector.fromArray(S, out, o + 2 * L);
    FloatVector a3 = FloatVector.fromArray(S, out, o + 3 * L);
    FloatVector a4 = FloatVector.fromArray(S, out, o + 4 * L);
    FloatVector a5 = FloatVector.fromArray(S, out, o + 5 * L);
    FloatVector a6 = FloatVector.fromArray(S, out, o + 6 * L);
    FloatVector a7 = FloatVector.fromArray(S, out, o + 7 * L);
    for (int e = start; e < end; e++) {
      int j = col[e];
      FloatVector wv = FloatVector.broadcast(S, weight(e, j, w, wOff, colScale));
      int xo = j * ldx + xOff;
      a0 = FloatVector.fromArray(S, x, xo).fma(wv, a0);
      a1 = FloatVector.fromArray(S, x, xo + L).fma(wv, a1);
      a2 = FloatVector.fromArray(S, x, xo + 2 * L).fma(wv, a2);
      a3 = FloatVector.fromArray(S, x, xo + 3 * L).fma(wv, a3);
      a4 = FloatVector.fromArray(S, x, xo + 4 * L).fma(wv, a4);
      a5 = FloatVector.fromArray(S, x, xo + 5 * L).fma(wv, a5);
      a6 = FloatVector.fromArray(S, x, xo + 6 * L).fma(wv, a6);
      a7 = FloatVector.fromArray(S, x, xo + 7 * L).fma(wv, a7);
    }
    a0.intoArray(out, o);
    a1.intoArray(out, o + L);
    a2.intoArray(out, o + 2 * L);
    a3.intoArray(out, o + 3 * L);
    a4.intoArray(out, o + 4 * L);
    a5.intoArray(out, o + 5 * L);
    a6.intoArray(out, o + 6 * L);
    a7.intoArray(out, o + 7 * L);
  }

  private static void gather4(int[] col, int start, int end, float[] w, int wOff, float[] colScale,
      float[] x, int xOff, int ldx, float[] out, int o) {
    FloatVector a0 = FloatVector.fromArray(S, out, o);
    FloatVector a1 = FloatVector.fromArray(S, out, o + L);
    FloatVector a2 = FloatVector.fromArray(S, out, o + 2 * L);
    FloatVector a3 = FloatVector.fromArray(S, out, o + 3 * L);
    for (int e = start; e < end; e++) {
      int j = col[e];
      FloatVector wv = FloatVector.broadcast(S, weight(e, j, w, wOff, colScale));
      int xo = j * ldx + xOff;
      a0 = FloatVector.fromArray(S, x, xo).fma(wv, a0);
      a1 = FloatVector.fromArray(S, x, xo + L).fma(wv, a1);
      a2 = FloatVector.fromArray(S, x, xo + 2 * L).fma(wv, a2);
      a3 = FloatVector.fromArray(S, x, xo + 3 * L).fma(wv, a3);
    }
    a0.intoArray(out, o);
    a1.intoArray(out, o + L);
    a2.intoArray(out, o + 2 * L);
    a3.intoArray(out, o + 3 * L);
  }

  private static void gather1(int[] col, int start, int end, float[] w, int wOff, float[] colScale,
      float[] x, int xOff, int ldx, float[] out, int o) {
    FloatVector a0 = FloatVector.fromArray(S, out, o);
    for (int e = start; e < end; e++) {
      int j = col[e];
      FloatVector wv = FloatVector.broadcast(S, weight(e, j, w, wOff, colScale));
      a0 = FloatVector.fromArray(S, x, j * ldx + xOff).fma(wv, a0);
    }
    a0.intoArray(out, o);
  }

  @Override
  public void axpy(float a, float[] x, int xOff, float[] y, int yOff, int n) {
    FloatVector av = FloatVector.broadcast(S, a);
    int c = 0;
    for (; c + L <= n; c += L) {
      FloatVector.fromArray(S, x, xOff + c).fma(av, FloatVector.fromArray(S, y, yOff + c)).intoArray(y, yOff + c);
    }
    for (; c < n; c++) {
      y[yOff + c] += a * x[xOff + c];
    }
  }

  @Override
  public void scale(float a, float[] y, int off, int n) {
    int c = 0;
    for (; c + L <= n; c += L) {
      FloatVector.fromArray(S, y, off + c).mul(a).intoArray(y, off + c);
    }
    for (; c < n; c++) {
      y[off + c] *= a;
    }
  }

  @Override
  public void relu(float[] y, int off, int n) {
    // A blend on "greater than zero", not max(x, 0): a NaN must become 0 here, as in the scalar loop (which C2
    // does not vectorise: a conditional move per value).
    FloatVector zero = FloatVector.zero(S);
    int c = 0;
    for (; c + L <= n; c += L) {
      FloatVector v = FloatVector.fromArray(S, y, off + c);
      zero.blend(v, v.compare(VectorOperators.GT, 0f)).intoArray(y, off + c);
    }
    for (; c < n; c++) {
      float x = y[off + c];
      y[off + c] = x > 0f ? x : 0f;
    }
  }

  @Override
  public float dot(float[] a, int aOff, float[] b, int bOff, int n) {
    int c = 0;
    float s = 0f;
    if (n >= L) {
      FloatVector acc = FloatVector.zero(S);
      for (; c + L <= n; c += L) {
        acc = FloatVector.fromArray(S, a, aOff + c).fma(FloatVector.fromArray(S, b, bOff + c), acc);
      }
      s = acc.reduceLanes(VectorOperators.ADD);
    }
    for (; c < n; c++) {
      s += a[aOff + c] * b[bOff + c];
    }
    return s;
  }

  /**
   * Top-K selection's filter: nearly every score of a long stream is below the heap's worst, so a whole vector of
   * them is passed over with one compare and one mask test instead of one data-dependent branch per score.
   */
  @Override
  public int firstAtLeast(float[] a, int from, int to, float threshold) {
    int i = from;
    FloatVector t = FloatVector.broadcast(S, threshold);
    for (; i + L <= to; i += L) {
      VectorMask<Float> m = FloatVector.fromArray(S, a, i).compare(VectorOperators.GE, t);
      if (m.anyTrue()) {
        return i + m.firstTrue();
      }
    }
    for (; i < to; i++) {
      if (a[i] >= threshold) {
        return i;
      }
    }
    return to;
  }
}
