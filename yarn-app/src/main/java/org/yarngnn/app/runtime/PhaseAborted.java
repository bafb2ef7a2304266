package org.yarngnn.app.runtime;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;

/**
 * A worker stopped {@code phase} (layer {@code layer}) because a peer was lost, and waits for the driver: in a job
 * that replaces lost workers this is the answer of a survivor, which the driver collects before it brings the
 * replacement in and runs the phase again ({@link WorkerRecovery}). {@code reason} is one line for the log.
 *
 * <p>Wire form: phase code (byte), layer (vint), reason (string).
 */
public record PhaseAborted(Phase phase, int layer, String reason) implements Message {
  public static final byte TYPE = 60;
  static final int MAX_REASON_CHARS = 1000;

  public PhaseAborted {
    if (phase == null || layer < 0) {
      throw new IllegalArgumentException("bad abort " + phase + " " + layer);
    }
    reason = reason == null ? "" : reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS)
        : reason;
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 16 + reason.length() * 3;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeByte(phase.ordinal());
    out.writeVInt(layer);
    out.writeString(reason);
  }

  public static PhaseAborted read(FrameReader in) {
    Phase phase = Phase.ofCode(in.readByte());
    int layer = in.readVInt();
    if (phase == null || layer < 0) {
      throw new MalformedFrameException("malformed phase abort");
    }
    return new PhaseAborted(phase, layer, in.readString());
  }
}
