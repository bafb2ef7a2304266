package org.yarngnn.app.infer;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.LinkedHashMap;
import java.util.Map;

/** A worker's named figures (phase seconds, sizes, bytes, peak heap), reported to the driver when it exits. */
public final class WorkerFigures {
  private final Map<String, Double> values = new LinkedHashMap<>();

  public synchronized void put(String key, double v) {
    values.put(key, v);
  }

  public synchronized void add(String key, double v) {
    values.merge(key, v, Double::sum);
  }

  public void phase(String name, double seconds) {
    put("t." + name, seconds);
  }

  /** Everything recorded, plus the bytes this worker exchanged with its peers and its peak heap. */
  public synchronized Map<String, Double> report(WorkerMesh mesh) {
    long[] bytes = mesh.bytes();
    values.put("bytesSent", (double) bytes[0]);
    values.put("bytesReceived", (double) bytes[1]);
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    values.put("peakHeapBytes", (double) peak);
    return new LinkedHashMap<>(values);
  }
}
