package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.yarngnn.io.table.InputException;
import org.yarngnn.partition.Ownership;

class EdgeReceiverTest {
  /** Worker 1 of ranges(2, 20) owns ids 10..19; it has rows for 10..14, which arrived out of order. */
  private static OwnedNodes nodes() {
    OwnedNodes owned = new OwnedNodes(1);
    owned.addAll(new NodeBlock(0, new long[] {12, 10, 14, 11, 13}, new long[] {1, 2, 3, 4, 5}, null, null, 1,
        new float[] {2, 0, 4, 1, 3}), List.of(new Path("nodes/part-0")));
    owned.renumberConsecutive();
    return owned;
  }

  private static final List<String> FILES = List.of("edges/part-0", "edges/part-1");

  private static EdgeReceiver receiver(OwnedNodes owned, OwnedEdges in, boolean zero) {
    return new EdgeReceiver(owned, in, Ownership.ranges(2, 20), 1, FILES, zero);
  }

  private static EdgeBlock block(long[] src, long[] dst, float[] w) {
    long[] rows = new long[src.length];
    Arrays.setAll(rows, i -> 40 + i);
    return new EdgeBlock(1, src.length, src, dst, rows, w, false);
  }

  @Test
  void resolvesDestinationsAndCopiesWeights() {
    OwnedNodes owned = nodes();
    OwnedEdges in = new OwnedEdges(true);
    EdgeReceiver r = receiver(owned, in, false);
    r.add(block(new long[] {11, 3, 14}, new long[] {12, 10, 14}, new float[] {0.5f, 2f, 3f}));
    r.add(block(new long[] {10}, new long[] {13}, new float[] {7f}));
    assertEquals(4, in.size);
    // Local indices follow id order after renumbering: id 10 + i has index i.
    assertArrayEquals(new int[] {2, 0, 4, 3}, Arrays.copyOf(in.dst, 4));
    assertArrayEquals(new long[] {11, 3, 14, 10}, Arrays.copyOf(in.src, 4));
    assertArrayEquals(new float[] {0.5f, 2f, 3f, 7f}, Arrays.copyOf(in.weight, 4));
  }

  @Test
  void unweightedTablesKeepNoWeights() {
    OwnedEdges in = new OwnedEdges(false);
    receiver(nodes(), in, false).add(block(new long[] {10}, new long[] {11}, null));
    assertNull(in.weight);
    assertEquals(1, in.size);
  }

  @Test
  void growsAcrossManyBlocks() {
    OwnedEdges in = new OwnedEdges(true);
    EdgeReceiver r = receiver(nodes(), in, false);
    int n = 50_000;
    long[] src = new long[n];
    long[] dst = new long[n];
    float[] w = new float[n];
    for (int i = 0; i < n; i++) {
      src[i] = i % 15;
      dst[i] = 10 + i % 5;
      w[i] = i;
    }
    for (int b = 0; b < 3; b++) {
      r.add(block(src, dst, w));
    }
    assertEquals(3 * n, in.size);
    assertEquals(12345f, in.weight[2 * n + 12345]);
    assertEquals(12345 % 5, in.dst[2 * n + 12345]);
  }

  @Test
  void danglingDestinationIsRefusedByFileAndRow() {
    EdgeReceiver r = receiver(nodes(), new OwnedEdges(false), false);
    InputException e = assertThrows(InputException.class,
        () -> r.add(block(new long[] {10, 11}, new long[] {12, 15}, null)));
    assertTrue(e.getMessage().startsWith("edges/part-1:41: dst 15 has no row"), e.getMessage());
  }

  @Test
  void danglingOwnSourceIsRefusedButAPeersIsNot() {
    OwnedEdges in = new OwnedEdges(false);
    EdgeReceiver r = receiver(nodes(), in, false);
    // Source 3 belongs to worker 0, which checks it when it is asked for that row.
    r.add(block(new long[] {3}, new long[] {10}, null));
    InputException e = assertThrows(InputException.class,
        () -> r.add(block(new long[] {10, 16}, new long[] {11, 12}, null)));
    assertTrue(e.getMessage().startsWith("edges/part-1:41: src 16 has no row"), e.getMessage());
  }

  @Test
  void zeroFillingAddsMissingEndpointsWithZeroRows() {
    OwnedNodes owned = nodes();
    OwnedEdges in = new OwnedEdges(false);
    EdgeReceiver r = receiver(owned, in, true);
    r.add(block(new long[] {16, 11}, new long[] {15, 15}, null));
    r.add(new EdgeBlock(0, 2, new long[2], new long[] {17, 10}, new long[] {1, 2}, null, true));
    assertEquals(8, owned.size());
    assertArrayEquals(new long[] {10, 11, 12, 13, 14, 15, 16, 17}, owned.ids());
    assertArrayEquals(new int[] {5, 5}, Arrays.copyOf(in.dst, 2));
    assertArrayEquals(new float[] {0, 1, 2, 3, 4, 0, 0, 0}, owned.takeRows().data());
  }
}
