package org.yarngnn.app.graphworker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The peak resident set a worker reports: Linux's VmHWM, at least what this JVM holds in heap right now. */
class WorkerFiguresTest {
  @Test
  void peakRssIsTheProcessHighWaterMark() {
    long rss = WorkerFigures.peakRssBytes();
    if (!Files.isReadable(Path.of("/proc/self/status"))) {
      assertEquals(-1, rss, "no procfs: no figure");
      return;
    }
    Runtime rt = Runtime.getRuntime();
    assertTrue(rss >= rt.totalMemory() - rt.freeMemory(), "peak RSS " + rss + " below the heap in use");
  }
}
