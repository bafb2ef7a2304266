package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yarngnn.partition.Ownership;

class EdgeRouterTest {
  /** Two owners: ids 0..4 and 5..9. */
  private static final Ownership OWNERS = Ownership.ranges(2, 10);

  private record Sent(int owner, EdgeBlock block) {}

  private static List<Sent> route(boolean weighted, boolean undirected, boolean zero, int blockRows, boolean batch,
      long[] src, long[] dst, float[] w) throws Exception {
    List<Sent> out = new ArrayList<>();
    EdgeRouter r = new EdgeRouter(OWNERS, 2, weighted, undirected, zero, blockRows, (q, b) -> out.add(new Sent(q, b)));
    r.file(4);
    if (batch) {
      r.edges(src, dst, w, src.length, 100);
    } else {
      for (int i = 0; i < src.length; i++) {
        r.edge(src[i], dst[i], w == null ? 1f : w[i], 100 + i);
      }
    }
    r.flush();
    return out;
  }

  private static String describe(List<Sent> sent) {
    StringBuilder sb = new StringBuilder();
    for (Sent s : sent) {
      EdgeBlock b = s.block();
      sb.append(s.owner()).append(b.touch() ? " touch" : "").append(" f").append(b.file()).append(':');
      for (int i = 0; i < b.count(); i++) {
        sb.append(' ').append(b.touch() ? "" : b.src()[i] + ">").append(b.dst()[i]).append('@').append(b.rows()[i]);
        if (b.weights() != null) {
          sb.append('w').append(b.weights()[i]);
        }
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private static final long[] SRC = {1, 7, 8, 3, 6};
  private static final long[] DST = {2, 3, 9, 3, 1};
  private static final float[] W = {0.5f, 2f, 3f, 4f, 5f};

  @Test
  void batchesSplitByDestinationOwnerWithWeightsAndRows() throws Exception {
    List<Sent> sent = route(true, false, false, 16, true, SRC, DST, W);
    assertEquals("0 f4: 1>2@100w0.5 7>3@101w2.0 3>3@103w4.0 6>1@104w5.0\n1 f4: 8>9@102w3.0\n", describe(sent));
  }

  @Test
  void batchAndRowByRowRoutingAgree() throws Exception {
    for (boolean undirected : new boolean[] {false, true}) {
      for (boolean zero : new boolean[] {false, true}) {
        assertEquals(describe(route(true, undirected, zero, 2, false, SRC, DST, W)),
            describe(route(true, undirected, zero, 2, true, SRC, DST, W)), "undirected " + undirected + " zero " + zero);
      }
    }
  }

  @Test
  void undirectedAddsReversesExceptForSelfLoops() throws Exception {
    List<Sent> sent = route(false, true, false, 16, true, SRC, DST, null);
    assertEquals("0 f4: 1>2@100 2>1@100 7>3@101 3>3@103 6>1@104\n1 f4: 3>7@101 8>9@102 9>8@102 1>6@104\n",
        describe(sent));
  }

  @Test
  void zeroFillingTouchesSourcesOfOtherOwners() throws Exception {
    List<Sent> sent = route(false, false, true, 16, true, SRC, DST, null);
    // 7 (owner 1) and 6 (owner 1) point at owner 0's nodes: owner 1 learns they occur as sources.
    assertEquals("0 f4: 1>2@100 7>3@101 3>3@103 6>1@104\n1 f4: 8>9@102\n1 touch f4: 7@101 6@104\n",
        describe(sent));
  }

  @Test
  void blocksAreBoundedAndCarryTheirFile() throws Exception {
    long[] src = new long[5];
    long[] dst = new long[5];
    Arrays.fill(dst, 1);
    List<Sent> sent = route(false, false, false, 2, true, src, dst, null);
    assertEquals(3, sent.size());
    for (Sent s : sent) {
      assertTrue(s.block().count() <= 2);
      assertEquals(4, s.block().file());
    }
    assertArrayEquals(new long[] {104}, Arrays.copyOf(sent.get(2).block().rows(), 1));
  }
}
