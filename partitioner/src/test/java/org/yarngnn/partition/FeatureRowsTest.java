package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.tensor.DenseMatrix;

/** Rows added one by one, zero rows and adopted arrays, in any mix, read back in arrival order. */
class FeatureRowsTest {
  @Test
  void mixedChunksReadBackInOrder() {
    int width = 3;
    Random rnd = new Random(7);
    FeatureRows f = new FeatureRows(width);
    float[] expected = new float[200_000 * width];
    int rows = 0;
    while (rows < 190_000) {
      int kind = rnd.nextInt(4);
      if (kind == 0) {
        int n = rnd.nextInt(5000);
        float[] block = new float[(n + rnd.nextInt(3)) * width]; // longer than its rows, as a router's block
        for (int i = 0; i < n * width; i++) {
          block[i] = rnd.nextFloat();
        }
        f.adopt(block, n);
        System.arraycopy(block, 0, expected, rows * width, n * width);
        rows += n;
      } else if (kind == 1) {
        f.addZero();
        rows++;
      } else {
        float[] row = {rnd.nextFloat(), rnd.nextFloat(), rnd.nextFloat()};
        f.add(row);
        System.arraycopy(row, 0, expected, rows * width, width);
        rows++;
      }
    }
    assertEquals(rows, f.rows());
    float[] out = new float[width];
    // Out of order, then in order (the cached chunk), both as copyRow reads them.
    for (int t = 0; t < 20_000; t++) {
      int r = rnd.nextInt(rows);
      f.copyRow(r, out, 0);
      assertArrayEquals(java.util.Arrays.copyOfRange(expected, r * width, r * width + width), out, "row " + r);
    }
    for (int r = 0; r < rows; r++) {
      f.copyRow(r, out, 0);
      assertArrayEquals(java.util.Arrays.copyOfRange(expected, r * width, r * width + width), out, "row " + r);
    }
    DenseMatrix m = f.toMatrix();
    assertArrayEquals(java.util.Arrays.copyOf(expected, rows * width), m.data());
  }
}
