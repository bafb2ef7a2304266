package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.yarngnn.app.transport.MalformedFrames.assertEveryTruncationRefused;
import static org.yarngnn.app.transport.MalformedFrames.assertRefused;
import static org.yarngnn.app.transport.MalformedFrames.encoded;
import static org.yarngnn.app.transport.MalformedFrames.frame;

import io.netty.buffer.ByteBuf;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.partition.PartitionKey;
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;

/** The graph workers' messages' decoders bound every count and width by the frame. */
public class GraphWorkerDecoderBoundsTest {
  private static final MessageCodec CODEC = GraphWorkerCodec.CODEC;
  private static final int HUGE = 1 << 28;

  public static List<Message> samples() {
    return List.of(
        new ConstructionBlock(PartitionKey.NODE, new byte[] {1, 2, 3}),
        new ConstructionBlock(PartitionKey.EDGE, new byte[0]),
        new ConstructionBlock(PartitionKey.REF, new byte[300]),
        new HaloRequest(1, new long[] {4, 1L << 50, -2}),
        new HaloRequest(0, new long[0]));
  }

  @Test
  void samplesRoundTrip() {
    for (Message m : samples()) {
      ByteBuf f = encoded(m);
      Message back = CODEC.decode(f);
      assertEquals(m.type(), back.type());
      if (m instanceof HaloRequest r) {
        assertArrayEquals(r.ids(), ((HaloRequest) back).ids());
      } else if (m instanceof ConstructionBlock b) {
        assertEquals(b.kind(), ((ConstructionBlock) back).kind());
        assertArrayEquals(b.bytes(), ((ConstructionBlock) back).bytes());
      }
    }
  }

  @Test
  void everyTruncationIsRefused() {
    for (Message m : samples()) {
      assertEveryTruncationRefused(CODEC, m);
    }
  }

  @Test
  void hugeCountsInTinyFramesAreRefusedWithoutAllocating() {
    // The case: a 10-byte halo request claiming 2^28 ids made a driver allocate gigabytes.
    ByteBuf halo = frame(HaloRequest.TYPE, w -> {
      w.writeVInt(0);
      w.writeVInt(HUGE);
      w.writeByte(7);
      w.writeByte(7);
      w.writeByte(7);
    });
    assertEquals(10, halo.readableBytes());
    assertTrue(assertRefused(CODEC, halo).getMessage().contains(HUGE + " halo request ids"));
    assertRefused(CODEC, frame(HaloRequest.TYPE, w -> {
      w.writeVInt(0);
      w.writeVInt(-1);
    }));
    assertRefused(CODEC, frame(HaloRequest.TYPE, w -> {
      w.writeVInt(-1);
      w.writeVInt(0);
    }));
    // A construction block claiming 2^28 bytes in a 10-byte frame.
    assertRefused(CODEC, frame(ConstructionBlock.TYPE, w -> {
      w.writeByte(PartitionKey.EDGE);
      w.writeVInt(HUGE);
      w.writeByte(7);
      w.writeByte(7);
      w.writeByte(7);
      w.writeByte(7);
    }));
    assertRefused(CODEC, frame(ConstructionBlock.TYPE, w -> {
      w.writeByte(9);
      w.writeVInt(0);
    }));
  }
}
