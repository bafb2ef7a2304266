package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.yarngnn.app.transport.TransportTesting.LOOPBACK;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three workers exchange halo rows all-to-all over loopback, the way the Deal-style layer exchange will: per layer,
 * each worker sends each peer the rows that peer needs, gathered from its layer matrix in chunks; every receiver
 * checks every row against what the sender had.
 */
@ExtendWith(ThreadLeakCheck.class)
@Timeout(60)
class AllToAllExchangeTest {
  private static final int WORKERS = 3;
  private static final int ROWS = 4_000;
  private static final int WIDTH = 7; // odd on purpose
  private static final int LAYERS = 2;
  private static final int CHUNK_ROWS = 333;

  /** Value of column c of row r of worker w's layer-l matrix: unique per (w, l, r, c) and exact in float. */
  private static float value(int w, int l, int r, int c) {
    return w * 100_000f + l * 10_000f + r + c * 0.125f;
  }

  /** The rows of worker {@code owner} that worker {@code reader} needs as halo: a fixed pseudo-random subset. */
  private static int[] needed(int owner, int reader) {
    return IntStream.range(0, ROWS).filter(r -> (r * 31 + owner * 7 + reader * 13) % 5 < 2).toArray();
  }

  private static float[] layerMatrix(int w, int l) {
    float[] m = new float[ROWS * WIDTH];
    for (int r = 0; r < ROWS; r++) {
      for (int c = 0; c < WIDTH; c++) {
        m[r * WIDTH + c] = value(w, l, r, c);
      }
    }
    return m;
  }

  @Test
  void everyReceivedRowEqualsWhatItsOwnerSent() throws Exception {
    TransportOptions options = TransportTesting.quick().creditsPerStream(4).build();
    List<TransportServer> servers = new ArrayList<>();
    List<InboundQueue> inboxes = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(2 * WORKERS);
    try {
      for (int w = 0; w < WORKERS; w++) {
        InboundQueue q = new InboundQueue();
        TransportServer s = new TransportServer(options, q);
        s.start();
        servers.add(s);
        inboxes.add(q);
      }
      PeerConnection[][] links = new PeerConnection[WORKERS][WORKERS];
      for (int w = 0; w < WORKERS; w++) {
        for (int p = 0; p < WORKERS; p++) {
          if (p != w) {
            links[w][p] = servers.get(w).connect(LOOPBACK, servers.get(p).port());
          }
        }
      }
      List<Future<?>> work = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        int me = w;
        work.add(pool.submit(() -> send(me, links[me])));
        work.add(pool.submit(() -> receive(me, inboxes.get(me))));
      }
      for (Future<?> f : work) {
        assertNull(f.get(30, TimeUnit.SECONDS));
      }
      for (int w = 0; w < WORKERS; w++) {
        for (PeerConnection c : servers.get(w).connections()) {
          assertEquals(0, c.stats().heldInboundBytes(), "every block released");
        }
      }
    } finally {
      pool.shutdownNow();
      for (TransportServer s : servers) {
        s.stop();
      }
    }
  }

  private static Void send(int me, PeerConnection[] links) throws Exception {
    for (int l = 0; l < LAYERS; l++) {
      float[] h = layerMatrix(me, l);
      for (int p = 0; p < WORKERS; p++) {
        if (p == me) {
          continue;
        }
        int[] rows = needed(me, p);
        int chunks = Math.max(1, (rows.length + CHUNK_ROWS - 1) / CHUNK_ROWS);
        for (int k = 0; k < chunks; k++) {
          int from = k * CHUNK_ROWS;
          int to = Math.min(rows.length, from + CHUNK_ROWS);
          links[p].sendBlocking(RowBlock.gather(me, l, k, k == chunks - 1, rows, from, to, h, WIDTH));
        }
      }
    }
    return null;
  }

  private static Void receive(int me, InboundQueue inbox) throws Exception {
    boolean[][][] seen = new boolean[WORKERS][LAYERS][ROWS];
    int exchangesLeft = (WORKERS - 1) * LAYERS;
    int[] nextChunk = new int[WORKERS * LAYERS];
    float[] row = new float[WIDTH];
    while (exchangesLeft > 0) {
      RowBlock b = (RowBlock) TransportTesting.nextMessage(inbox);
      int from = b.stream();
      assertTrue(from != me && from >= 0 && from < WORKERS, "block from worker " + from);
      assertEquals(WIDTH, b.width());
      assertEquals(nextChunk[from * LAYERS + b.layer()]++, b.chunk(), "chunks of one stream arrive in order");
      for (int i = 0; i < b.rowCount(); i++) {
        int r = b.row(i);
        assertFalse(seen[from][b.layer()][r], "row " + r + " received twice");
        seen[from][b.layer()][r] = true;
        b.copyRowTo(i, row, 0);
        for (int c = 0; c < WIDTH; c++) {
          assertEquals(value(from, b.layer(), r, c), row[c], "worker " + from + " layer " + b.layer() + " row " + r);
        }
      }
      if (b.last()) {
        exchangesLeft--;
      }
      b.release();
    }
    for (int p = 0; p < WORKERS; p++) {
      if (p == me) {
        continue;
      }
      int[] expected = needed(p, me);
      for (int l = 0; l < LAYERS; l++) {
        int count = 0;
        for (boolean s : seen[p][l]) {
          count += s ? 1 : 0;
        }
        assertEquals(expected.length, count, "rows from worker " + p + " in layer " + l);
        for (int r : expected) {
          assertTrue(seen[p][l][r], "row " + r + " of worker " + p + " missing");
        }
      }
    }
    return null;
  }
}
