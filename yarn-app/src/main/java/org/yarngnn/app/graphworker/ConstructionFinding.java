package org.yarngnn.app.graphworker;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;
import org.yarngnn.partition.InputFinding;

/**
 * A worker's first bad-input finding of construction, or none ({@code error} null), sent to every peer after its
 * edge phase: each worker then reports the smallest of all ({@link InputFinding#min}), so the job names the first
 * offending row in table order whichever worker found it, as the partition job does.
 */
record ConstructionFinding(InputFinding error) implements Message {
  static final byte TYPE = 40;

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeBoolean(error != null);
    if (error != null) {
      out.writeVInt(error.table());
      out.writeVInt(error.file());
      out.writeLong(error.row());
      out.writeVInt(error.column());
      out.writeBoolean(error.formatted());
      out.writeString(error.message());
    }
  }

  static ConstructionFinding read(FrameReader in) {
    if (!in.readBoolean()) {
      return new ConstructionFinding(null);
    }
    int table = in.readVInt();
    int file = in.readVInt();
    long row = in.readLong();
    int column = in.readVInt();
    boolean formatted = in.readBoolean();
    String message = in.readString();
    if (table < 0 || file < 0) {
      throw new MalformedFrameException("construction finding in table " + table + ", file " + file);
    }
    return new ConstructionFinding(new InputFinding(table, file, row, column, message, formatted));
  }
}
