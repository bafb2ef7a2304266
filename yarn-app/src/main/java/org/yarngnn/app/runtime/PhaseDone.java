package org.yarngnn.app.runtime;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;

/**
 * A worker finished {@code phase} (for {@link Phase#LAYER}, layer {@code layer}) with {@code result}. The driver
 * checks that it answers the round it is waiting for.
 *
 * <p>Wire form: phase code (byte), layer (vint), the result ({@link PhaseResult#write}).
 */
public record PhaseDone(Phase phase, int layer, PhaseResult result) implements Message {
  public static final byte TYPE = 37;

  public PhaseDone {
    if (phase == null || layer < 0 || result == null) {
      throw new IllegalArgumentException("bad answer " + phase + " " + layer + " " + result);
    }
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return PhaseResult.sizeHint(result);
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeByte(phase.ordinal());
    out.writeVInt(layer);
    PhaseResult.write(result, out);
  }

  public static PhaseDone read(FrameReader in) {
    Phase phase = Phase.ofCode(in.readByte());
    if (phase == null) {
      throw new MalformedFrameException("answer to an unknown phase");
    }
    int layer = in.readVInt();
    if (layer < 0) {
      throw new MalformedFrameException("answer for layer " + layer);
    }
    return new PhaseDone(phase, layer, PhaseResult.read(in));
  }
}
