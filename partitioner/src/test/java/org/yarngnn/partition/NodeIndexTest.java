package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NodeIndexTest {
  @Test
  void denseIdsInOrderNeedNoTable() {
    NodeIndex index = new NodeIndex(1000);
    for (int i = 0; i < 1000; i++) {
      assertEquals(i, index.add(i));
    }
    assertTrue(index.isIdentity());
    assertEquals(0, index.sizeInBytes());
    assertEquals(-1 - 17, index.add(17), "a duplicate names the existing index");
    assertEquals(999, index.get(999));
    assertEquals(-1, index.get(1000));
    assertEquals(-1, index.get(-1));
    assertEquals(1000, index.keysInOrder().length);
    assertEquals(999, index.keysInOrder()[999]);
  }

  @Test
  void anIdBreakingTheIdentityMovesEverythingIntoTheTable() {
    NodeIndex index = new NodeIndex(4);
    for (int i = 0; i < 100; i++) {
      index.add(i);
    }
    assertEquals(100, index.add(5_000_000_000L));
    assertFalse(index.isIdentity());
    assertEquals(101, index.add(-7));
    assertEquals(-1 - 42, index.add(42));
    assertEquals(-1 - 100, index.add(5_000_000_000L));
    for (int i = 0; i < 100; i++) {
      assertEquals(i, index.get(i));
    }
    assertEquals(100, index.get(5_000_000_000L));
    assertEquals(101, index.get(-7));
    assertEquals(-1, index.get(100));
    long[] keys = index.keysInOrder();
    assertEquals(102, keys.length);
    assertEquals(-7, keys[101]);
    assertTrue(index.sizeInBytes() > 0);
  }

  @Test
  void aRangeOwnersConsecutiveIdsNeedNoTableEither() {
    NodeIndex index = new NodeIndex(500);
    for (int i = 0; i < 500; i++) {
      assertEquals(i, index.add(500 + i));
    }
    assertFalse(index.isIdentity(), "ids do not start at 0");
    assertEquals(0, index.sizeInBytes());
    assertEquals(-1 - 10, index.add(510));
    assertEquals(-1, index.get(499));
    assertEquals(-1, index.get(1000));
    assertEquals(-1, index.get(Long.MIN_VALUE));
    assertEquals(250, index.get(750));
    assertEquals(500, index.add(3));
    assertTrue(index.sizeInBytes() > 0);
    assertEquals(250, index.get(750));
    assertEquals(500, index.get(3));
    assertEquals(3, index.keysInOrder()[500]);
    assertEquals(999, index.keysInOrder()[499]);
    NodeIndex negative = new NodeIndex(0);
    assertEquals(0, negative.add(Long.MIN_VALUE + 1));
    assertEquals(1, negative.add(Long.MAX_VALUE));
    assertEquals(1, negative.get(Long.MAX_VALUE));
  }

  @Test
  void sparseIdsFromTheStart() {
    NodeIndex index = new NodeIndex(0);
    long[] ids = {10, 3, 7, Long.MAX_VALUE, -2};
    for (int i = 0; i < ids.length; i++) {
      assertEquals(i, index.add(ids[i]));
    }
    assertArrayEquals(ids, index.keysInOrder());
    assertEquals(-1 - 1, index.add(3));
    assertEquals(-1, index.get(0));
  }

  @Test
  void longMinValueIsAnOrdinaryId() {
    // First (the run starts at it), then breaking the run.
    NodeIndex first = new NodeIndex(0);
    assertEquals(0, first.add(Long.MIN_VALUE));
    assertEquals(1, first.add(Long.MIN_VALUE + 1));
    assertEquals(2, first.add(7));
    assertEquals(-1 - 0, first.add(Long.MIN_VALUE));
    assertEquals(0, first.get(Long.MIN_VALUE));
    assertEquals(1, first.get(Long.MIN_VALUE + 1));
    assertArrayEquals(new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, 7}, first.keysInOrder());
    // In table mode, among ids that make the table grow.
    NodeIndex table = new NodeIndex(0);
    assertEquals(0, table.add(5));
    assertEquals(1, table.add(-5));
    assertEquals(-1, table.get(Long.MIN_VALUE));
    assertEquals(2, table.add(Long.MIN_VALUE));
    for (int i = 0; i < 100; i++) {
      assertEquals(3 + i, table.add(1000L * i + 1));
    }
    assertEquals(-1 - 2, table.add(Long.MIN_VALUE));
    assertEquals(2, table.get(Long.MIN_VALUE));
    assertEquals(Long.MIN_VALUE, table.keysInOrder()[2]);
    assertEquals(103, table.keysInOrder().length);
  }
}
