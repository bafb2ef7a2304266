package org.yarngnn.partition;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.IntSupplier;
import java.util.function.LongConsumer;

/**
 * Slots of edge arrays that several writing threads fill at once: each reserves a run of slots (an atomic add),
 * copies into it under the read lock and releases; the arrays grow, to hold every reservation made so far, under
 * the write lock, so that no copy runs into an array being replaced.
 */
final class ReservedSlots {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final AtomicLong next;
  private final IntSupplier capacity;
  private final LongConsumer grow;

  /** Slots from {@code first} on, in arrays of {@code capacity} slots that {@code grow} makes hold at least its n. */
  ReservedSlots(long first, IntSupplier capacity, LongConsumer grow) {
    this.next = new AtomicLong(first);
    this.capacity = capacity;
    this.grow = grow;
  }

  /** Reserves {@code n} slots and returns the first, holding the read lock: the caller copies, then releases. */
  int reserve(int n) {
    long at = next.getAndAdd(n);
    lock.readLock().lock();
    if (at + n <= capacity.getAsInt()) {
      return (int) at;
    }
    lock.readLock().unlock();
    lock.writeLock().lock();
    try {
      // Every reservation so far fits once grown to the largest of them.
      long need = next.get();
      if (need > capacity.getAsInt()) {
        grow.accept(need);
      }
      lock.readLock().lock();
    } finally {
      lock.writeLock().unlock();
    }
    return (int) at;
  }

  void release() {
    lock.readLock().unlock();
  }

  /** Slots reserved so far. */
  long count() {
    return next.get();
  }
}
