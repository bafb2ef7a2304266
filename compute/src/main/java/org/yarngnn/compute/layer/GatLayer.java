package org.yarngnn.compute.layer;

import java.util.Arrays;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.kernel.EdgeSoftmax;
import org.yarngnn.compute.kernel.PackedMatrix;
import org.yarngnn.compute.kernel.Sddmm;
import org.yarngnn.compute.kernel.SparseRows;
import org.yarngnn.compute.model.LayerSpec;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Graph attention (Velickovic et al.), as the contract defines it: per head h, {@code Z = H W_h};
 * {@code e_ij = LeakyReLU(a_src_h . Z_j + a_dst_h . Z_i, negative_slope)} for {@code j in N(i) u {i}} (input
 * self-loops ignored, exactly one self-loop added; parallel edges count once each); {@code alpha = softmax over
 * j}; head output {@code sum_j alpha_ij Z_j}; heads concatenated or averaged; then {@code + b}, then {@code act}.
 * Edge weights are ignored.
 * <p>Message row of node j ({@code heads*out + heads} wide): {@code Z_j} (head h in columns
 * {@code h*out..h*out+out-1}) followed by the per-head source scores {@code a_src_h . Z_j,h}. No self row:
 * aggregate computes the destination scores from the node's own message row.
 */
public final class GatLayer extends BaseLayer {
  private final int heads;
  private final int width;
  private final PackedMatrix weight;
  private final float[] attnSrc;
  private final float[] attnDst;

  /**
   * {@code weight} is [in, heads*out]; {@code attnSrc} and {@code attnDst} are [heads, out] row-major;
   * {@code bias} has {@code heads*out} values when concatenating, {@code out} when averaging, or is null.
   */
  public GatLayer(LayerSpec spec, DenseMatrix weight, float[] attnSrc, float[] attnDst, float[] bias) {
    super(spec, bias);
    int hw = spec.heads() * spec.out();
    if (spec.heads() < 1 || weight.rows() != spec.in() || weight.cols() != hw || attnSrc.length != hw
        || attnDst.length != hw) {
      throw new IllegalArgumentException("gat weights for in " + spec.in() + ", out " + spec.out() + ", heads "
          + spec.heads() + ": weight " + weight + ", attn " + attnSrc.length + "/" + attnDst.length);
    }
    this.heads = spec.heads();
    this.width = spec.out();
    this.weight = PackedMatrix.pack(weight);
    this.attnSrc = attnSrc.clone();
    this.attnDst = attnDst.clone();
  }

  @Override
  public int messageWidth() {
    return heads * width + heads;
  }

  @Override
  public int selfWidth() {
    return 0;
  }

  /** Appends the source scores after Z in a message row. */
  private void sourceScores(int node, float[] buf, int off) {
    for (int h = 0; h < heads; h++) {
      buf[off + heads * width + h] = SparseRows.dot(attnSrc, h * width, buf, off + h * width, width);
    }
  }

  @Override
  public void transform(GraphBlock g, DenseMatrix h, int from, int to, DenseMatrix msg, DenseMatrix self) {
    LayerChecks.transform(this, g, h, to, msg, self);
    DenseRows.multiply(h, from, to, weight, msg, this::sourceScores);
  }

  @Override
  public void transformRows(GraphBlock g, DenseMatrix h, int[] nodes, int count, DenseMatrix msg, DenseMatrix self) {
    LayerChecks.transform(this, g, h, count, msg, self);
    DenseRows.multiplyScattered(h, nodes, count, weight, msg, messageWidth(), this::sourceScores);
  }

  @Override
  public int linearWidth() {
    return heads * width;
  }

  @Override
  public void linear(DenseMatrix h, int from, int to, DenseMatrix lin) {
    DenseRows.multiplyInto(h, from, to, weight, lin, 0);
  }

  @Override
  public void completeTransform(GraphBlock g, DenseMatrix lin, int from, int to, DenseMatrix msg,
      DenseMatrix self) {
    DenseRows.copyColumns(lin, 0, heads * width, from, to, msg);
    for (int r = from; r < to; r++) {
      sourceScores(r, msg.data(), msg.offset(r));
    }
  }

  @Override
  public void aggregate(GraphBlock g, DenseMatrix msg, DenseMatrix self, int from, int to, DenseMatrix out) {
    LayerChecks.aggregate(this, g, msg, self, to, out);
    Csr c = g.inEdges();
    int[] rowPtr = c.rowPtr();
    int[] col = c.colIdx();
    float[] md = msg.data();
    int ldm = msg.cols();
    int scoreCol = heads * width;
    float slope = spec.negativeSlope();
    boolean concat = spec.concat();
    float[] od = out.data();
    int outW = outWidth();
    for (int i = from; i < to; i++) {
      int start = rowPtr[i];
      int deg = rowPtr[i + 1] - start;
      int mi = msg.offset(i);
      // Head h's scores at s[h*(deg+1) + k]: k < deg for the row's edges (self-loops masked with -inf so they
      // get weight 0), k = deg for the one added self-loop.
      float[] s = Scratch.floats(Scratch.AGGREGATE, heads * (deg + 1));
      for (int h = 0; h < heads; h++) {
        float dst = SparseRows.dot(attnDst, h * width, md, mi + h * width, width);
        int base = h * (deg + 1);
        for (int k = 0; k < deg; k++) {
          int j = col[start + k];
          s[base + k] = j == i ? Float.NEGATIVE_INFINITY : Sddmm.leakyRelu(md[j * ldm + scoreCol + h] + dst, slope);
        }
        s[base + deg] = Sddmm.leakyRelu(md[mi + scoreCol + h] + dst, slope);
        EdgeSoftmax.softmax(s, base, deg + 1, 1);
        if (!concat && heads > 1) {
          SparseRows.scale(1f / heads, s, base, deg + 1);
        }
      }
      int o = out.offset(i);
      Arrays.fill(od, o, o + outW, 0f);
      for (int h = 0; h < heads; h++) {
        int base = h * (deg + 1);
        int oh = concat ? o + h * width : o;
        SparseRows.gather(col, start, start + deg, s, base - start, null, i, md, h * width, ldm, od, oh, width);
        SparseRows.axpy(s[base + deg], md, mi + h * width, od, oh, width);
      }
      finishOutput(od, o, outW);
    }
  }
}
