package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

/**
 * Why {@link FrameWriter} copies float arrays through an NIO view rather than element by element: both produce the
 * same bytes (asserted); the time of each is printed (not asserted: a unit test is no benchmark harness).
 */
class BulkCopyTest {
  private static final int N = 1 << 18; // 1 MiB of floats

  @Test
  void viewCopyMatchesTheElementLoop() {
    float[] values = new float[N];
    for (int i = 0; i < N; i++) {
      values[i] = i * 0.5f - 7;
    }
    ByteBuf a = PooledByteBufAllocator.DEFAULT.directBuffer(N * 4);
    ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(N * 4);
    try {
      long loop = Long.MAX_VALUE;
      long view = Long.MAX_VALUE;
      float[] back = new float[N];
      long readView = Long.MAX_VALUE;
      long gather = Long.MAX_VALUE;
      int width = 256;
      int[] rows = new int[N / width];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = i;
      }
      ByteBuf c = PooledByteBufAllocator.DEFAULT.directBuffer(N * 4);
      for (int round = 0; round < 30; round++) {
        a.clear();
        long t0 = System.nanoTime();
        for (float v : values) {
          a.writeFloatLE(v);
        }
        long t1 = System.nanoTime();
        b.clear();
        new FrameWriter(b).writeFloats(values, 0, N);
        long t2 = System.nanoTime();
        b.readerIndex(0);
        new FrameReader(b).readFloats(back, 0, N);
        long t3 = System.nanoTime();
        c.clear();
        new FrameWriter(c).writeGatheredRows(values, width, rows, 0, rows.length);
        long t4 = System.nanoTime();
        gather = Math.min(gather, t4 - t3);
        loop = Math.min(loop, t1 - t0);
        view = Math.min(view, t2 - t1);
        readView = Math.min(readView, t3 - t2);
      }
      a.readerIndex(0);
      b.readerIndex(0);
      assertEquals(a, b, "same bytes either way");
      assertEquals(a, c, "gathering all rows in order writes the same bytes");
      c.release();
      for (int i = 0; i < N; i++) {
        assertEquals(values[i], back[i]);
      }
      System.out.printf("bulk copy of 1 MiB floats into a pooled direct buffer (best of 30): writeFloatLE loop"
          + " %.0f us, NIO view %.0f us, gathered by 1 KiB rows %.0f us; read back through a view %.0f us%n",
          loop / 1e3, view / 1e3, gather / 1e3, readView / 1e3);
    } finally {
      a.release();
      b.release();
    }
  }
}
