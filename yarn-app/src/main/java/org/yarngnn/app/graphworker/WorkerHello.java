package org.yarngnn.app.graphworker;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.Message;

/**
 * First message on a worker-to-worker connection, from the connecting (lower-numbered) worker: who is calling, and
 * the mesh generation it connects at (0 at the job's start, one more after each replaced worker rejoined).
 * {@link WorkerMesh} delivers nothing from a connection before it, and refuses an index out of range, its own, a
 * higher one, or one already connected at this generation or a newer one.
 */
record WorkerHello(int worker, int generation) implements Message {
  static final byte TYPE = 35;

  WorkerHello(int worker) {
    this(worker, 0);
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeVInt(worker);
    out.writeVInt(generation);
  }

  @Override
  public int bodySizeHint() {
    return 10;
  }

  /** Bounds: a non-negative index (its range is the mesh's to check) and generation; nothing may follow. */
  static WorkerHello read(FrameReader in) {
    int worker = FrameReader.nonNegative(in.readVInt(), "worker index");
    return new WorkerHello(worker, FrameReader.nonNegative(in.readVInt(), "mesh generation"));
  }
}
