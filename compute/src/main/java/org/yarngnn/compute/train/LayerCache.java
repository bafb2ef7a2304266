package org.yarngnn.compute.train;

import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * What a layer's forward keeps for its backward, for one block: the dropped-out input the transform read, the
 * message and self rows, the output rows (post-activation: every activation's derivative is taken from its
 * output, see {@link org.yarngnn.compute.kernel.Activation#derivativeFromOutput}), a per-destination work row
 * {@code dAux} of the backward, and for gat the attention coefficients and their score gradients. Dropout masks
 * are not stored: they are pure functions of their keys ({@link Dropout}) and are recomputed.
 */
public final class LayerCache {
  /** The transform's input (after dropout), own rows. */
  public DenseMatrix hDrop;
  /** Message rows of every slot (own rows from the transform, halo rows from peers). */
  public DenseMatrix msg;
  /** Self rows of own nodes, or null. */
  public DenseMatrix self;
  /** Output rows of own nodes (post-activation). */
  public DenseMatrix out;
  /** Backward work rows, one per own node, output width: gcn {@code dPre / sqrt(d_i)}, sage
   * {@code dPre / |S(i)|}, gat {@code dPre}. */
  public final DenseMatrix dAux;
  /** gcn: {@code 1/sqrt(d_v)} of own nodes. */
  public float[] invSqrtDegree;
  /**
   * gat: softmax coefficients (before attention dropout), per destination i its in-edges then the added
   * self-loop, heads interleaved: index {@code ((rowPtr[i] + i) + k) * heads + h}; {@code k = deg_i} is the
   * self-loop. 4 bytes per (edge + node) and head.
   */
  public float[] alpha;
  /** gat: the gradient of the pre-softmax scores (LeakyReLU input side), same layout as {@link #alpha}. */
  public float[] dScore;
  /** Whether the forward ran in training mode (dropout on). */
  public boolean training;
  public long seed;
  public long epoch;

  LayerCache(int rows, int outWidth) {
    this.dAux = new DenseMatrix(rows, outWidth);
  }

  /** gat buffers for {@code entries} (edges + nodes) x heads values, reused when large enough. */
  void ensureAttention(long entries) {
    if (entries > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("too many attention coefficients for one block: " + entries);
    }
    if (alpha == null || alpha.length < entries) {
      alpha = new float[(int) entries];
      dScore = new float[(int) entries];
    }
  }
}
