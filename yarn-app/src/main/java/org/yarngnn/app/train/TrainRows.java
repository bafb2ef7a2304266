package org.yarngnn.app.train;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;

/**
 * The driver tells every training worker the global number of {@code train} rows (the loss is their mean), once
 * the workers counted their partitions' labels. Wire form: vLong count (at least 1).
 */
record TrainRows(long count) implements Message {
  static final byte TYPE = 53;

  TrainRows {
    if (count < 1) {
      throw new IllegalArgumentException("a training of " + count + " train rows");
    }
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVLong(count);
  }

  static TrainRows read(FrameReader in) {
    long n = in.readVLong();
    if (n < 1) {
      throw new MalformedFrameException("train rows " + n);
    }
    return new TrainRows(n);
  }
}
