package org.yarngnn.io.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The per-thread arrays of finished chunks: smallest fit, bounded, never shared between threads. */
class ChunkBuffersTest {
  private static void drain() {
    while (ChunkBuffers.kept() > 0) {
      ChunkBuffers.take(0);
    }
  }

  @Test
  void theSmallestKeptArrayThatFitsIsTaken() {
    drain();
    byte[] small = new byte[100];
    byte[] large = new byte[1000];
    ChunkBuffers.give(large);
    ChunkBuffers.give(small);
    assertSame(small, ChunkBuffers.take(50));
    assertSame(large, ChunkBuffers.take(50));
    byte[] fresh = ChunkBuffers.take(2000);
    assertEquals(2000, fresh.length);
    assertEquals(0, ChunkBuffers.kept());
  }

  @Test
  void nothingTooLargeOrEmptyIsKeptAndTheCountIsBounded() {
    drain();
    ChunkBuffers.give(null);
    ChunkBuffers.give(new byte[0]);
    ChunkBuffers.give(new byte[(16 << 20) + 1]);
    assertEquals(0, ChunkBuffers.kept());
    byte[] first = new byte[10];
    ChunkBuffers.give(first);
    for (int i = 0; i < 20; i++) {
      ChunkBuffers.give(new byte[10]);
    }
    assertEquals(6, ChunkBuffers.kept());
    for (int i = 0; i < 6; i++) {
      assertNotSame(first, ChunkBuffers.take(10), "the oldest array was let go");
    }
    drain();
  }

  @Test
  void anotherThreadDoesNotSeeThisThreadsArrays() throws InterruptedException {
    drain();
    byte[] mine = new byte[64];
    ChunkBuffers.give(mine);
    AtomicReference<byte[]> theirs = new AtomicReference<>();
    Thread t = new Thread(() -> theirs.set(ChunkBuffers.take(64)));
    t.start();
    t.join();
    assertNotSame(mine, theirs.get());
    assertSame(mine, ChunkBuffers.take(64));
  }
}
