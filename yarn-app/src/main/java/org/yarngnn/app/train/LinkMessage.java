package org.yarngnn.app.train;

import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;

/**
 * One chunk of a link-prediction exchange between two graph workers ({@link LinkExchange}): {@code kind} says what
 * the payload is, {@code round} which exchange of the phase it belongs to, {@code last} whether it ends the
 * sender's payload of that kind and round. A payload is ids ({@code ids}) or rows ({@code values}), never both.
 *
 * <p>Wire form: kind (byte), round (vint), last (boolean), ids (vint count, bounded by the frame, then int64
 * each), values (vint count, bounded by the frame, then float32 each).
 */
record LinkMessage(byte kind, int round, boolean last, long[] ids, float[] values) implements Message {
  static final byte TYPE = 54;

  /** Every node id a worker owns, ascending (the negatives' candidates). */
  static final byte CANDIDATES = 1;
  /** The in-degree of each candidate, in the order of {@link #CANDIDATES}. */
  static final byte DEGREES = 2;
  /** Pairs (source, candidate) asking whether source -> candidate is an edge in any split; first the sender's
   * count of undecided evaluation negatives (every worker stops once all counts were 0). */
  static final byte MEMBERSHIP = 3;
  /** One bit per {@link #MEMBERSHIP} pair, 64 to a long: whether it is an edge. */
  static final byte MEMBERSHIP_ANSWER = 4;
  /** Node ids whose output rows the sender needs, strictly ascending, all owned by the receiver. */
  static final byte ROW_REQUEST = 5;
  /** The rows of a {@link #ROW_REQUEST}, in its order. */
  static final byte ROWS = 6;
  /** The gradients of the rows of the receiver's {@link #ROWS} answer, in the same order. */
  static final byte ROW_GRADIENTS = 7;
  static final byte MAX_KIND = ROW_GRADIENTS;

  static final long[] NO_IDS = new long[0];
  static final float[] NO_VALUES = new float[0];

  LinkMessage {
    if (kind < 1 || kind > MAX_KIND || round < 0 || (ids.length > 0 && values.length > 0)) {
      throw new IllegalArgumentException("link message of kind " + kind + ", round " + round);
    }
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 16 + 8 * ids.length + 4 * values.length;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeByte(kind);
    out.writeVInt(round);
    out.writeBoolean(last);
    out.writeVInt(ids.length);
    for (long id : ids) {
      out.writeLong(id);
    }
    out.writeFloatArray(values);
  }

  static LinkMessage read(FrameReader in) {
    byte kind = in.readByte();
    int round = in.readVInt();
    boolean last = in.readBoolean();
    if (kind < 1 || kind > MAX_KIND || round < 0) {
      throw new MalformedFrameException("link message of kind " + kind + ", round " + round);
    }
    int n = in.readCount(Long.BYTES, "link message ids");
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = in.readLong();
    }
    float[] values = in.readFloatArray();
    if (n > 0 && values.length > 0) {
      throw new MalformedFrameException("link message with both ids and rows");
    }
    return new LinkMessage(kind, round, last, ids, values);
  }
}
