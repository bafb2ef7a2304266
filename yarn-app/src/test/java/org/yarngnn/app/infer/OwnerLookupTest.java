package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.yarngnn.partition.Ownership;

class OwnerLookupTest {
  private static void agrees(Ownership own, long id) {
    assertEquals(own.owner(id), new OwnerLookup(own).of(id), own + " id " + id);
  }

  @Test
  void rangesAgreeWithTheOwnershipEverywhere() {
    for (int parts = 1; parts <= 12; parts++) {
      for (long nodes : new long[] {0, 1, 2, 5, 11, 1000, 1_000_003}) {
        Ownership own = Ownership.ranges(parts, nodes);
        OwnerLookup lookup = new OwnerLookup(own);
        for (long id = -3; id < Math.min(nodes, 3000) + 3; id++) {
          assertEquals(own.owner(id), lookup.of(id), own + " id " + id);
        }
        for (int p = 0; p <= parts; p++) {
          long start = own.rangeStart(p);
          for (long id = start - 1; id <= start + 1; id++) {
            agrees(own, id);
          }
        }
      }
    }
  }

  @Test
  void hashAndOutOfRangeIdsAreTheOwnerships() {
    Random r = new Random(7);
    Ownership hash = Ownership.hash(3);
    Ownership range = Ownership.ranges(4, 100);
    for (int i = 0; i < 1000; i++) {
      long id = r.nextLong();
      agrees(hash, id);
      agrees(range, id);
    }
    agrees(range, Long.MAX_VALUE);
    agrees(range, Long.MIN_VALUE);
  }
}
