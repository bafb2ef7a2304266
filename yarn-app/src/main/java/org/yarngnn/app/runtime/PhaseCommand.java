package org.yarngnn.app.runtime;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;
import org.yarngnn.partition.Ownership;

/**
 * The driver tells every worker to run {@code phase}: {@code layer} for the per-layer phases ({@link Phase#LAYER},
 * {@link Phase#FORWARD}, {@link Phase#BACKWARD}, {@link Phase#EVALUATE}; 0 otherwise), the training
 * {@code epoch} (1-based; 0 outside training's epochs), and the ownership every worker routes by for
 * {@link Phase#ROUTE_NODES} (null otherwise).
 *
 * <p>Wire form: phase code (byte), layer (vint), epoch (vint), then for ROUTE_NODES the parts (vint) and the dense
 * range's node count plus one (vlong; 0 for hash ownership).
 */
public record PhaseCommand(Phase phase, int layer, int epoch, Ownership ownership) implements Message {
  public static final byte TYPE = 36;
  /** More partitions than any job runs; a larger count in a frame is corrupt. */
  static final int MAX_PARTS = 1 << 20;

  public PhaseCommand {
    if (phase == null || layer < 0 || epoch < 0 || (phase == Phase.ROUTE_NODES) != (ownership != null)) {
      throw new IllegalArgumentException("bad command " + phase + " " + layer + " " + epoch + " " + ownership);
    }
  }

  public PhaseCommand(Phase phase) {
    this(phase, 0, 0, null);
  }

  public PhaseCommand(Phase phase, int layer, Ownership ownership) {
    this(phase, layer, 0, ownership);
  }

  /** Whether {@code phase} runs one layer (its commands may name a layer other than 0). */
  public static boolean perLayer(Phase phase) {
    return phase == Phase.LAYER || phase == Phase.FORWARD || phase == Phase.BACKWARD || phase == Phase.EVALUATE
        || phase == Phase.REJOIN;
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeByte(phase.ordinal());
    out.writeVInt(layer);
    out.writeVInt(epoch);
    if (ownership != null) {
      out.writeVInt(ownership.parts());
      out.writeVLong(ownership.isRange() ? ownership.rangeNodes() + 1 : 0);
    }
  }

  public static PhaseCommand read(FrameReader in) {
    Phase phase = Phase.ofCode(in.readByte());
    if (phase == null) {
      throw new MalformedFrameException("command of an unknown phase");
    }
    int layer = in.readVInt();
    if (layer < 0) {
      throw new MalformedFrameException("command for layer " + layer);
    }
    int epoch = in.readVInt();
    if (epoch < 0) {
      throw new MalformedFrameException("command for epoch " + epoch);
    }
    Ownership own = null;
    if (phase == Phase.ROUTE_NODES) {
      int parts = in.readVInt();
      long range = in.readVLong();
      if (parts < 1 || parts > MAX_PARTS || range < 0) {
        throw new MalformedFrameException("ownership of " + parts + " parts, range " + (range - 1));
      }
      own = range == 0 ? Ownership.hash(parts) : Ownership.ranges(parts, range - 1);
    } else if (layer != 0 && !perLayer(phase)) {
      throw new MalformedFrameException(phase + " command with layer " + layer);
    }
    return new PhaseCommand(phase, layer, epoch, own);
  }
}
