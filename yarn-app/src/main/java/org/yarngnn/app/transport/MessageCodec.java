package org.yarngnn.app.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.stream.IntStream;

/**
 * Maps type bytes to decoders and turns messages into frames. Type bytes: 1-6 the built-in messages below, 8-9 the
 * handshake's (read by {@link Handshake} only, refused afterwards), 32-125 free for applications
 * ({@link Builder#register}), 126-127 transport-internal (heartbeat, credit), others reserved. A codec is immutable and shared by all connections of a transport.
 */
public final class MessageCodec {
  public static final byte HELLO = 1;
  public static final byte PEER_TABLE = 2;
  public static final byte FAILURE = 5;
  public static final byte ROW_BLOCK = 6;
  public static final int FIRST_APPLICATION_TYPE = 32;
  public static final int LAST_APPLICATION_TYPE = 125;
  static final byte HEARTBEAT = 126;
  static final byte CREDIT = 127;

  /** Bytes before the body: int32 length (of type byte + body) and the type byte. */
  public static final int FRAME_OVERHEAD = Integer.BYTES + 1;

  /**
   * Reads one message body (everything after the type byte). A decoder bounds every count and width it reads
   * against the bytes left ({@link FrameReader#readCount}) before allocating for it, and throws
   * {@link MalformedFrameException} on anything it cannot accept; other runtime exceptions it throws are turned into
   * one. The codec refuses bytes left after the body (a {@link RowBlock} checks its exact size itself).
   */
  @FunctionalInterface
  public interface Decoder {
    Message read(FrameReader in);
  }

  private static final MessageCodec STANDARD = builder().build();

  private final Decoder[] decoders;

  private MessageCodec(Decoder[] decoders) {
    this.decoders = decoders.clone();
  }

  /** The built-in messages only. */
  public static MessageCodec standard() {
    return STANDARD;
  }

  /** A builder preloaded with the built-in messages. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The type bytes this codec decodes, ascending: the built-in ones and every registered one. Lets a test cover
   * each type a role's codec accepts, so a type added later is covered too (or fails the test until it is).
   */
  public int[] types() {
    return IntStream.range(0, decoders.length).filter(t -> decoders[t] != null).toArray();
  }

  /**
   * Encodes {@code m} as a whole frame (length, type, body) in a new buffer from {@code alloc}; the caller owns
   * the returned buffer.
   */
  public static ByteBuf encode(Message m, ByteBufAllocator alloc) {
    ByteBuf buf = alloc.directBuffer(FRAME_OVERHEAD + m.bodySizeHint());
    try {
      buf.writeIntLE(0);
      buf.writeByte(m.type());
      m.writeBody(new FrameWriter(buf));
      buf.setIntLE(0, buf.readableBytes() - Integer.BYTES);
      return buf;
    } catch (RuntimeException e) {
      buf.release();
      throw e;
    }
  }

  /**
   * Decodes one frame without its length prefix (type byte first). For a {@link RowBlock} the returned block takes
   * over the caller's reference to {@code frame}; for every other type the caller still owns it.
   */
  public Message decode(ByteBuf frame) {
    FrameReader in = new FrameReader(frame);
    int type = in.readByte() & 0xFF;
    Decoder d = type < decoders.length ? decoders[type] : null;
    if (d == null) {
      throw new MalformedFrameException("unknown message type " + type);
    }
    Message m;
    try {
      m = d.read(in);
    } catch (MalformedFrameException e) {
      throw e;
    } catch (RuntimeException e) {
      // A value the message's own constructor refuses (a bad port, an empty host, ...): still a bad frame.
      throw new MalformedFrameException("message of type " + type + ": " + e, e);
    }
    if (!(m instanceof RowBlock) && in.remaining() != 0) {
      throw new MalformedFrameException(in.remaining() + " bytes left after a message of type " + type);
    }
    return m;
  }

  /** Adds application message types to the built-in ones. */
  public static final class Builder {
    private final Decoder[] decoders = new Decoder[128];

    private Builder() {
      decoders[HELLO] = Hello::read;
      decoders[PEER_TABLE] = PeerTable::read;
      decoders[FAILURE] = Failure::read;
      decoders[ROW_BLOCK] = RowBlock::read;
      decoders[HEARTBEAT] = in -> Heartbeat.INSTANCE;
      decoders[CREDIT] = CreditGrant::read;
    }

    /** Registers the decoder of an application type in [32, 125]. */
    public Builder register(int type, Decoder decoder) {
      if (type < FIRST_APPLICATION_TYPE || type > LAST_APPLICATION_TYPE) {
        throw new IllegalArgumentException("application message types are " + FIRST_APPLICATION_TYPE + ".."
            + LAST_APPLICATION_TYPE + ", not " + type);
      }
      if (decoders[type] != null) {
        throw new IllegalArgumentException("message type " + type + " is already registered");
      }
      decoders[type] = decoder;
      return this;
    }

    public MessageCodec build() {
      return new MessageCodec(decoders);
    }
  }
}
