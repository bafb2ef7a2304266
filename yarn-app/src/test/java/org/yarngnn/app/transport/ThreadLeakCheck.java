package org.yarngnn.app.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * No thread a transport started outlives it. After each test: its event-loop threads (non-daemon, so a leak would
 * keep a container JVM alive) have ended. After the class: no non-daemon thread is left that was not there before
 * it, e.g. Netty's global executor, which ends by itself within a second of going quiet (hence checked once).
 */
final class ThreadLeakCheck implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ThreadLeakCheck.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getStore(NS).put("before", Set.copyOf(Thread.getAllStackTraces().keySet()));
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    assertThreadsEnd(t -> t.getName().startsWith("yarngnn-net"));
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    @SuppressWarnings("unchecked")
    Set<Thread> before = context.getStore(NS).get("before", Set.class);
    assertThreadsEnd(t -> t.getName().startsWith("yarngnn-net") || !t.isDaemon() && !before.contains(t));
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
