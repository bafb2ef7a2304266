package org.yarngnn.app.infer;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.Message;

/**
 * First message on a worker-to-worker connection, from the connecting (lower-numbered) worker: who is calling.
 * {@link WorkerMesh} delivers nothing from a connection before it, and refuses an index out of range, its own, a
 * higher one or one already connected.
 */
record WorkerHello(int worker) implements Message {
  static final byte TYPE = 35;

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVInt(worker);
  }

  @Override
  public int bodySizeHint() {
    return 5;
  }

  /** Bounds: a non-negative index (its range is the mesh's to check); nothing may follow. */
  static WorkerHello read(FrameReader in) {
    return new WorkerHello(FrameReader.nonNegative(in.readVInt(), "worker index"));
  }
}
