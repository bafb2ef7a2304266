package org.yarngnn.app.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A worker whose driver's connection closed halts after the grace unless its session ended meanwhile. */
class DriverWatchdogTest {
  @Test
  void haltsASessionStillRunningAfterTheGraceAndSparesOneThatEnded() throws Exception {
    AtomicInteger halts = new AtomicInteger();
    AtomicBoolean ended = new AtomicBoolean();
    CompletableFuture<Void> closed = new CompletableFuture<>();
    CompletableFuture<Boolean> decided = DriverWatchdog.arm(closed, 50, ended::get, halts::incrementAndGet);
    assertFalse(decided.isDone(), "nothing happens while the driver is connected");
    closed.complete(null);
    assertTrue(decided.get(30, TimeUnit.SECONDS), "a session still running is halted");
    assertEquals(1, halts.get());

    CompletableFuture<Void> closed2 = new CompletableFuture<>();
    CompletableFuture<Boolean> spared = DriverWatchdog.arm(closed2, 50, ended::get, halts::incrementAndGet);
    ended.set(true);
    closed2.completeExceptionally(new java.io.IOException("reset")); // a connection that failed counts too
    assertFalse(spared.get(30, TimeUnit.SECONDS), "a session that ended is left to exit by itself");
    assertEquals(1, halts.get());
  }
}
