package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.yarngnn.app.transport.MalformedFrames.assertEveryTruncationRefused;
import static org.yarngnn.app.transport.MalformedFrames.assertRefused;
import static org.yarngnn.app.transport.MalformedFrames.frame;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every built-in decoder bounds what it reads by the frame: truncations, huge counts, wrong widths. */
class DecoderBoundsTest {
  private static final MessageCodec CODEC = MessageCodec.standard();
  private static final int HUGE = 1 << 28;

  @Test
  void everyTruncationOfEveryBuiltInTypeIsRefused() {
    for (Message m : MessageCodecTest.samples()) {
      assertEveryTruncationRefused(CODEC, m);
    }
    assertEveryTruncationRefused(CODEC, new CreditGrant(3, 1 << 20));
  }

  @Test
  void primitiveReadsOfATruncatedFrameAreMalformedNotIndexErrors() {
    ByteBuf three = Unpooled.wrappedBuffer(new byte[] {1, 2, 3});
    assertThrows(MalformedFrameException.class, () -> new FrameReader(three.duplicate()).readInt());
    assertThrows(MalformedFrameException.class, () -> new FrameReader(three.duplicate()).readLong());
    assertThrows(MalformedFrameException.class, () -> new FrameReader(three.duplicate()).readFloat());
    assertThrows(MalformedFrameException.class, () -> new FrameReader(Unpooled.EMPTY_BUFFER).readByte());
    assertThrows(MalformedFrameException.class, () -> new FrameReader(Unpooled.EMPTY_BUFFER).readBoolean());
    assertThrows(MalformedFrameException.class, () -> new FrameReader(three.duplicate()).readInts(new int[1], 0, 1));
    assertThrows(MalformedFrameException.class,
        () -> new FrameReader(three.duplicate()).readFloats(new float[1], 0, 1));
    assertThrows(MalformedFrameException.class, () -> new FrameReader(three.duplicate()).skip(4));
    assertThrows(MalformedFrameException.class,
        () -> new FrameReader(Unpooled.wrappedBuffer(new byte[] {(byte) 0x80})).readVLong());
  }

  @Test
  void countsAreBoundedByTheBytesLeft() {
    FrameReader r = new FrameReader(Unpooled.wrappedBuffer(new byte[16]));
    r.checkCount(2, 8, "ids");
    r.checkCount(16, 1, "bytes");
    r.checkCount(Long.MAX_VALUE, 0, "empty things");
    assertThrows(MalformedFrameException.class, () -> r.checkCount(3, 8, "ids"));
    assertThrows(MalformedFrameException.class, () -> r.checkCount(-1, 8, "ids"));
    assertThrows(MalformedFrameException.class, () -> r.checkCount(Integer.MAX_VALUE, Long.MAX_VALUE, "rows"));
    assertEquals(16, r.remaining());
  }

  @Test
  void hugeCountsInTinyFramesAreRefusedWithoutAllocating() {
    // Each about 10 bytes, claiming 2^28 elements.
    assertRefused(CODEC, frame(MessageCodec.PEER_TABLE, w -> w.writeVInt(HUGE)));
    assertRefused(CODEC, frame(MessageCodec.PEER_TABLE, w -> {
      w.writeVInt(1);
      w.writeVInt(0);
      w.writeVInt(HUGE);
    }));
    assertRefused(CODEC, frame(MessageCodec.FAILURE, w -> w.writeVInt(HUGE)));
    assertRefused(CODEC, frame(MessageCodec.HELLO, w -> {
      w.writeVInt(0);
      w.writeVInt(HUGE);
    }));
    assertRefused(CODEC, rowBlockHeader(HUGE, 1));
    assertRefused(CODEC, rowBlockHeader(1, HUGE));
    assertRefused(CODEC, rowBlockHeader(Integer.MAX_VALUE, Integer.MAX_VALUE));
    assertRefused(CODEC, rowBlockHeader(-1, 1));
    assertRefused(CODEC, rowBlockHeader(1, -1));
    assertRefused(CODEC, frame(MessageCodec.PEER_TABLE, w -> w.writeVInt(-1)));
  }

  private static ByteBuf rowBlockHeader(int count, int width) {
    return frame(MessageCodec.ROW_BLOCK, w -> {
      w.writeInt(0);
      w.writeInt(0);
      w.writeInt(0);
      w.writeByte(0);
      w.writeInt(width);
      w.writeInt(count);
    });
  }

  @Test
  void aRowBlockWhoseWidthDisagreesWithItsBytesIsRefused() {
    RowBlock b = new RowBlock(1, 0, 0, false, new int[] {1, 2}, new float[6], 3);
    ByteBuf good = MalformedFrames.encoded(b);
    for (int width : new int[] {0, 2, 4, 1 << 30}) {
      ByteBuf bad = good.copy();
      bad.setIntLE(1 + 3 * 4 + 1, width);
      assertTrue(assertRefused(CODEC, bad).getMessage().contains("width " + width));
    }
    ByteBuf badCount = good.copy();
    badCount.setIntLE(1 + 3 * 4 + 1 + 4, 3);
    assertRefused(CODEC, badCount);
    ByteBuf unknownFlag = good.copy();
    unknownFlag.setByte(1 + 3 * 4, 2);
    assertRefused(CODEC, unknownFlag);
    // Stream -1 names every stream in credit grants: a block on it could never get its credit back.
    ByteBuf everyStream = good.copy();
    everyStream.setIntLE(1, -1);
    assertRefused(CODEC, everyStream);
  }

  @Test
  void badEndpointsAndGrantsAreMalformed() {
    assertRefused(CODEC, frame(MessageCodec.HELLO, w -> {
      w.writeVInt(1);
      w.writeString("");
      w.writeVInt(80);
    }));
    MalformedFrameException port = assertRefused(CODEC, frame(MessageCodec.HELLO, w -> {
      w.writeVInt(1);
      w.writeString("h");
      w.writeVInt(70_000);
    }));
    assertTrue(port.getMessage().contains("port 70000"), port.getMessage());
    assertRefused(CODEC, frame(MessageCodec.HELLO, w -> {
      w.writeVInt(-3);
      w.writeString("h");
      w.writeVInt(80);
    }));
    assertRefused(CODEC, frame(MessageCodec.PEER_TABLE, w -> {
      w.writeVInt(1);
      new Endpoint(0, "h", 1).write(w);
      w.writeByte(0);
    }));
    // A survivor's part of a Hello: a flag byte that is no boolean, attempt 0, an overlong container id.
    assertRefused(CODEC, frame(MessageCodec.HELLO, w -> {
      new Endpoint(0, "h", 1).write(w);
      w.writeByte(2);
    }));
    assertRefused(CODEC, frame(MessageCodec.HELLO, w -> {
      new Endpoint(0, "h", 1).write(w);
      w.writeBoolean(true);
      w.writeVInt(0);
      w.writeVInt(0);
      w.writeString("c");
    }));
    MalformedFrameException container = assertRefused(CODEC, frame(MessageCodec.HELLO, w -> {
      new Endpoint(0, "h", 1).write(w);
      w.writeBoolean(true);
      w.writeVInt(1);
      w.writeVInt(0);
      w.writeString("c".repeat(Hello.MAX_CONTAINER_CHARS + 1));
    }));
    assertTrue(container.getMessage().contains("container id"), container.getMessage());
    assertRefused(CODEC, frame(MessageCodec.CREDIT, w -> {
      w.writeInt(0);
      w.writeVInt(0);
    }));
    assertRefused(CODEC, frame(MessageCodec.HEARTBEAT, w -> w.writeByte(0)));
    assertEquals(new PeerTable(List.of(new Endpoint(2, "h", 1))), CODEC.decode(frame(MessageCodec.PEER_TABLE, w -> {
      w.writeVInt(1);
      new Endpoint(2, "h", 1).write(w);
    })));
  }

  @Test
  void aDecoderThatThrowsSomethingElseStillYieldsAMalformedFrame() {
    MessageCodec codec = MessageCodec.builder().register(40, in -> {
      throw new IllegalArgumentException("no such thing");
    }).build();
    MalformedFrameException e = assertRefused(codec, frame(40, w -> {}));
    assertInstanceOf(IllegalArgumentException.class, e.getCause());
  }
}
