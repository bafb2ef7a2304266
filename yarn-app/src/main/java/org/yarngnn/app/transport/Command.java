package org.yarngnn.app.transport;

import java.util.Arrays;

/**
 * A driver-to-worker instruction: a name ("start-round", "load", "shutdown", ...), one number (typically the
 * round) and an opaque payload the named command defines.
 */
public record Command(String name, long arg, byte[] payload) implements Message {
  private static final byte[] EMPTY = new byte[0];

  public Command {
    if (name == null) {
      throw new IllegalArgumentException("command without name");
    }
    payload = payload == null ? EMPTY : payload;
  }

  public Command(String name, long arg) {
    this(name, arg, EMPTY);
  }

  @Override
  public byte type() {
    return MessageCodec.COMMAND;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeString(name);
    out.writeVLong(arg);
    out.writeBytes(payload);
  }

  @Override
  public int bodySizeHint() {
    return 16 + name.length() * 3 + payload.length;
  }

  /** Bounds: the name's and the payload's byte counts each at most the bytes left ({@link FrameReader}). */
  static Command read(FrameReader in) {
    return new Command(in.readString(), in.readVLong(), in.readBytes());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Command c && c.name.equals(name) && c.arg == arg && Arrays.equals(c.payload, payload);
  }

  @Override
  public int hashCode() {
    return (name.hashCode() * 31 + Long.hashCode(arg)) * 31 + Arrays.hashCode(payload);
  }

  @Override
  public String toString() {
    return "Command[" + name + ", " + arg + ", " + payload.length + " payload bytes]";
  }
}
