package org.yarngnn.compute.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EdgeBalancedRowsTest {
  @Test
  void coversEveryRowOnceAndSplitsBySkewedEdgeCounts() {
    int rows = 50_000;
    int[] rowPtr = new int[rows + 1];
    for (int i = 0; i < rows; i++) {
      int deg = i < 3 ? 400_000 : (i % 7 == 0 ? 0 : 1 + i % 13); // three hub rows, empty rows, a long tail
      rowPtr[i + 1] = rowPtr[i] + deg;
    }
    AtomicIntegerArray seen = new AtomicIntegerArray(rows);
    AtomicLong largest = new AtomicLong();
    EdgeBalancedRows.parallel(rowPtr, rows, (from, to) -> {
      for (int i = from; i < to; i++) {
        seen.incrementAndGet(i);
      }
      largest.accumulateAndGet(to - from, Math::max);
    });
    for (int i = 0; i < rows; i++) {
      assertEquals(1, seen.get(i), "row " + i);
    }
    // The tail (after the hubs) is cut into many ranges instead of a few row blocks.
    assertTrue(largest.get() < rows / 4, "largest range " + largest.get());
  }

  @Test
  void smallAndEmptyInputs() {
    AtomicIntegerArray seen = new AtomicIntegerArray(3);
    EdgeBalancedRows.parallel(new int[] {0, 0, 5, 5}, 3, (from, to) -> {
      for (int i = from; i < to; i++) {
        seen.incrementAndGet(i);
      }
    });
    assertEquals("[1, 1, 1]", seen.toString());
    EdgeBalancedRows.parallel(new int[] {0}, 0, (from, to) -> {
      throw new AssertionError("no rows, no call");
    });
  }
}
