package org.yarngnn.app.runtime;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;

/**
 * One worker's gradient of every weight ({@code values}, laid out as the {@link Weights} it computed on), from
 * its share of the loss, computed on weights of version {@code version}. Travels inside a
 * {@link PhaseResult.TrainStep} to a driver that runs the parameter server, or alone to a parameter server of its
 * own (the wire form is the same).
 *
 * <p>Wire form: version (vlong), the values (vint count, bounded by the frame, then float32 each).
 */
public record WeightGradients(long version, float[] values) implements Message {
  public static final byte TYPE = 42;

  public WeightGradients {
    if (version < 0 || values == null) {
      throw new IllegalArgumentException("gradients of version " + version);
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

  public static WeightGradients read(FrameReader in) {
    long version = in.readVLong();
    if (version < 0) {
      throw new MalformedFrameException("gradients of version " + version);
    }
    return new WeightGradients(version, in.readFloatArray());
  }
}
