package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WireFormatTest {
  private static ByteBuf buffer(boolean direct) {
    return direct ? PooledByteBufAllocator.DEFAULT.directBuffer(16) : Unpooled.buffer(16);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void primitivesRoundTripInDirectAndHeapBuffers(boolean direct) {
    ByteBuf buf = buffer(direct); // small on purpose: every writer must grow it
    try {
      FrameWriter out = new FrameWriter(buf);
      int[] vints = {0, 1, 127, 128, 16_383, 16_384, Integer.MAX_VALUE, -1, Integer.MIN_VALUE};
      long[] vlongs = {0, 127, 128, Long.MAX_VALUE, -1, Long.MIN_VALUE, 1L << 42};
      out.writeByte(-7);
      out.writeBoolean(true);
      out.writeInt(0x01020304);
      out.writeLong(-123456789012345L);
      out.writeFloat(-0.0f);
      out.writeFloat(Float.NaN);
      for (int v : vints) {
        out.writeVInt(v);
      }
      for (long v : vlongs) {
        out.writeVLong(v);
      }
      out.writeString("");
      out.writeString("héllo ✓ 𝄞");
      out.writeBytes(new byte[0]);
      out.writeBytes(new byte[] {1, 2, 3});
      out.writeIntArray(new int[0]);
      out.writeIntArray(new int[] {-1, 0, 7, Integer.MAX_VALUE});
      out.writeFloatArray(new float[0]);
      out.writeFloatArray(new float[] {1.5f, -2.25f, Float.MIN_VALUE, Float.POSITIVE_INFINITY});
      out.writeInts(new int[] {9, 8, 7, 6}, 1, 2);
      out.writeFloats(new float[] {9f, 8f, 7f, 6f}, 2, 2);
      float[] matrix = {0, 1, 2, 10, 11, 12, 20, 21, 22};
      out.writeGatheredRows(matrix, 3, new int[] {5, 2, 0, 5}, 1, 3);

      FrameReader in = new FrameReader(buf);
      assertEquals(-7, in.readByte());
      assertEquals(true, in.readBoolean());
      assertEquals(0x01020304, in.readInt());
      assertEquals(-123456789012345L, in.readLong());
      assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(in.readFloat()));
      assertEquals(Float.NaN, in.readFloat());
      for (int v : vints) {
        assertEquals(v, in.readVInt());
      }
      for (long v : vlongs) {
        assertEquals(v, in.readVLong());
      }
      assertEquals("", in.readString());
      assertEquals("héllo ✓ 𝄞", in.readString());
      assertArrayEquals(new byte[0], in.readBytes());
      assertArrayEquals(new byte[] {1, 2, 3}, in.readBytes());
      assertArrayEquals(new int[0], in.readIntArray());
      assertArrayEquals(new int[] {-1, 0, 7, Integer.MAX_VALUE}, in.readIntArray());
      assertArrayEquals(new float[0], in.readFloatArray());
      assertArrayEquals(new float[] {1.5f, -2.25f, Float.MIN_VALUE, Float.POSITIVE_INFINITY}, in.readFloatArray());
      int[] ints = new int[4];
      in.readInts(ints, 1, 2);
      assertArrayEquals(new int[] {0, 8, 7, 0}, ints);
      float[] floats = new float[2];
      in.readFloats(floats, 0, 2);
      assertArrayEquals(new float[] {7f, 6f}, floats);
      float[] gathered = new float[6];
      in.readFloats(gathered, 0, 6);
      assertArrayEquals(new float[] {20, 21, 22, 0, 1, 2}, gathered);
      assertEquals(0, in.remaining());
    } finally {
      buf.release();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456, -1})
  void vIntTakesOneByteForEachSevenBits(int v) {
    ByteBuf buf = Unpooled.buffer();
    new FrameWriter(buf).writeVInt(v);
    int expected = v < 0 ? 5 : Math.max(1, (38 - Integer.numberOfLeadingZeros(v)) / 7);
    assertEquals(expected, buf.readableBytes());
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void bigEndianHostsReadTheSameBytes(boolean ints) {
    // The format is little-endian whatever the host; pin the bytes so a change of order cannot slip in.
    ByteBuf buf = Unpooled.buffer();
    FrameWriter out = new FrameWriter(buf);
    if (ints) {
      out.writeInts(new int[] {0x01020304}, 0, 1);
    } else {
      out.writeFloats(new float[] {Float.intBitsToFloat(0x01020304)}, 0, 1);
    }
    byte[] bytes = new byte[4];
    buf.readBytes(bytes);
    assertArrayEquals(new byte[] {4, 3, 2, 1}, bytes);
  }

  @Test
  void lengthsBeyondTheFrameAreRejectedBeforeAllocating() {
    ByteBuf buf = Unpooled.buffer();
    FrameWriter out = new FrameWriter(buf);
    out.writeVInt(Integer.MAX_VALUE); // claims 2^31 floats
    out.writeFloat(1f);
    MalformedFrameException e =
        assertThrows(MalformedFrameException.class, () -> new FrameReader(buf).readFloatArray());
    assertEquals("2147483647 floats of at least 4 bytes each in a frame with 4 bytes left", e.getMessage());
    ByteBuf truncated = Unpooled.wrappedBuffer(new byte[] {(byte) 0x80, (byte) 0x80});
    assertThrows(MalformedFrameException.class, () -> new FrameReader(truncated).readVInt());
    ByteBuf tooLong = Unpooled.wrappedBuffer(new byte[] {-1, -1, -1, -1, -1, 1});
    assertThrows(MalformedFrameException.class, () -> new FrameReader(tooLong).readVInt());
    ByteBuf badBoolean = Unpooled.wrappedBuffer(new byte[] {2});
    assertThrows(MalformedFrameException.class, () -> new FrameReader(badBoolean).readBoolean());
  }
}
