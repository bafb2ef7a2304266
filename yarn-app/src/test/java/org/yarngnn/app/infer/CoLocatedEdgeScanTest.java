package org.yarngnn.app.infer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yarngnn.io.table.EdgeTable;
import org.yarngnn.io.table.TableReadOptions;
import org.yarngnn.partition.MissingFeatures;
import org.yarngnn.partition.Ownership;
import org.yarngnn.partition.PartitionAssembler;

/**
 * The coordination of {@link CoLocatedEdgeScan}: workers wait for each other, a used or broken scan sends later
 * edge phases back to reading apart, and one worker's failure, abandonment or absence fails every worker instead of
 * leaving one waiting. (What the workers keep through the scan is checked end to end: CoraLocalInferenceTest and
 * DanglingEndpointTest run 2 to 5 local workers reading every edge, which now share one scan.)
 */
class CoLocatedEdgeScanTest {
  private static final Ownership TWO = Ownership.ranges(2, 4);
  @TempDir Path dir;

  private static PartitionAssembler.DirectEdges direct(int partition) {
    return new PartitionAssembler(partition, TWO, 1, false, false, false, MissingFeatures.ERROR).directEdges(false);
  }

  private EdgeTable table() throws Exception {
    // Two files: two splits, one for each worker's thread.
    Path t = Files.createDirectories(dir.resolve("edges"));
    Files.write(t.resolve("part-0.tsv"), "0\t1\n1\t2\n".getBytes(StandardCharsets.UTF_8));
    Files.write(t.resolve("part-1.tsv"), "2\t3\n3\t0\n".getBytes(StandardCharsets.UTF_8));
    return EdgeTable.open(new Configuration(), new org.apache.hadoop.fs.Path(t.toUri()),
        TableReadOptions.builder().build());
  }

  private static boolean join(CoLocatedEdgeScan scan, int index, EdgeTable edges) throws Exception {
    return scan.join(index, direct(index), TWO, false, 1, () -> edges.splits(1 << 20), () -> false, false, false, 0);
  }

  /** {@link #join} on a thread of its own (it waits for the other workers). */
  private static CompletableFuture<Boolean> joinLater(CoLocatedEdgeScan scan, int index, EdgeTable edges) {
    return joinSharing(scan, index, edges, false);
  }

  @Test
  void workersWaitForEachOtherAndALaterPhaseReadsApart() throws Exception {
    EdgeTable edges = table();
    CoLocatedEdgeScan scan = new CoLocatedEdgeScan(2, 10_000);
    CompletableFuture<Boolean> first = joinLater(scan, 0, edges);
    Thread.sleep(200);
    assertFalse(first.isDone(), "the first worker waits for the second");
    assertTrue(join(scan, 1, edges));
    assertTrue(first.get(5, TimeUnit.SECONDS));
    // A construction started over: the scan was used, so each worker reads apart.
    assertFalse(join(scan, 0, edges));
    assertFalse(join(scan, 1, edges));
  }

  @Test
  void aReaderThatFailsFailsEveryWorker() throws Exception {
    EdgeTable edges = table();
    CoLocatedEdgeScan scan = new CoLocatedEdgeScan(2, 10_000);
    CompletableFuture<Boolean> other = joinLater(scan, 1, edges);
    assertTrue(join(scan, 0, edges));
    assertTrue(other.get(5, TimeUnit.SECONDS));
    // Worker 0's thread is abandoned at its first split; worker 1's thread then stops at its next.
    IllegalStateException abandoned = new IllegalStateException("worker 0: construction abandoned");
    assertThrows(IllegalStateException.class, () -> scan.read(edges, () -> {
      throw abandoned;
    }));
    IllegalStateException seen = assertThrows(IllegalStateException.class, () -> scan.read(edges, () -> { }));
    assertTrue(seen.getMessage().contains("co-located worker's edge reading failed"), seen.getMessage());
    for (int w = 0; w < 2; w++) {
      int index = w;
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> scan.awaitReaders(index, () -> false));
      assertTrue(e.getMessage().contains("worker 0: construction abandoned"), e.getMessage());
    }
    assertFalse(join(scan, 0, edges), "a broken scan is not used again");
  }

  @Test
  void aWorkerLeftAloneGivesUpInsteadOfWaitingForever() throws Exception {
    EdgeTable edges = table();
    CoLocatedEdgeScan scan = new CoLocatedEdgeScan(2, 300);
    long t0 = System.nanoTime();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> join(scan, 0, edges));
    assertTrue(e.getMessage().contains("worker 0 waited 300 ms for the other workers to reach their edge phase"),
        e.getMessage());
    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5));
    assertFalse(join(scan, 1, edges), "the late worker reads apart");
  }

  @Test
  void anAbandonedWorkerStopsWaiting() throws Exception {
    EdgeTable edges = table();
    CoLocatedEdgeScan scan = new CoLocatedEdgeScan(2, 60_000);
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    CompletableFuture<Void> later = CompletableFuture.runAsync(() -> {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      stop.set(true);
    });
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> scan.join(0, direct(0), TWO, false, 1, () -> edges.splits(1 << 20), stop::get, false, false, 0));
    assertTrue(e.getMessage().contains("worker 0 abandoned its construction"), e.getMessage());
    later.get(5, TimeUnit.SECONDS);
  }

  /**
   * Joins worker {@code index} on a thread of its own, saying whether its partition can take its rows from a shared
   * CSR.
   */
  private static CompletableFuture<Boolean> joinSharing(CoLocatedEdgeScan scan, int index, EdgeTable edges,
      boolean sharable) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return scan.join(index, direct(index), TWO, false, 1, () -> edges.splits(1 << 20), () -> false, sharable,
            false, 4);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /** A two-worker scan that both workers joined, each saying whether it can share; asserts both were let in. */
  private static CoLocatedEdgeScan joinedBoth(EdgeTable edges, boolean sharable0, boolean sharable1)
      throws Exception {
    CoLocatedEdgeScan scan = new CoLocatedEdgeScan(2, 10_000);
    CompletableFuture<Boolean> a = joinSharing(scan, 0, edges, sharable0);
    CompletableFuture<Boolean> b = joinSharing(scan, 1, edges, sharable1);
    assertTrue(a.get(5, TimeUnit.SECONDS) && b.get(5, TimeUnit.SECONDS));
    return scan;
  }

  @Test
  void rangeWorkersShareOneCsrBuiltOnce() throws Exception {
    EdgeTable edges = table();
    CoLocatedEdgeScan scan = joinedBoth(edges, true, true);
    assertTrue(scan.shared());
    CompletableFuture<Void> other = CompletableFuture.runAsync(() -> scan.read(edges, () -> { }));
    scan.read(edges, () -> { });
    other.get(5, TimeUnit.SECONDS);
    CompletableFuture<org.yarngnn.compute.graph.Csr> second = CompletableFuture.supplyAsync(() -> {
      try {
        scan.awaitReaders(1, () -> false);
        return scan.sharedRows(1, () -> false);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    scan.awaitReaders(0, () -> false);
    org.yarngnn.compute.graph.Csr all = scan.sharedRows(0, () -> false);
    assertTrue(all == second.get(5, TimeUnit.SECONDS), "one build for both workers");
    // Edges 0->1, 1->2, 2->3, 3->0: row r's source is r - 1 (mod 4).
    org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {0, 1, 2, 3, 4}, all.rowPtr());
    org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {3, 0, 1, 2},
        java.util.Arrays.copyOf(all.colIdx(), 4));
    scan.rowsTaken(0);
    scan.rowsTaken(1);
    assertThrows(IllegalStateException.class, () -> scan.sharedRows(0, () -> false));
  }

  @Test
  void oneWorkerThatCannotShareLeavesEveryWorkerFiltering() throws Exception {
    CoLocatedEdgeScan scan = joinedBoth(table(), true, false);
    assertFalse(scan.shared());
    assertThrows(IllegalStateException.class, () -> scan.sharedRows(0, () -> false));
  }
}
