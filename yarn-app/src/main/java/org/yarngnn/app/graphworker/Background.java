package org.yarngnn.app.graphworker;

/** One task on its own thread whose failure the waiting thread checks while it consumes inbound messages. */
public final class Background {
  /** A task that may throw. */
  @FunctionalInterface
  public interface Task {
    void run() throws Exception;
  }

  private final Thread thread;
  private volatile Throwable failure;
  private volatile boolean done;

  public Background(String name, Task task) {
    thread = new Thread(() -> {
      try {
        task.run();
      } catch (Throwable t) {
        failure = t;
      } finally {
        done = true;
      }
    }, name);
    thread.setDaemon(true);
    thread.start();
  }

  public boolean done() {
    return done;
  }

  /** Rethrows the task's failure, if any. */
  public void check() throws Exception {
    Throwable t = failure;
    if (t instanceof Exception e) {
      throw e;
    }
    if (t instanceof Error e) {
      throw e;
    }
  }

  public void join() throws Exception {
    thread.join();
    check();
  }

  void interrupt() {
    thread.interrupt();
  }

  /** Waits up to {@code millis} for the task to end (failed or not); whether it has. */
  boolean await(long millis) throws InterruptedException {
    thread.join(Math.max(1, millis));
    return !thread.isAlive();
  }

  String name() {
    return thread.getName();
  }
}
