package org.yarngnn.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
  @Test
  void rowsAddedBetweenAdoptedBlocksShareOneArray() {
    // A worker's own blocks (adopted) alternate with rows routed from peers (added), as under hash ownership:
    // the added rows go on in one array instead of a fresh one after every adopted block.
    int width = 4;
    int rounds = 200;
    FeatureRows f = new FeatureRows(width);
    float[] expected = new float[rounds * 5 * width];
    int rows = 0;
    for (int r = 0; r < rounds; r++) {
      float[] block = new float[4 * width];
      java.util.Arrays.fill(block, r);
      f.adopt(block, 4);
      System.arraycopy(block, 0, expected, rows * width, block.length);
      rows += 4;
      float[] row = {-r, -r, -r, -r};
      f.add(row);
      System.arraycopy(row, 0, expected, rows * width, width);
      rows++;
    }
    long adopted = (long) rounds * 4 * width;
    long oneFillArray = (1 << 14) * width;
    assertTrue(f.heldFloats() <= adopted + oneFillArray, f.heldFloats() + " floats held for " + rows + " rows");
    assertArrayEquals(expected, f.toMatrix().data());
  }

  @Test
  void slicesOfOneArrayBackToBackBecomeTheMatrixUncopied() {
    int width = 4;
    float[] whole = new float[10 * width];
    for (int i = 0; i < whole.length; i++) {
      whole[i] = i;
    }
    FeatureRows f = new FeatureRows(width);
    f.adopt(whole, 0, 3);
    f.adopt(whole, 3 * width, 5);
    f.adopt(whole, 8 * width, 2);
    float[] row = new float[width];
    f.copyRow(4, row, 0);
    assertArrayEquals(new float[] {16, 17, 18, 19}, row);
    DenseMatrix m = f.toMatrix();
    assertSame(whole, m.data(), "no copy");
    assertEquals(10, m.rows());
  }

  @Test
  void slicesWithAGapOrOutOfOrderAreCopied() {
    int width = 2;
    float[] whole = new float[8 * width];
    for (int i = 0; i < whole.length; i++) {
      whole[i] = i;
    }
    // Rows 0-2, then 5-7 (3-4 were routed away): the matrix is the five rows, copied.
    FeatureRows gap = new FeatureRows(width);
    gap.adopt(whole, 0, 3);
    gap.adopt(whole, 5 * width, 3);
    DenseMatrix g = gap.toMatrix();
    assertNotSame(whole, g.data());
    assertArrayEquals(new float[] {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15}, g.data());
    // Back to back but in the other order.
    FeatureRows swapped = new FeatureRows(width);
    swapped.adopt(whole, 4 * width, 4);
    swapped.adopt(whole, 0, 4);
    DenseMatrix s = swapped.toMatrix();
    assertNotSame(whole, s.data());
    assertEquals(8f, s.data()[0]);
    assertEquals(0f, s.data()[8]);
    // A row added one by one after the slices.
    FeatureRows mixed = new FeatureRows(width);
    mixed.adopt(whole, 0, 7);
    mixed.add(new float[] {-1, -2});
    DenseMatrix x = mixed.toMatrix();
    assertNotSame(whole, x.data());
    assertEquals(-2f, x.data()[15]);
  }
}
