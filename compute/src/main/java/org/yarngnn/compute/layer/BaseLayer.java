package org.yarngnn.compute.layer;

import org.yarngnn.compute.kernel.SparseRows;
import org.yarngnn.compute.model.LayerSpec;

/** What every layer holds the same way: its spec, optional bias, widths, and the bias-then-activation step. */
abstract class BaseLayer implements Layer {
  final LayerSpec spec;
  /** Bias of {@code spec.outputWidth()} values, or null. */
  final float[] bias;

  BaseLayer(LayerSpec spec, float[] bias) {
    if (bias != null && bias.length != spec.outputWidth()) {
      throw new IllegalArgumentException(spec.type().jsonName() + " bias of " + bias.length
          + " values for output width " + spec.outputWidth());
    }
    this.spec = spec;
    this.bias = bias == null ? null : bias.clone();
  }

  @Override
  public final LayerSpec spec() {
    return spec;
  }

  @Override
  public final int inWidth() {
    return spec.in();
  }

  @Override
  public final int outWidth() {
    return spec.outputWidth();
  }

  /** Adds the bias (when there is one) to {@code out[o..o+n)} and applies the activation, in place. */
  final void finishOutput(float[] out, int o, int n) {
    if (bias != null) {
      SparseRows.axpy(1f, bias, 0, out, o, n);
    }
    spec.activation().apply(out, o, o + n);
  }
}
