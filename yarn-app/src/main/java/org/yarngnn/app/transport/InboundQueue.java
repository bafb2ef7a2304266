package org.yarngnn.app.transport;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A listener that queues everything for a consumer thread, since listener callbacks must not block. Unbounded, yet
 * bounded in practice: row blocks are limited by credit, control messages are few and small.
 */
public final class InboundQueue implements TransportListener {
  /** A message from {@code connection}, or (message null) its close with {@code cause} (null = closed locally). */
  public record Event(PeerConnection connection, Message message, Throwable cause) {
    public boolean isClose() {
      return message == null;
    }
  }

  private final BlockingQueue<Event> queue = new LinkedBlockingQueue<>();

  @Override
  public void onMessage(PeerConnection connection, Message message) {
    queue.add(new Event(connection, message, null));
  }

  @Override
  public void onClosed(PeerConnection connection, Throwable cause) {
    queue.add(new Event(connection, null, cause));
  }

  public Event take() throws InterruptedException {
    return queue.take();
  }

  /** The next event, or null after {@code timeout}. */
  public Event poll(long timeout, TimeUnit unit) throws InterruptedException {
    return queue.poll(timeout, unit);
  }

  public int size() {
    return queue.size();
  }
}
