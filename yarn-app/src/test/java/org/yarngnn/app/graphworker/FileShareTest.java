package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link WorkerConstruction#share}: every file read by exactly one worker, in contiguous runs of near-equal size. */
class FileShareTest {
  @Test
  void contiguousRunsWithinOneFileOfEachOther() {
    for (int files = 1; files <= 40; files++) {
      for (int workers = 1; workers <= 12; workers++) {
        int[] count = new int[workers];
        int last = 0;
        for (int f = 0; f < files; f++) {
          int w = WorkerConstruction.share(f, files, workers);
          assertTrue(w >= last && w < workers, files + " files, " + workers + " workers: file " + f + " -> " + w);
          last = w;
          count[w]++;
        }
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int c : count) {
          min = Math.min(min, c);
          max = Math.max(max, c);
        }
        assertTrue(max - min <= 1, files + " files over " + workers + " workers: " + min + ".." + max);
      }
    }
  }

  @Test
  void eightFilesOverTwoWorkersAreTwoHalves() {
    for (int f = 0; f < 8; f++) {
      assertEquals(f < 4 ? 0 : 1, WorkerConstruction.share(f, 8, 2));
    }
    // More workers than files: the first files go to spread-out workers, the rest read nothing.
    assertEquals(0, WorkerConstruction.share(0, 2, 5));
    assertEquals(2, WorkerConstruction.share(1, 2, 5));
  }
}
