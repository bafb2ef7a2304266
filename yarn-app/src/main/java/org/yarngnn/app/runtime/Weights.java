package org.yarngnn.app.runtime;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;

/**
 * The parameter server hands out the model's flat weights ({@code values}, laid out as
 * {@link org.yarngnn.compute.train.Parameters}) as version {@code version}: 0 for the initial weights, v + 1 after
 * the step that summed the gradients computed on version v. Workers compute on the latest version they hold and
 * tag their {@link WeightGradients} with it, so a parameter server can tell how stale a gradient is.
 *
 * <p>Wire form: version (vlong), the values (vint count, bounded by the frame, then float32 each).
 */
public record Weights(long version, float[] values) implements Message {
  public static final byte TYPE = 41;

  public Weights {
    if (version < 0 || values == null) {
      throw new IllegalArgumentException("weights of version " + version);
    }
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 16 + 4 * values.length;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVLong(version);
    out.writeFloatArray(values);
  }

  public static Weights read(FrameReader in) {
    long version = in.readVLong();
    if (version < 0) {
      throw new MalformedFrameException("weights of version " + version);
    }
    return new Weights(version, in.readFloatArray());
  }
}
