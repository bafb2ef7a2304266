package org.yarngnn.compute.train;

import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * What a layer's forward keeps for its backward, for one block: the transform's input and its dropout mask
 * ({@link DroppedInput}: the dropped-out rows are regenerated, not stored), the message and self rows, the output
 * rows (post-activation: every activation's derivative is taken from its output, see
 * {@link org.yarngnn.compute.kernel.Activation#derivativeFromOutput}), the per-destination work rows {@code dAux}
 * of the backward, and for gat the attention coefficients and their score gradients. The matrices are set by
 * {@link LayerStep}, which may share their arrays with other layers' buffers of other lifetimes.
 */
public final class LayerCache {
  /** The transform's input (own rows) and its dropout. */
  final DroppedInput input;
  /** Message rows of every slot (own rows from the transform, halo rows from peers). */
  public DenseMatrix msg;
  /** Self rows of own nodes, or null. */
  public DenseMatrix self;
  /** Output rows of own nodes (post-activation). */
  public DenseMatrix out;
  /** Backward work rows, one per own node, output width: gcn {@code dPre / sqrt(d_i)}, sage and gat
   * {@code dPre} (for sage also the gradient of the self rows). */
  public DenseMatrix dAux;
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

  LayerCache(int inWidth) {
    this.input = new DroppedInput(inWidth);
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
