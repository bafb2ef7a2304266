package org.yarngnn.app.graphworker;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.Message;

/**
 * A worker's end marker of one construction phase, sent to every peer after the last of its blocks of that phase
 * (so it follows them on the connection); {@link PhaseEnds} counts them per peer. Wire form: vInt phase.
 */
record PhaseEnd(int phase) implements Message {
  static final byte TYPE = 52;

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVInt(phase);
  }

  static PhaseEnd read(FrameReader in) {
    return new PhaseEnd(FrameReader.nonNegative(in.readVInt(), "phase"));
  }
}
