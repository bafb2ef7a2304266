package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.graph.GraphBlock;
import org.yarngnn.compute.tensor.DenseMatrix;

/** The halo users an exchange counts down: right for every row and slot, and built once per in-edge block. */
class HaloUsersTest {
  /** {@code n} own rows, {@code halo} halo slots, up to 12 in-edges a row from anywhere (repeats included). */
  private static GraphBlock block(SplittableRandom r, int n, int halo) {
    int[] rowPtr = new int[n + 1];
    List<Integer> cols = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int degree = r.nextInt(13);
      for (int e = 0; e < degree; e++) {
        cols.add(r.nextInt(n + halo));
      }
      rowPtr[i + 1] = cols.size();
    }
    long[] ids = new long[n];
    long[] haloIds = new long[halo];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    for (int j = 0; j < halo; j++) {
      haloIds[j] = n + j;
    }
    int[] col = cols.stream().mapToInt(Integer::intValue).toArray();
    return new GraphBlock(ids, haloIds, new Csr(n, n + halo, rowPtr, col, null));
  }

  @Test
  void everyRowWaitsForItsHaloInEdgesAndEverySlotNamesItsRows() {
    SplittableRandom r = new SplittableRandom(5);
    for (int round = 0; round < 20; round++) {
      int n = 1 + r.nextInt(200);
      int halo = r.nextInt(150);
      GraphBlock g = block(r, n, halo);
      HaloUsers u = HaloUsers.of(g);
      int[] rowPtr = g.inEdges().rowPtr();
      int[] col = g.inEdges().colIdx();
      int[] waits = new int[n];
      List<List<Integer>> expected = new ArrayList<>();
      for (int j = 0; j < halo; j++) {
        expected.add(new ArrayList<>());
      }
      for (int row = 0; row < n; row++) {
        for (int e = rowPtr[row]; e < rowPtr[row + 1]; e++) {
          if (col[e] >= n) {
            waits[row]++;
            expected.get(col[e] - n).add(row);
          }
        }
      }
      assertArrayEquals(waits, u.waitCounts(), "round " + round);
      assertEquals(halo + 1, u.userPtr().length);
      for (int j = 0; j < halo; j++) {
        int[] got = Arrays.copyOfRange(u.users(), u.userPtr()[j], u.userPtr()[j + 1]);
        Arrays.sort(got);
        int[] want = expected.get(j).stream().mapToInt(Integer::intValue).sorted().toArray();
        assertArrayEquals(want, got, "round " + round + ", slot " + j);
      }
    }
  }

  @Test
  void eachExchangeCountsDownItsOwnCopy() {
    HaloUsers u = HaloUsers.of(block(new SplittableRandom(1), 50, 40));
    int[] first = u.waitCounts();
    Arrays.fill(first, 0);
    assertTrue(Arrays.stream(u.waitCounts()).sum() > 0, "the kept counts are not the ones counted down");
  }

  @Test
  void layersOverTheSameBlockShareOneAndAnotherBlockGetsItsOwn() throws Exception {
    SplittableRandom r = new SplittableRandom(3);
    GraphBlock whole = block(r, 30, 20);
    GraphBlock sample = block(r, 30, 20);
    HaloPlan plan = HaloPlan.of(new GraphBlock[] {whole, whole, sample}, new int[3][2][0], new int[3][2][0]);
    HaloUsers first = plan.users(0, whole);
    assertTrue(first.describes(whole));
    assertSame(first, plan.users(1, whole), "the second layer over the same block reuses the first's");
    assertSame(first, plan.users(0, whole), "and so does the next epoch");
    HaloUsers other = plan.users(2, sample);
    assertNotSame(first, other);
    assertTrue(other.describes(sample));
    assertSame(other, plan.users(2, sample));
    plan.releaseUsers();
    assertNotSame(first, plan.users(0, whole), "released, they are built again");
  }

  @Test
  void theUsersBuiltAheadAreTheOnesTheLayersGet() throws Exception {
    SplittableRandom r = new SplittableRandom(6);
    for (int round = 0; round < 200; round++) {
      GraphBlock whole = block(r, 40, 30);
      GraphBlock sample = block(r, 40, 30);
      HaloPlan plan = HaloPlan.of(new GraphBlock[] {whole, sample}, new int[2][2][0], new int[2][2][0]);
      plan.buildUsersAhead();
      if (round % 2 == 1) {
        Thread.yield(); // the layer may ask before, while or after the ahead thread claims the first block
      }
      // Whenever the layers ask (before, during or after the build), each block has one set of users.
      HaloUsers first = plan.users(0, whole);
      HaloUsers second = plan.users(1, sample);
      assertTrue(first.describes(whole) && second.describes(sample), "round " + round);
      Thread.sleep(round % 3);
      assertSame(first, plan.users(0, whole), "round " + round);
      assertSame(second, plan.users(1, sample), "round " + round);
      assertArrayEquals(HaloUsers.of(sample).waitCounts(), second.waitCounts(), "round " + round);
    }
  }

  @Test
  void aBlockWithoutHaloWaitsForNothing() {
    GraphBlock alone = block(new SplittableRandom(7), 60, 0);
    HaloUsers u = HaloUsers.of(alone);
    assertEquals(0, Arrays.stream(u.waitCounts()).sum());
    assertEquals(60, u.waitCounts().length);
    assertArrayEquals(new int[1], u.userPtr());
    assertEquals(0, u.users().length);
  }

  @Test
  void theUsersOfAnotherBlockAreRefusedBeforeAnythingIsReceived() {
    SplittableRandom r = new SplittableRandom(4);
    GraphBlock g = block(r, 10, 5);
    HaloExchange ex = new HaloExchange(0, g, new DenseMatrix(15, 2), new int[2][0], new int[][] {new int[0],
        {10, 11}}, 4);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ex.receiveAndAggregate(null, null, rows -> { }, HaloUsers.of(block(r, 10, 5))));
    assertTrue(e.getMessage().contains("layer 0"), e.getMessage());
  }
}
