package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** Shared bits of the transport tests: quick options, event waiting, and the thread-leak check. */
final class TransportTesting {
  static final String LOOPBACK = "127.0.0.1";

  private TransportTesting() {}

  /** Loopback-only server, one I/O thread, quick heartbeats and retries. */
  static TransportOptions.Builder quick() {
    return TransportOptions.builder().bindHost(LOOPBACK).ioThreads(1).heartbeat(200, 3_000)
        .connectBackoffMillis(20).connectAttempts(3).connectTimeoutMillis(2_000);
  }

  static InboundQueue.Event next(InboundQueue q) throws InterruptedException {
    InboundQueue.Event e = q.poll(10, TimeUnit.SECONDS);
    assertNotNull(e, "no event within 10 s");
    return e;
  }

  /** The next message (failing on a close event). */
  static Message nextMessage(InboundQueue q) throws InterruptedException {
    InboundQueue.Event e = next(q);
    assertTrue(!e.isClose(), () -> "connection closed instead of a message: " + e.cause());
    return e.message();
  }

  /** The next close event (failing on a message). */
  static InboundQueue.Event nextClose(InboundQueue q) throws InterruptedException {
    InboundQueue.Event e = next(q);
    assertTrue(e.isClose(), () -> "expected a close, got " + e.message());
    return e;
  }

  /** The event-loop threads of stopped transports have ended (checked after each test). */
  static void assertTransportThreadsGone() throws InterruptedException {
    assertThreadsEnd(t -> t.getName().startsWith("yarngnn-net"));
  }

  /**
   * No thread a transport started outlives it: neither its event-loop threads (non-daemon, so a leak would keep a
   * container JVM alive) nor any other non-daemon thread, e.g. Netty's global executor, which ends by itself within
   * a second of going quiet (checked once per test class, as it costs that second).
   */
  static void assertNoNonDaemonThreadsLeft() throws InterruptedException {
    assertThreadsEnd(t -> t.getName().startsWith("yarngnn-net") || !t.isDaemon());
  }

  private static void assertThreadsEnd(Predicate<Thread> watched) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
    List<String> alive;
    do {
      alive = Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.isAlive() && t != Thread.currentThread() && !t.getName().startsWith("junit-"))
          .filter(watched)
          .map(t -> t.getName() + (t.isDaemon() ? " (daemon)" : ""))
          .collect(Collectors.toList());
      if (alive.isEmpty()) {
        return;
      }
      Thread.sleep(20);
    } while (System.nanoTime() < deadline);
    assertEquals(List.of(), alive, "threads still alive after every transport stopped");
  }
}
