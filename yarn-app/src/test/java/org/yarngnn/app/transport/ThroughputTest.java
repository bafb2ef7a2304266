package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.yarngnn.app.transport.TransportTesting.LOOPBACK;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Loopback throughput of 1 MiB row blocks, printed (not asserted: the machine is shared and noisy). A benchmark,
 * tagged so the default run leaves it out; scripts/bench/cost-model runs it with -Dyarngnn.bench.excluded=none.
 */
@Tag("bench")
@ExtendWith(ThreadLeakCheck.class)
@Timeout(60)
class ThroughputTest {
  private static final int ROWS = 1024;
  private static final int WIDTH = 256;

  @Test
  void oneMegabyteBlocksOverLoopback() throws Exception {
    double plain = measure("arrays", false, false);
    measure("gather", true, false);
    double encrypted = measure("arrays, AES-GCM", false, true);
    System.out.printf("throughput: encrypted/plain %.2f%n", encrypted / plain);
  }

  /** MiB/s of row-block values. */
  private static double measure(String label, boolean gather, boolean encrypt) throws Exception {
    int warmup = encrypt ? 600 : 100; // the cipher's intrinsics need C2 compilation
    int blocks = 400;
    BlockingQueue<RowBlock> delivered = new LinkedBlockingQueue<>();
    AtomicLong checksum = new AtomicLong();
    TransportListener releaseAtOnce = new TransportListener() {
      @Override
      public void onMessage(PeerConnection c, Message m) {
        RowBlock b = (RowBlock) m;
        checksum.addAndGet(b.row(b.rowCount() - 1));
        b.release();
        delivered.add(b);
      }

      @Override
      public void onClosed(PeerConnection c, Throwable cause) {}
    };
    TransportOptions options = TransportTesting.quick().encrypt(encrypt).build();
    try (TransportServer receiver = new TransportServer(options, releaseAtOnce);
        TransportClient sender = new TransportClient(options, new InboundQueue())) {
      receiver.start();
      sender.start();
      PeerConnection out = sender.connect(LOOPBACK, receiver.port());
      int[] rows = new int[ROWS];
      for (int i = 0; i < ROWS; i++) {
        rows[i] = i;
      }
      float[] values = new float[ROWS * WIDTH];
      long start = 0;
      for (int i = 0; i < warmup + blocks; i++) {
        if (i == warmup) {
          for (int k = 0; k < warmup; k++) {
            delivered.poll(10, TimeUnit.SECONDS);
          }
          start = System.nanoTime();
        }
        out.sendBlocking(gather ? RowBlock.gather(0, 0, i, false, rows, 0, ROWS, values, WIDTH)
            : new RowBlock(0, 0, i, false, rows, values, WIDTH));
      }
      for (int k = 0; k < blocks; k++) {
        delivered.poll(10, TimeUnit.SECONDS);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double mib = blocks * (double) (ROWS * WIDTH * Float.BYTES) / (1 << 20);
      System.out.printf("throughput (%s): %d blocks of 1 MiB values over loopback in %.3f s = %.0f MiB/s%n", label,
          blocks, seconds, mib / seconds);
      assertEquals((long) (warmup + blocks) * (ROWS - 1), checksum.get());
      return mib / seconds;
    }
  }
}
