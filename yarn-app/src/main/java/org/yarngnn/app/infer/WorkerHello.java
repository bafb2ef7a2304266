package org.yarngnn.app.infer;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.Message;

/** First message on a worker-to-worker connection: who is calling. Also acknowledges construction blocks. */
record WorkerHello(int worker, long ack) implements Message {
  static final byte TYPE = 35;

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVInt(worker);
    out.writeVLong(ack);
  }

  static WorkerHello read(FrameReader in) {
    return new WorkerHello(in.readVInt(), in.readVLong());
  }
}
