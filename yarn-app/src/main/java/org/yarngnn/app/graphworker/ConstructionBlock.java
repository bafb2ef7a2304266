package org.yarngnn.app.graphworker;

import java.io.IOException;
import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Credit;
import org.yarngnn.app.transport.StreamedMessage;
import org.yarngnn.partition.GraphRecord;
import org.yarngnn.partition.PartitionKey;

/**
 * The transport adapter of the construction core: one routed block ({@link GraphRecord}: node rows, references
 * or edges, see {@code org.yarngnn.partition.RecordRouter}) in the core's own encoding, sent to the worker that
 * owns its rows. Wire form: int8 kind ({@link PartitionKey#NODE}, {@link PartitionKey#REF},
 * {@link PartitionKey#EDGE}), vInt length, then the block's bytes. The length is checked against the frame before
 * the bytes are copied out, and {@link #toRecord} decodes them in place, checking every count inside against
 * those bytes before it sizes anything by it. The sender's array is the block's exact encoding
 * ({@link GraphRecord#encodeBlock}), written into the frame as it is. Credited by the transport on {@link #STREAM}: the receiver releases each block once consumed, so
 * a fast reader never floods an owner.
 */
final class ConstructionBlock implements StreamedMessage {
  static final byte TYPE = 39;
  /** The credit stream of construction blocks (halo row blocks use the layer numbers, 0 and up). */
  static final int STREAM = -2;

  private final byte kind;
  private final byte[] bytes;
  private final Credit credit = new Credit();

  ConstructionBlock(byte kind, byte[] bytes) {
    this.kind = kind;
    this.bytes = bytes;
  }

  byte kind() {
    return kind;
  }

  byte[] bytes() {
    return bytes;
  }

  @Override
  public int stream() {
    return STREAM;
  }

  @Override
  public Credit credit() {
    return credit;
  }

  /** The block of {@code r} encoded for a peer. */
  static ConstructionBlock of(GraphRecord r) {
    return new ConstructionBlock(r.kind(), r.encodeBlock());
  }

  @Override
  public byte type() {
    return TYPE;
  }

  @Override
  public int bodySizeHint() {
    return 6 + bytes.length;
  }

  @Override
  public void writeBody(FrameWriter out) {
    out.writeByte(kind);
    out.writeBytes(bytes);
  }

  static ConstructionBlock read(FrameReader in) {
    byte kind = in.readByte();
    if (kind != PartitionKey.NODE && kind != PartitionKey.REF && kind != PartitionKey.EDGE) {
      throw new MalformedFrameException("construction block of kind " + kind);
    }
    byte[] bytes = in.readBytes();
    if (in.remaining() != 0) {
      throw new MalformedFrameException(in.remaining() + " bytes after a construction block");
    }
    return new ConstructionBlock(kind, bytes);
  }

  /**
   * Decodes the block into {@code into} (whose block objects are reused), node rows required to be {@code width}
   * floats wide; corrupt bytes fail with an {@link IOException} before anything is allocated for them.
   */
  GraphRecord toRecord(GraphRecord into, int width) throws IOException {
    return into.decode(kind, bytes, bytes.length, width);
  }

  @Override
  public String toString() {
    return "ConstructionBlock(kind " + kind + ", " + bytes.length + " bytes)";
  }
}
