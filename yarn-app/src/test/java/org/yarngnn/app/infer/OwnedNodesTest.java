package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

class OwnedNodesTest {
  private static final List<Path> FILES = List.of(new Path("nodes/a"), new Path("nodes/b"));

  private static NodeBlock block(int file, long... ids) {
    float[] values = new float[2 * ids.length];
    int[] labels = new int[ids.length];
    byte[] splits = new byte[ids.length];
    long[] rows = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      values[2 * i] = ids[i];
      values[2 * i + 1] = -ids[i];
      labels[i] = (int) ids[i] % 3;
      splits[i] = (byte) (ids[i] % 2);
      rows[i] = i;
    }
    return new NodeBlock(file, ids, rows, labels, splits, 2, values);
  }

  @Test
  void consecutiveIdsArrivingOutOfOrderAreRenumberedWithTheirRows() {
    OwnedNodes owned = new OwnedNodes(2);
    // Over a block of rows apart: 20000 ids from 100, in two interleaved halves.
    int n = 20_000;
    long[] odd = new long[n / 2];
    long[] even = new long[n / 2];
    for (int i = 0; i < n / 2; i++) {
      odd[i] = 100 + 2 * i + 1;
      even[i] = 100 + 2 * i;
    }
    owned.addAll(block(1, odd), FILES);
    owned.addAll(block(0, even), FILES);
    assertTrue(owned.renumberConsecutive());
    assertEquals(n, owned.size());
    long[] ids = owned.ids();
    int[] labels = owned.labels();
    byte[] splits = owned.splits();
    float[] rows = owned.takeRows().data();
    for (int j = 0; j < n; j++) {
      long id = 100 + j;
      assertEquals(id, ids[j]);
      assertEquals(j, owned.index.get(id));
      assertEquals(id % 3, labels[j]);
      assertEquals(id % 2, splits[j]);
      assertEquals(id, rows[2 * j]);
      assertEquals(-id, rows[2 * j + 1]);
    }
    assertThrows(IllegalStateException.class, () -> owned.addAll(block(0, 5), FILES));
  }

  @Test
  void missingNodesAfterRenumberingGetZeroRows() {
    OwnedNodes owned = new OwnedNodes(2);
    owned.addAll(block(0, 3, 1, 2), FILES);
    assertTrue(owned.renumberConsecutive());
    assertEquals(3, owned.addMissing(50));
    assertEquals(3, owned.index.get(50));
    assertEquals(0, owned.index.get(1));
    assertArrayEquals(new long[] {1, 2, 3, 50}, owned.ids());
    assertArrayEquals(new float[] {1, -1, 2, -2, 3, -3, 0, 0}, owned.takeRows().data());
  }

  @Test
  void idsInOrderOrWithGapsStayAsTheyAre() {
    OwnedNodes inOrder = new OwnedNodes(2);
    inOrder.addAll(block(0, 4, 5, 6), FILES);
    assertFalse(inOrder.renumberConsecutive());
    OwnedNodes gaps = new OwnedNodes(2);
    gaps.addAll(block(0, 9, 4, 6), FILES);
    assertFalse(gaps.renumberConsecutive());
    assertArrayEquals(new long[] {9, 4, 6}, gaps.ids());
    assertArrayEquals(new float[] {9, -9, 4, -4, 6, -6}, gaps.takeRows().data());
    assertFalse(new OwnedNodes(2).renumberConsecutive());
  }
}
