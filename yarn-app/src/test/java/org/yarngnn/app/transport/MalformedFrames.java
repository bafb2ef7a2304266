package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.function.Consumer;

/** Test helpers for decoders: hand-made frames, every truncation, and refusals measured for allocation. */
public final class MalformedFrames {
  /** What a refused decode may allocate on the decoding thread (the exception, its message, a few small arrays). */
  public static final long MAX_REFUSAL_ALLOCATION = 1 << 20;

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private MalformedFrames() {}

  /** The transport's own messages, which only this package can make: a heartbeat and a credit grant. */
  public static List<Message> internalSamples() {
    return List.of(Heartbeat.INSTANCE, new CreditGrant(3, 1 << 20), new CreditGrant(CreditGrant.EVERY_STREAM, 4));
  }

  /** A frame without its length prefix: the type byte, then what {@code body} writes. */
  public static ByteBuf frame(int type, Consumer<FrameWriter> body) {
    ByteBuf buf = Unpooled.buffer();
    buf.writeByte(type);
    body.accept(new FrameWriter(buf));
    return buf;
  }

  /** {@code m} encoded, without its length prefix, as bytes. */
  public static byte[] bytes(Message m) {
    ByteBuf b = encoded(m);
    byte[] out = new byte[b.readableBytes()];
    b.readBytes(out);
    return out;
  }

  /** {@code m} encoded, without its length prefix. */
  public static ByteBuf encoded(Message m) {
    ByteBuf full = MessageCodec.encode(m, UnpooledByteBufAllocator.DEFAULT);
    try {
      ByteBuf out = Unpooled.buffer(full.readableBytes());
      out.writeBytes(full, Integer.BYTES, full.readableBytes() - Integer.BYTES);
      return out;
    } finally {
      full.release();
    }
  }

  /**
   * Decodes {@code frame} with {@code codec}, expecting a {@link MalformedFrameException}, and checks the attempt
   * allocated less than {@link #MAX_REFUSAL_ALLOCATION} on this thread: a count is refused before anything is
   * allocated for it.
   */
  public static MalformedFrameException assertRefused(MessageCodec codec, ByteBuf frame) {
    // Once unmeasured: class loading and first-time linking are not the decoder's allocations.
    try {
      codec.decode(frame.duplicate());
    } catch (MalformedFrameException expected) {
      // as below
    }
    long before = THREADS.getCurrentThreadAllocatedBytes();
    MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> codec.decode(frame.duplicate()));
    long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
    assertTrue(allocated < MAX_REFUSAL_ALLOCATION, "refusing a " + frame.readableBytes() + "-byte frame allocated "
        + allocated + " bytes: " + e.getMessage());
    return e;
  }

  /** Every proper prefix of {@code m}'s frame (type byte kept) is refused as malformed, cheaply. */
  public static void assertEveryTruncationRefused(MessageCodec codec, Message m) {
    ByteBuf whole = encoded(m);
    for (int length = 1; length < whole.readableBytes(); length++) {
      ByteBuf cut = whole.slice(0, length);
      try {
        assertRefused(codec, cut);
      } catch (AssertionError | RuntimeException e) {
        fail("the first " + length + " of " + whole.readableBytes() + " bytes of " + m + ": " + e, e);
      }
    }
  }
}
