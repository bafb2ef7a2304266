package org.yarngnn.app.transport;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * Counters of one connection, readable from any thread. "Held" inbound bytes are credited frames ({@link StreamedMessage})
 * delivered to the listener and not yet released; "queued" outbound bytes are frames encoded and not yet written to the socket.
 * The maxima are what the flow-control bounds are about.
 */
public final class ConnectionStats {
  private final AtomicLong bytesSent = new AtomicLong();
  private final AtomicLong bytesReceived = new AtomicLong();
  private final AtomicLong framesSent = new AtomicLong();
  private final AtomicLong framesReceived = new AtomicLong();
  private final AtomicLong heldInbound = new AtomicLong();
  private final LongAccumulator maxHeldInbound = new LongAccumulator(Math::max, 0);
  private final AtomicLong queuedOutbound = new AtomicLong();
  private final LongAccumulator maxQueuedOutbound = new LongAccumulator(Math::max, 0);

  ConnectionStats() {}

  void frameQueued(int bytes) {
    maxQueuedOutbound.accumulate(queuedOutbound.addAndGet(bytes));
  }

  void frameWritten(int bytes) {
    queuedOutbound.addAndGet(-bytes);
    bytesSent.addAndGet(bytes);
    framesSent.incrementAndGet();
  }

  void frameDropped(int bytes) {
    queuedOutbound.addAndGet(-bytes);
  }

  void frameReceived(int bytes) {
    bytesReceived.addAndGet(bytes);
    framesReceived.incrementAndGet();
  }

  void blockHeld(int bytes) {
    maxHeldInbound.accumulate(heldInbound.addAndGet(bytes));
  }

  void blockReleased(int bytes) {
    heldInbound.addAndGet(-bytes);
  }

  /** Frame bytes written to the socket, including length prefixes. */
  public long bytesSent() {
    return bytesSent.get();
  }

  /** Frame bytes received, including length prefixes. */
  public long bytesReceived() {
    return bytesReceived.get();
  }

  public long framesSent() {
    return framesSent.get();
  }

  public long framesReceived() {
    return framesReceived.get();
  }

  public long heldInboundBytes() {
    return heldInbound.get();
  }

  public long maxHeldInboundBytes() {
    return maxHeldInbound.get();
  }

  public long queuedOutboundBytes() {
    return queuedOutbound.get();
  }

  public long maxQueuedOutboundBytes() {
    return maxQueuedOutbound.get();
  }

  @Override
  public String toString() {
    return "sent " + bytesSent() + " B in " + framesSent() + " frames, received " + bytesReceived() + " B in "
        + framesReceived() + " frames, held " + heldInboundBytes() + " B (max " + maxHeldInboundBytes()
        + "), queued " + queuedOutboundBytes() + " B (max " + maxQueuedOutboundBytes() + ")";
  }
}
