package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.Test;

public class MessageCodecTest {
  /** Every built-in type, with empty arrays, empty strings, odd widths and extreme numbers. */
  public static List<Message> samples() {
    return List.of(
        new Hello(3, "node-7.example.org", 45_123),
        new Hello(0, "::1", 0),
        new Hello(2, "node-1", 40_000, new Hello.Survivor(1, 3, "container_1700000000000_0001_01_000004")),
        new PeerTable(List.of()),
        new PeerTable(List.of(new Endpoint(0, "a", 1), new Endpoint(1, "b.example", 65_535))),
        new Hello(Integer.MAX_VALUE, "h", 65_535, new Hello.Survivor(7, 0, "")),
        new Failure("worker 2: out of memory while loading part-00002"),
        new Failure(""),
        new Failure("r\u00e9seau \u2192 \ud83d\ude00"),
        new RowBlock(0, 1, 2, false, new int[] {4, 1, 9}, floats(3 * 7), 7),
        new RowBlock(-5, 0, 0, true, new int[0], new float[0], 7),
        new RowBlock(1, 2, 3, true, new int[] {0, 1}, new float[0], 0),
        new RowBlock(2, 0, 0, false, new int[] {Integer.MAX_VALUE}, new float[] {Float.NaN}, 1),
        RowBlock.gather(9, 3, 1, true, new int[] {2, 0, 1, 2}, 1, 4, floats(3 * 5), 5));
  }

  public static float[] floats(int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = i * 0.25f - 3;
    }
    return v;
  }

  static Message roundTrip(MessageCodec codec, Message m) {
    ByteBuf frame = MessageCodec.encode(m, PooledByteBufAllocator.DEFAULT);
    assertEquals(frame.readableBytes() - 4, frame.readIntLE(), "length prefix");
    Message back = codec.decode(frame);
    if (!(back instanceof RowBlock)) {
      frame.release();
    }
    return back;
  }

  @Test
  void everyBuiltInTypeSurvivesEncodeAndDecode() {
    for (Message m : samples()) {
      Message back = roundTrip(MessageCodec.standard(), m);
      assertEquals(m, back, () -> "round trip of " + m);
      assertEquals(m.type(), back.type());
      if (back instanceof RowBlock b) {
        b.release();
        assertTrue(b.isReleased());
      }
    }
  }

  @Test
  void rowBlockBodyHintIsExact() {
    for (Message m : samples()) {
      if (m instanceof RowBlock b) {
        ByteBuf frame = MessageCodec.encode(b, PooledByteBufAllocator.DEFAULT);
        assertEquals(MessageCodec.FRAME_OVERHEAD + b.bodyBytes(), frame.readableBytes());
        frame.release();
      }
    }
  }

  @Test
  void inboundRowBlockReadsRowsWithoutCopyingTheWholeBlock() {
    int width = 3;
    RowBlock sent = RowBlock.gather(1, 0, 0, false, new int[] {7, 2, 5}, 0, 3, floats(8 * width), width);
    RowBlock got = (RowBlock) roundTrip(MessageCodec.standard(), sent);
    assertEquals(3, got.rowCount());
    assertEquals(2, got.row(1));
    float[] dst = new float[width + 2];
    got.copyRowTo(2, dst, 1);
    assertArrayEquals(new float[] {0, 5 * 0.75f - 3, 5 * 0.75f - 2.75f, 5 * 0.75f - 2.5f, 0}, dst);
    assertThrows(IndexOutOfBoundsException.class, () -> got.row(3));
    assertThrows(IllegalStateException.class, () -> MessageCodec.encode(got, PooledByteBufAllocator.DEFAULT));
    got.release();
    got.release(); // idempotent: a second release must not free the pooled buffer twice
    assertTrue(got.isReleased());
  }

  @Test
  void badBlocksAreRefusedAtConstruction() {
    assertThrows(IllegalArgumentException.class, () -> new RowBlock(0, 0, 0, false, new int[2], new float[5], 3));
    assertThrows(IndexOutOfBoundsException.class,
        () -> RowBlock.gather(0, 0, 0, false, new int[] {4}, 0, 1, new float[12], 3));
    assertThrows(IllegalArgumentException.class, () -> new RowBlock(0, 0, 0, false, new int[0], new float[0], -1));
  }

  @Test
  void applicationTypesAreRegisteredAndUnknownTypesRefused() {
    record Loss(double value) implements Message {
      @Override
      public byte type() {
        return 40;
      }

      @Override
      public void writeBody(FrameWriter out) {
        out.writeLong(Double.doubleToLongBits(value));
      }
    }
    MessageCodec codec = MessageCodec.builder().register(40, in -> new Loss(Double.longBitsToDouble(in.readLong())))
        .build();
    assertEquals(new Loss(0.125), roundTrip(codec, new Loss(0.125)));
    MalformedFrameException e =
        assertThrows(MalformedFrameException.class, () -> roundTrip(MessageCodec.standard(), new Loss(1)));
    assertEquals("unknown message type 40", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> MessageCodec.builder().register(6, in -> null));
    assertThrows(IllegalArgumentException.class, () -> MessageCodec.builder().register(126, in -> null));
    assertThrows(IllegalArgumentException.class, () -> MessageCodec.builder().register(40, in -> null)
        .register(40, in -> null));
  }

  @Test
  void trailingBytesAndShortBodiesAreMalformed() {
    ByteBuf frame = MessageCodec.encode(new Failure("x"), PooledByteBufAllocator.DEFAULT);
    frame.writeByte(0);
    frame.skipBytes(4);
    assertThrows(MalformedFrameException.class, () -> MessageCodec.standard().decode(frame));
    frame.release();
    ByteBuf block = MessageCodec.encode(new RowBlock(0, 0, 0, false, new int[] {1}, new float[] {1, 2}, 2),
        PooledByteBufAllocator.DEFAULT);
    block.writerIndex(block.writerIndex() - 1);
    block.skipBytes(4);
    assertThrows(MalformedFrameException.class, () -> MessageCodec.standard().decode(block));
    block.release();
  }
}
