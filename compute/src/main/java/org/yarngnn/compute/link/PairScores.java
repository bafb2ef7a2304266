package org.yarngnn.compute.link;

import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * Dot-product scores of node pairs and their backward: {@code score(u, v) = z_u . z_v} over output rows, and for
 * a model whose {@code output.normalize} is {@code l2} the rows are unit-normalised first (the score is then the
 * cosine), with the normalisation's backward, so the scores are those of the embeddings {@code infer} writes.
 */
public final class PairScores {
  private PairScores() {}

  /** The dot product of row {@code ra} of {@code a} and row {@code rb} of {@code b} (equal widths), in double. */
  public static float dot(DenseMatrix a, int ra, DenseMatrix b, int rb) {
    float[] x = a.data();
    float[] y = b.data();
    int xo = a.offset(ra);
    int yo = b.offset(rb);
    double s = 0;
    for (int c = 0; c < a.cols(); c++) {
      s += (double) x[xo + c] * y[yo + c];
    }
    return (float) s;
  }

  /** {@code dA[ra] += g * b[rb]}: the gradient a score's derivative {@code g} sends to one side of the pair. */
  public static void addScaledRow(float g, DenseMatrix b, int rb, DenseMatrix dA, int ra) {
    float[] y = b.data();
    float[] d = dA.data();
    int yo = b.offset(rb);
    int o = dA.offset(ra);
    for (int c = 0; c < b.cols(); c++) {
      d[o + c] += g * y[yo + c];
    }
  }

  /**
   * {@code output.normalize l2}: {@code out} row r = {@code z_r / |z_r|} (a zero row stays zero) and
   * {@code norms[r] = |z_r|}; rows {@code [from, to)}.
   */
  public static void normalize(DenseMatrix z, DenseMatrix out, float[] norms, int from, int to) {
    int w = z.cols();
    for (int r = from; r < to; r++) {
      int o = z.offset(r);
      double s = 0;
      for (int c = 0; c < w; c++) {
        s += (double) z.data()[o + c] * z.data()[o + c];
      }
      float norm = (float) Math.sqrt(s);
      norms[r] = norm;
      int q = out.offset(r);
      for (int c = 0; c < w; c++) {
        out.data()[q + c] = norm > 0 ? z.data()[o + c] / norm : 0f;
      }
    }
  }

  /**
   * Backward of {@link #normalize}, in place on {@code d}: row r of {@code d} (the gradient with respect to the
   * unit row {@code u_r}) becomes {@code (d_r - u_r (u_r . d_r)) / |z_r|}, zero for a zero row.
   */
  public static void normalizeBackward(DenseMatrix unit, float[] norms, DenseMatrix d, int from, int to) {
    int w = d.cols();
    for (int r = from; r < to; r++) {
      int uo = unit.offset(r);
      int o = d.offset(r);
      if (norms[r] == 0f) {
        java.util.Arrays.fill(d.data(), o, o + w, 0f);
        continue;
      }
      double dot = 0;
      for (int c = 0; c < w; c++) {
        dot += (double) unit.data()[uo + c] * d.data()[o + c];
      }
      for (int c = 0; c < w; c++) {
        d.data()[o + c] = (float) ((d.data()[o + c] - unit.data()[uo + c] * dot) / norms[r]);
      }
    }
  }

  /**
   * The loss of positives {@code src[i] -> dst[i]} against negatives {@code negRow[i*k .. i*k+k)} (rows of
   * {@code z}, which may hold fetched rows of other workers after its own), scores by {@link #dot}; returns the
   * loss sum of {@link LinkLoss#lossAndGradient} and adds the gradient of (loss * scale) with respect to the rows
   * into {@code dZ} (same shape as {@code z}): each score sends {@code g * z_v} to u and {@code g * z_u} to v.
   * {@code pos}, {@code neg}, {@code dPos}, {@code dNeg} are scratch of sizes P and P * k.
   */
  public static double lossAndGradient(DenseMatrix z, int[] src, int[] dst, int[] negRow, int k, LinkLoss.Kind kind,
      double temperature, float scale, float[] pos, float[] neg, float[] dPos, float[] dNeg, DenseMatrix dZ) {
    int p = src.length;
    for (int i = 0; i < p; i++) {
      pos[i] = dot(z, src[i], z, dst[i]);
      for (int j = 0; j < k; j++) {
        neg[i * k + j] = dot(z, src[i], z, negRow[i * k + j]);
      }
    }
    double loss = LinkLoss.lossAndGradient(kind, temperature, pos, neg, k, 0, p, scale, dPos, dNeg);
    for (int i = 0; i < p; i++) {
      addScaledRow(dPos[i], z, dst[i], dZ, src[i]);
      addScaledRow(dPos[i], z, src[i], dZ, dst[i]);
      for (int j = 0; j < k; j++) {
        int q = negRow[i * k + j];
        addScaledRow(dNeg[i * k + j], z, q, dZ, src[i]);
        addScaledRow(dNeg[i * k + j], z, src[i], dZ, q);
      }
    }
    return loss;
  }
}
