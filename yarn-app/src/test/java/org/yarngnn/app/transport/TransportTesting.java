package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

/** Shared bits of the transport tests: quick options and event waiting. */
final class TransportTesting {
  static final String LOOPBACK = "127.0.0.1";
  /** The secret of the tests' transports, fixed so a peer in another JVM holds it too (a job makes its own). */
  static final TransportSecret SECRET = TransportSecret.of("yarn-gnn transport tests' secret".getBytes(
      java.nio.charset.StandardCharsets.US_ASCII));

  private TransportTesting() {}

  /** Loopback-only server, one I/O thread, quick heartbeats and retries, the tests' secret. */
  static TransportOptions.Builder quick() {
    return TransportOptions.builder().secret(SECRET).identity("test").bindHost(LOOPBACK).ioThreads(1)
        .heartbeat(200, 3_000)
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
}
