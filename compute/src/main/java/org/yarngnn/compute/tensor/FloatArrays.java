package org.yarngnn.compute.tensor;

import java.util.concurrent.CompletableFuture;

/** Large float arrays allocated ahead of their use. */
public final class FloatArrays {
  private FloatArrays() {}

  /**
   * Starts allocating {@code floats} values on a daemon thread named {@code name}; the future holds the array, or
   * null when the heap had no room for it (the caller then allocates when it needs the array, and fails there if
   * it must). Why: Java zeroes a new array on the thread that allocates it, and a fresh array's first touch is page
   * faults, on a VM about a second of one core for 512 MB; started while other work leaves a core to it, the
   * allocation overlaps that work instead of holding up the thread that needs the array.
   */
  public static CompletableFuture<float[]> allocateAhead(int floats, String name) {
    CompletableFuture<float[]> r = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        r.complete(new float[floats]);
      } catch (OutOfMemoryError e) {
        r.complete(null);
      }
    }, name);
    t.setDaemon(true);
    t.start();
    return r;
  }
}
