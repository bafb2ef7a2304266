package org.yarngnn.app.runtime;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;

/**
 * A worker gives up: the kind says how the job ends, {@code message} is the one line the user reads (for bad
 * input it already names the file and row or the option), {@code phase} is where it happened.
 *
 * <p>Wire form: kind code (byte), worker (vint), phase code (byte), message (string).
 */
public record WorkerFailure(FailureKind kind, int worker, Phase phase, String message) implements Message {
  public static final byte TYPE = 38;
  /** Longest message kept: a reason is one line, and a peer must not make the driver hold more. */
  static final int MAX_MESSAGE_CHARS = 4000;

  public WorkerFailure {
    if (kind == null || phase == null || worker < 0) {
      throw new IllegalArgumentException("bad failure " + kind + " " + worker + " " + phase);
    }
    message = message == null ? "" : message.length() > MAX_MESSAGE_CHARS
        ? message.substring(0, MAX_MESSAGE_CHARS) : message;
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 16 + message.length() * 3;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeByte(kind.ordinal());
    out.writeVInt(worker);
    out.writeByte(phase.ordinal());
    out.writeString(message);
  }

  public static WorkerFailure read(FrameReader in) {
    FailureKind kind = FailureKind.ofCode(in.readByte());
    int worker = in.readVInt();
    Phase phase = Phase.ofCode(in.readByte());
    if (kind == null || phase == null || worker < 0) {
      throw new MalformedFrameException("malformed worker failure");
    }
    return new WorkerFailure(kind, worker, phase, in.readString());
  }
}
