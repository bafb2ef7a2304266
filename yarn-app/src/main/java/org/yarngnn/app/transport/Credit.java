package org.yarngnn.app.transport;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The credit slot of one {@link StreamedMessage}: whether it was released, and what releasing it must do on the
 * receiving side (return the credit to the sender), which the connection sets before delivering the message.
 * Every credited message holds its own instance; only the transport can attach or fire it.
 */
public final class Credit {
  private final AtomicBoolean released = new AtomicBoolean();
  private volatile Runnable onRelease;

  public Credit() {}

  /** Set by the receiving connection before delivery (so the consumer sees it). */
  void onRelease(Runnable r) {
    this.onRelease = r;
  }

  /** Releases once: runs {@code first} (may be null), then returns the credit; later calls do nothing. */
  void release(Runnable first) {
    if (released.compareAndSet(false, true)) {
      if (first != null) {
        first.run();
      }
      Runnable r = onRelease;
      if (r != null) {
        r.run();
      }
    }
  }

  public boolean isReleased() {
    return released.get();
  }
}
