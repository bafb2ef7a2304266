package org.yarngnn.compute.layer;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.Gemm;
import org.yarngnn.compute.kernel.PackedMatrix;
import org.yarngnn.compute.kernel.SparseRows;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * GraphSAGE with the mean aggregator, as the contract defines it:
 * {@code H'_i = act( H_i W_self + mean_{j in S(i)} H_j W_neigh + b )}, S(i) being the in-edges of the block
 * given to {@link #aggregate} (the full graph or its per-layer sample). Input self-loops are ordinary edges;
 * parallel edges count once each; an empty S(i) contributes zero. Edge weights are ignored (mean over edges).
 * <p>Self row: {@code H_i W_self}. The message row depends on the widths, to exchange and sum the narrower
 * rows: when {@code out <= in} it is {@code H_j W_neigh} (transform before aggregate); otherwise it is
 * {@code H_j} itself and aggregate multiplies the mean by {@code W_neigh} (aggregate before transform).
 * {@link #messageWidth()} reports which.
 */
public final class SageLayer extends BaseLayer {
  /** Destination rows per Gemm call when aggregating before the transform. */
  private static final int BLOCK = 64;

  private final PackedMatrix weightSelf;
  private final PackedMatrix weightNeigh;
  private final boolean transformFirst;

  /** Chooses transform-before-aggregate iff {@code out <= in}. */
  public SageLayer(LayerSpec spec, DenseMatrix weightSelf, DenseMatrix weightNeigh, float[] bias) {
    this(spec, weightSelf, weightNeigh, bias, spec.out() <= spec.in());
  }

  /**
   * With an explicit order: {@code transformFirst} true sends {@code H_j W_neigh}, false sends {@code H_j}.
   * Both give the same output up to float rounding.
   */
  public SageLayer(LayerSpec spec, DenseMatrix weightSelf, DenseMatrix weightNeigh, float[] bias,
      boolean transformFirst) {
    super(spec, bias);
    for (DenseMatrix w : new DenseMatrix[] {weightSelf, weightNeigh}) {
      if (w.rows() != spec.in() || w.cols() != spec.out()) {
        throw new IllegalArgumentException("sage weight " + w + " for in " + spec.in() + ", out " + spec.out());
      }
    }
    this.weightSelf = PackedMatrix.pack(weightSelf);
    this.weightNeigh = PackedMatrix.pack(weightNeigh);
    this.transformFirst = transformFirst;
  }

  /** True when messages are {@code H_j W_neigh}, false when they are the input rows {@code H_j}. */
  public boolean transformsBeforeAggregate() {
    return transformFirst;
  }

  @Override
  public int messageWidth() {
    return transformFirst ? spec.out() : spec.in();
  }

  @Override
  public int selfWidth() {
    return spec.out();
  }

  @Override
  public void transform(GraphBlock g, DenseMatrix h, int from, int to, DenseMatrix msg, DenseMatrix self) {
    LayerChecks.transform(this, g, h, to, msg, self);
    if (self == h) {
      if (!selfOverInput()) {
        throw new IllegalArgumentException("sage " + spec.in() + " -> " + spec.out() + ": no self rows over the input");
      }
      // The messages first, while the input rows are intact; then the self rows over them.
      DenseRows.multiply(h, from, to, weightNeigh, msg, null);
      DenseRows.multiplyInPlace(h, from, to, weightSelf);
      return;
    }
    DenseRows.multiply(h, from, to, weightSelf, self, null);
    if (transformFirst) {
      DenseRows.multiply(h, from, to, weightNeigh, msg, null);
    } else {
      DenseRows.copy(h, from, to, msg);
    }
  }

  @Override
  public void transformRows(GraphBlock g, DenseMatrix h, int[] nodes, int count, DenseMatrix msg, DenseMatrix self) {
    LayerChecks.transform(this, g, h, count, msg, self);
    DenseRows.multiplyScattered(h, nodes, count, weightSelf, self, spec.out(), null);
    if (transformFirst) {
      DenseRows.multiplyScattered(h, nodes, count, weightNeigh, msg, spec.out(), null);
    } else {
      DenseRows.copyScattered(h, nodes, count, msg);
    }
  }

  @Override
  public int linearWidth() {
    return spec.out() + messageWidth();
  }

  /** {@code [H W_self | H W_neigh]}, or {@code [H W_self | H]} when aggregating before the transform. */
  @Override
  public void linear(DenseMatrix h, int from, int to, DenseMatrix lin) {
    DenseRows.multiplyInto(h, from, to, weightSelf, lin, 0);
    if (transformFirst) {
      DenseRows.multiplyInto(h, from, to, weightNeigh, lin, spec.out());
    } else {
      for (int r = from; r < to; r++) {
        System.arraycopy(h.data(), h.offset(r), lin.data(), lin.offset(r) + spec.out(), spec.in());
      }
    }
  }

  @Override
  public void completeTransform(GraphBlock g, DenseMatrix lin, int from, int to, DenseMatrix msg,
      DenseMatrix self) {
    DenseRows.copyColumns(lin, 0, spec.out(), from, to, self);
    DenseRows.copyColumns(lin, spec.out(), messageWidth(), from, to, msg);
  }

  @Override
  public void aggregate(GraphBlock g, DenseMatrix msg, DenseMatrix self, int from, int to, DenseMatrix out) {
    LayerChecks.aggregate(this, g, msg, self, to, out);
    if (self == out) {
      addMeansOverSelf(g, msg, from, to, out);
      return;
    }
    if (transformFirst) {
      meanRows(g.inEdges(), msg, spec.out(), from, to, out.data(), out.offset(from), out.cols());
    } else {
      int in = spec.in();
      float[] mean = Scratch.floats(Scratch.AGGREGATE, Math.min(BLOCK, Math.max(to - from, 1)) * in);
      for (int b = from; b < to; b += BLOCK) {
        int m = Math.min(BLOCK, to - b);
        meanRows(g.inEdges(), msg, in, b, b + m, mean, 0, in);
        Gemm.multiply(mean, 0, in, m, weightNeigh, out.data(), out.offset(b), out.cols());
      }
    }
    int n = spec.out();
    float[] od = out.data();
    for (int i = from; i < to; i++) {
      int o = out.offset(i);
      SparseRows.axpy(1f, self.data(), self.offset(i), od, o, n);
      finishOutput(od, o, n);
    }
  }

  /**
   * {@link #aggregate} with the self rows already in {@code out} ({@link #selfOverInput}): the means go through a
   * block buffer and are added to them (the same sums as self added to the means: float addition commutes).
   */
  private void addMeansOverSelf(GraphBlock g, DenseMatrix msg, int from, int to, DenseMatrix out) {
    if (!selfOverInput()) {
      throw new IllegalArgumentException("sage " + spec.in() + " -> " + spec.out() + ": no self rows in the output");
    }
    int n = spec.out();
    float[] mean = Scratch.floats(Scratch.AGGREGATE, Math.min(BLOCK, Math.max(to - from, 1)) * n);
    float[] od = out.data();
    for (int b = from; b < to; b += BLOCK) {
      int m = Math.min(BLOCK, to - b);
      meanRows(g.inEdges(), msg, n, b, b + m, mean, 0, n);
      for (int i = b; i < b + m; i++) {
        int o = out.offset(i);
        SparseRows.axpy(1f, mean, (i - b) * n, od, o, n);
        finishOutput(od, o, n);
      }
    }
  }

  /** Sends {@code H_j W_neigh} (the messages are the output's width) and keeps rows of the input's width. */
  @Override
  public boolean selfOverInput() {
    return transformFirst && spec.in() == spec.out();
  }

  /** Mean of the first {@code n} message columns over each row's edges, rows {@code [from, to)} to dest. */
  private static void meanRows(Csr c, DenseMatrix msg, int n, int from, int to, float[] dest, int destOff,
      int ldd) {
    int[] rowPtr = c.rowPtr();
    for (int i = from; i < to; i++) {
      int o = destOff + (i - from) * ldd;
      Arrays.fill(dest, o, o + n, 0f);
      int start = rowPtr[i];
      int end = rowPtr[i + 1];
      SparseRows.gather(c.colIdx(), start, end, null, 0, null, SparseRows.NO_SKIP, msg.data(), 0,
          msg.cols(), dest, o, n);
      if (end - start > 1) {
        SparseRows.scale(1f / (end - start), dest, o, n);
      }
    }
  }
}
