package org.yarngnn.app.graphworker;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's peak heap use, measured at every collection: heap use only grows between collections, so the largest
 * total before any of them (or now) is the true peak. (Summing each pool's own peak overstates it: eden, survivor
 * and old peak at different times, and the sum can pass {@code -Xmx}.) Also the largest total after a
 * collection, a high-water mark of the live data. One per JVM; {@code --local} workers share it.
 */
final class HeapPeak {
  private static final AtomicLong BEFORE_GC = new AtomicLong();
  private static final AtomicLong AFTER_GC = new AtomicLong();
  private static final Set<String> HEAP_POOLS = new HashSet<>();

  static {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        HEAP_POOLS.add(pool.getName());
      }
    }
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener((n, handback) -> {
          if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            BEFORE_GC.accumulateAndGet(heap(info.getGcInfo().getMemoryUsageBeforeGc()), Math::max);
            AFTER_GC.accumulateAndGet(heap(info.getGcInfo().getMemoryUsageAfterGc()), Math::max);
          }
        }, null, null);
      }
    }
  }

  private HeapPeak() {}

  /** Starts measuring (the first call; later ones do nothing). */
  static void install() {
    // The static initialiser has run by now.
  }

  private static long heap(Map<String, MemoryUsage> pools) {
    long used = 0;
    for (Map.Entry<String, MemoryUsage> e : pools.entrySet()) {
      if (HEAP_POOLS.contains(e.getKey())) {
        used += e.getValue().getUsed();
      }
    }
    return used;
  }

  /** The most heap in use at any moment since {@link #install}: before the fullest collection, or now. */
  static long peakBytes() {
    return Math.max(BEFORE_GC.get(), ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
  }

  /** The most heap in use right after a collection (0 before the first). */
  static long peakAfterGcBytes() {
    return AFTER_GC.get();
  }
}
