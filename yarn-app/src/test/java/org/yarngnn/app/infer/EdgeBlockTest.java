package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.yarngnn.app.transport.FrameReader;
import org.yarngnn.app.transport.FrameWriter;
import org.yarngnn.app.transport.MalformedFrameException;

class EdgeBlockTest {
  private static EdgeBlock roundTrip(EdgeBlock b) {
    ByteBuf buf = Unpooled.buffer();
    b.writeBody(new FrameWriter(buf));
    EdgeBlock r = EdgeBlock.read(new FrameReader(buf));
    assertEquals(0, buf.readableBytes(), "the whole body is read");
    return r;
  }

  @Test
  void intSizedIdsRoundTripWithWeightsAndRows() {
    EdgeBlock b = new EdgeBlock(3, 4, new long[] {0, 7, Integer.MAX_VALUE, -5, 99},
        new long[] {1, 2, Integer.MIN_VALUE, 4, 99}, new long[] {0, 1, 130, 1L << 40, 99},
        new float[] {0.5f, -1f, 2f, Float.NaN, 9f}, false);
    EdgeBlock r = roundTrip(b);
    assertEquals(3, r.file());
    assertEquals(4, r.count());
    assertArrayEquals(new long[] {0, 7, Integer.MAX_VALUE, -5}, r.src());
    assertArrayEquals(new long[] {1, 2, Integer.MIN_VALUE, 4}, r.dst());
    assertArrayEquals(new long[] {0, 1, 130, 1L << 40}, r.rows());
    assertArrayEquals(new float[] {0.5f, -1f, 2f, Float.NaN}, r.weights());
    assertTrue(!r.touch());
  }

  @Test
  void wideIdsAndDecreasingRowsRoundTrip() {
    EdgeBlock b = new EdgeBlock(0, 3, new long[] {1L << 33, 1, Long.MIN_VALUE + 1},
        new long[] {2, Long.MAX_VALUE, 3}, new long[] {50, 7, 7}, null, false);
    EdgeBlock r = roundTrip(b);
    assertArrayEquals(b.src(), r.src());
    assertArrayEquals(b.dst(), r.dst());
    assertArrayEquals(b.rows(), r.rows());
    assertNull(r.weights());
  }

  @Test
  void touchBlockCarriesIdsAndRowsOnly() {
    EdgeBlock r = roundTrip(new EdgeBlock(1, 2, new long[2], new long[] {10, 11}, new long[] {3, 4}, null, true));
    assertTrue(r.touch());
    assertArrayEquals(new long[] {10, 11}, r.dst());
    assertArrayEquals(new long[] {3, 4}, r.rows());
  }

  @Test
  void intIdsHalveTheBytes() {
    int n = 1000;
    long[] small = new long[n];
    long[] wide = new long[n];
    for (int i = 0; i < n; i++) {
      small[i] = i;
      wide[i] = (1L << 40) + i;
    }
    ByteBuf a = Unpooled.buffer();
    new EdgeBlock(0, n, small, small, small, null, false).writeBody(new FrameWriter(a));
    ByteBuf b = Unpooled.buffer();
    new EdgeBlock(0, n, wide, wide, small, null, false).writeBody(new FrameWriter(b));
    assertTrue(a.readableBytes() < 10 * n, "int ids and one-byte row deltas: " + a.readableBytes());
    assertTrue(b.readableBytes() > 16 * n, "wide ids take 8 bytes: " + b.readableBytes());
  }

  @Test
  void truncatedRowsAreMalformed() {
    assertThrows(MalformedFrameException.class, () -> EdgeBlock.unpackRows(new byte[] {(byte) 0x81}, 1));
    assertThrows(MalformedFrameException.class, () -> EdgeBlock.unpackRows(new byte[] {1}, 2));
  }

  @Test
  void countLargerThanTheFrameIsRefusedBeforeAllocating() {
    ByteBuf buf = Unpooled.buffer();
    FrameWriter w = new FrameWriter(buf);
    w.writeVInt(0);
    w.writeVInt(Integer.MAX_VALUE);
    w.writeByte(0);
    assertThrows(MalformedFrameException.class, () -> EdgeBlock.read(new FrameReader(buf)));
  }
}
