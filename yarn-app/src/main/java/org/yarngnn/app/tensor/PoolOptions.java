package org.yarngnn.app.tensor;

/**
 * How the tensor-worker pool sizes itself: it starts {@code initial} workers, grows by one (up to {@code max})
 * while a worker's oldest queued task has waited longer than {@code growAfterMillis}, and retires the least busy
 * worker (down to {@code min}) after a window of {@code idleMillis} in which the workers were mostly idle. A lost
 * worker is always replaced.
 */
public record PoolOptions(int initial, int min, int max, long growAfterMillis, long idleMillis) {
  public PoolOptions {
    if (min < 1 || initial < min || max < initial || growAfterMillis < 0 || idleMillis < 0) {
      throw new IllegalArgumentException("tensor pool of " + initial + " workers in " + min + ".." + max);
    }
  }
}
