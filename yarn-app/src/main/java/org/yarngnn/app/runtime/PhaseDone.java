package org.yarngnn.app.runtime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;

/**
 * A worker finished {@code phase} (for {@link Phase#LAYER}, layer {@code layer}) with {@code result}, and its
 * {@code gauges} at that moment (bytes sent and received so far, heap: {@link WorkerSession.Role#gauges}, for the
 * job page; often empty). The driver checks that it answers the round it is waiting for.
 *
 * <p>Wire form: phase code (byte), layer (vint), the result ({@link PhaseResult#write}), the gauges
 * ({@link PhaseResult#writeFigures}; a count of 0 when there are none).
 */
public record PhaseDone(Phase phase, int layer, PhaseResult result, Map<String, Double> gauges) implements Message {
  public static final byte TYPE = 37;

  public PhaseDone {
    if (phase == null || layer < 0 || result == null || gauges == null) {
      throw new IllegalArgumentException("bad answer " + phase + " " + layer + " " + result);
    }
    gauges = Collections.unmodifiableMap(new LinkedHashMap<>(gauges));
  }

  public PhaseDone(Phase phase, int layer, PhaseResult result) {
    this(phase, layer, result, Map.of());
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return PhaseResult.sizeHint(result) + 1 + 40 * gauges.size();
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeByte(phase.ordinal());
    out.writeVInt(layer);
    PhaseResult.write(result, out);
    PhaseResult.writeFigures(gauges, out);
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
    PhaseResult result = PhaseResult.read(in);
    return new PhaseDone(phase, layer, result, PhaseResult.readFigures(in, "gauges"));
  }
}
