package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.yarngnn.compute.tensor.DenseMatrix;

/** The embeddings check before writing: every finite value passes; the first bad row in row order is named. */
class NumberChecksTest {
  private static final int ROWS = 50_000;
  private static final int COLS = 37;

  private static long[] ids() {
    long[] ids = new long[ROWS];
    for (int r = 0; r < ROWS; r++) {
      ids[r] = 1000L + 7L * r;
    }
    return ids;
  }

  private static DenseMatrix finiteRows() {
    DenseMatrix m = new DenseMatrix(ROWS, COLS);
    float[] edge = {Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, -0.0f, 0f, Float.MIN_NORMAL, 1e-40f, -3.5f};
    for (int i = 0; i < m.data().length; i++) {
      m.data()[i] = edge[i % edge.length];
    }
    return m;
  }

  @Test
  void finiteExtremesPass() {
    assertDoesNotThrow(() -> NumberChecks.requireFinite(ids(), finiteRows(), 2));
  }

  @Test
  void theFirstBadRowInRowOrderIsNamedWhateverRangeFindsOne() {
    for (float bad : new float[] {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
      DenseMatrix m = finiteRows();
      m.data()[m.offset(41_000) + 1] = Float.NaN; // a later range's
      m.data()[m.offset(30_001) + 3] = bad;
      m.data()[m.offset(30_001) + 9] = Float.NaN;
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> NumberChecks.requireFinite(ids(), m, 2));
      assertEquals("node " + (1000L + 7L * 30_001) + ": embedding is not finite after layer 1 (column 3 is " + bad
          + "); nothing was written", e.getMessage());
    }
  }

  @Test
  void theLastValueOfTheLastRowCounts() {
    DenseMatrix m = finiteRows();
    m.data()[m.data().length - 1] = Float.POSITIVE_INFINITY;
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> NumberChecks.requireFinite(ids(), m, 0));
    assertEquals("node " + (1000L + 7L * (ROWS - 1)) + ": embedding is not finite after layer (the last) (column "
        + (COLS - 1) + " is Infinity); nothing was written", e.getMessage());
  }
}
