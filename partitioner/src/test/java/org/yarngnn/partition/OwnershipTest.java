package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OwnershipTest {
  /** The range owner's definition: the largest p with floor(p*n/P) <= id. */
  private static int rangeOwner(int parts, long nodes, long id) {
    return (int) (((id + 1) * parts - 1) / nodes);
  }

  /** Up to 8 parts the owner is found by scanning the range starts: it must agree with the definition. */
  @Test
  void scannedAndDividedRangeOwnersAgreeEverywhere() {
    for (int parts = 1; parts <= 12; parts++) {
      for (long nodes : new long[] {1, 2, 5, 11, 1000, 1_000_003}) {
        Ownership own = Ownership.ranges(parts, nodes);
        for (long id = 0; id < Math.min(nodes, 3000); id++) {
          assertEquals(rangeOwner(parts, nodes, id), own.owner(id), own + " id " + id);
        }
        for (int p = 0; p < parts; p++) {
          long start = own.rangeStart(p);
          for (long id = Math.max(0, start - 1); id <= Math.min(nodes - 1, start + 1); id++) {
            assertEquals(rangeOwner(parts, nodes, id), own.owner(id), own + " id " + id);
          }
        }
      }
    }
    // Outside the dense range the hash decides, scanned or not.
    java.util.Random r = new java.util.Random(7);
    Ownership range = Ownership.ranges(4, 100);
    Ownership hash = Ownership.hash(4);
    for (int i = 0; i < 1000; i++) {
      long id = r.nextLong();
      if (id < 0 || id >= 100) {
        assertEquals(hash.owner(id), range.owner(id), "id " + id);
      }
    }
    assertEquals(hash.owner(Long.MAX_VALUE), range.owner(Long.MAX_VALUE));
    assertEquals(hash.owner(Long.MIN_VALUE), range.owner(Long.MIN_VALUE));
  }

  @Test
  void rangesAreContiguousAndBalanced() {
    for (int parts = 1; parts <= 7; parts++) {
      for (long n : new long[] {1, 5, 10, 2708, 1_000_003}) {
        Ownership o = Ownership.ranges(parts, n);
        int prev = 0;
        long[] sizes = new long[parts];
        for (long id = 0; id < n; id += Math.max(1, n / 5000)) {
          int p = o.owner(id);
          assertTrue(p >= prev, "ranges are contiguous");
          prev = p;
        }
        for (int p = 0; p < parts; p++) {
          long start = o.rangeStart(p);
          long end = p + 1 < parts ? o.rangeStart(p + 1) : n;
          sizes[p] = end - start;
          if (end > start) {
            assertEquals(p, o.owner(start));
            assertEquals(p, o.owner(end - 1));
          }
        }
        long max = java.util.Arrays.stream(sizes).max().getAsLong();
        long min = java.util.Arrays.stream(sizes).min().getAsLong();
        assertTrue(max - min <= 1, "sizes differ by at most one");
      }
    }
  }

  @Test
  void hashSpreadsSparseIds() {
    Ownership o = Ownership.hash(3);
    int[] counts = new int[3];
    for (long i = 0; i < 30_000; i++) {
      counts[o.owner(i << 20)]++;
    }
    for (int c : counts) {
      assertTrue(Math.abs(c - 10_000) < 500, "hash balance " + c);
    }
  }

  @Test
  void roundTripsThroughManifestString() {
    for (Ownership o : new Ownership[] {Ownership.hash(4), Ownership.ranges(3, 2708)}) {
      assertEquals(o, Ownership.parse(o.toString()));
    }
    assertEquals("range:3:2708", Ownership.ranges(3, 2708).toString());
    assertThrows(IllegalArgumentException.class, () -> Ownership.parse("mod:3"));
  }

  @Test
  void autoDetectsDenseIds() {
    assertTrue(Ownership.choose(Ownership.Kind.AUTO, 2, 10, 0, 9).isRange());
    assertFalse(Ownership.choose(Ownership.Kind.AUTO, 2, 10, 0, 10).isRange());
    assertFalse(Ownership.choose(Ownership.Kind.HASH, 2, 10, 0, 9).isRange());
    assertThrows(IllegalArgumentException.class, () -> Ownership.choose(Ownership.Kind.RANGE, 2, 10, 5, 14));
  }

  @Test
  void idsOutsideTheRangeStillHaveAnOwner() {
    Ownership o = Ownership.ranges(4, 100);
    for (long id : new long[] {-1, 100, Long.MAX_VALUE, Long.MIN_VALUE}) {
      int p = o.owner(id);
      assertTrue(p >= 0 && p < 4);
    }
  }
}
