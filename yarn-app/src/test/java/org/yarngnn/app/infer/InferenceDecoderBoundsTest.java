package org.yarngnn.app.infer;

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
import org.yarngnn.app.transport.MalformedFrameException;
import org.yarngnn.app.transport.Message;
import org.yarngnn.app.transport.MessageCodec;

/** The inference messages' decoders bound every count and width by the frame. */
class InferenceDecoderBoundsTest {
  private static final MessageCodec CODEC = InferenceCodec.CODEC;
  private static final int HUGE = 1 << 28;

  static List<Message> samples() {
    return List.of(
        new NodeBlock(2, new long[] {5, 1L << 40}, new long[] {3, 300}, null, null, 3, new float[] {1, 2, 3, 4, 5, 6}),
        new NodeBlock(0, new long[] {7}, new long[] {0}, new int[] {-1}, new byte[] {2}, 0, new float[0]),
        new NodeBlock(1, new long[0], new long[0], null, null, 5, new float[0]),
        new EdgeBlock(3, 2, new long[] {1, 2}, new long[] {3, 4}, new long[] {0, 1}, new float[] {0.5f, 2}, false),
        new EdgeBlock(0, 2, new long[] {1L << 40, 2}, new long[] {3, 4}, new long[] {9, 8}, null, false),
        new EdgeBlock(1, 1, new long[1], new long[] {6}, new long[] {1 << 20}, null, true),
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
      } else if (m instanceof NodeBlock b) {
        assertArrayEquals(b.ids(), ((NodeBlock) back).ids());
        assertArrayEquals(b.values(), ((NodeBlock) back).values());
      } else if (m instanceof EdgeBlock b) {
        assertArrayEquals(b.dst(), ((EdgeBlock) back).dst());
        assertArrayEquals(b.rows(), ((EdgeBlock) back).rows());
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
    for (boolean labelled : new boolean[] {false, true}) {
      assertRefused(CODEC, nodeHeader(HUGE, 1, labelled));
      assertRefused(CODEC, nodeHeader(1, HUGE, labelled));
      assertRefused(CODEC, nodeHeader(Integer.MAX_VALUE, Integer.MAX_VALUE, labelled));
      assertRefused(CODEC, nodeHeader(-1, 1, labelled));
      assertRefused(CODEC, nodeHeader(1, -1, labelled));
    }
    for (int flags = 0; flags < 8; flags++) {
      assertRefused(CODEC, edgeHeader(HUGE, flags));
      assertRefused(CODEC, edgeHeader(-1, flags));
    }
  }

  private static ByteBuf nodeHeader(int count, int width, boolean labelled) {
    return frame(NodeBlock.TYPE, w -> {
      w.writeVInt(0);
      w.writeVInt(count);
      w.writeVInt(width);
      w.writeBoolean(labelled);
      w.writeLong(1);
    });
  }

  private static ByteBuf edgeHeader(int count, int flags) {
    return frame(EdgeBlock.TYPE, w -> {
      w.writeVInt(0);
      w.writeVInt(count);
      w.writeByte(flags);
      w.writeLong(1);
    });
  }

  @Test
  void aNodeBlockWhoseWidthDisagreesWithItsBytesIsRefused() {
    NodeBlock b = new NodeBlock(0, new long[] {1, 2}, new long[] {0, 1}, null, null, 3, new float[6]);
    for (int width : new int[] {2, 4, 1 << 20}) {
      NodeBlock wrong = new NodeBlock(0, b.ids(), b.rows(), null, null, width, new float[6 + 2 * width]);
      ByteBuf f = encoded(wrong);
      // The header says `width`, the values are those of width 3.
      ByteBuf bad = f.copy(0, f.readableBytes() - 2 * 4 * width);
      bad.writeBytes(encoded(b), encoded(b).readableBytes() - 6 * 4, 6 * 4);
      assertRefused(CODEC, bad);
    }
  }

  @Test
  void badFlagsLabelsAndPackedRowsAreRefused() {
    ByteBuf edges = encoded(new EdgeBlock(0, 1, new long[] {1}, new long[] {2}, new long[] {3}, null, false));
    ByteBuf badFlags = edges.copy();
    badFlags.setByte(3, badFlags.getByte(3) | 8);
    assertRefused(CODEC, badFlags);
    ByteBuf extraRowByte = frame(EdgeBlock.TYPE, w -> {
      w.writeVInt(0);
      w.writeVInt(1);
      w.writeByte(4);
      w.writeInt(1);
      w.writeInt(2);
      w.writeBytes(new byte[] {3, 0});
    });
    assertTrue(assertRefused(CODEC, extraRowByte).getMessage().contains("left after the rows"));
    ByteBuf badLabel = frame(NodeBlock.TYPE, w -> {
      w.writeVInt(0);
      w.writeVInt(1);
      w.writeVInt(0);
      w.writeBoolean(true);
      w.writeLong(1);
      w.writeVLong(0);
      w.writeVInt(-5);
      w.writeByte(0);
    });
    MalformedFrameException e = assertRefused(CODEC, badLabel);
    assertTrue(e.getMessage().contains("label"), e.getMessage());
  }
}
