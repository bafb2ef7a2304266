package org.yarngnn.app.graphworker;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A worker's named figures (phase seconds, sizes, bytes, peak heap and resident set), reported to the driver when
 * it exits.
 */
public final class WorkerFigures {
  private final Map<String, Double> values = new LinkedHashMap<>();

  public WorkerFigures() {
    HeapPeak.install();
  }

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
    values.put("peakHeapBytes", (double) HeapPeak.peakBytes());
    values.put("peakHeapAfterGcBytes", (double) HeapPeak.peakAfterGcBytes());
    long rss = peakRssBytes();
    if (rss > 0) {
      values.put("peakRssBytes", (double) rss);
    }
    // The CPU seconds of the worker's JVM (every thread, GC and JIT included) and which JVM that is: --local
    // workers share one, so a summary counts each process once.
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        && os.getProcessCpuTime() >= 0) {
      values.put("processCpuSeconds", os.getProcessCpuTime() / 1e9);
      values.put("pid", (double) ProcessHandle.current().pid());
    }
    return new LinkedHashMap<>(values);
  }

  /**
   * A worker's gauges for the job page ({@link org.yarngnn.app.runtime.WorkerSession.Role#gauges}): bytes sent
   * and received with its peers so far, heap used now and its peak so far.
   */
  public static Map<String, Double> gauges(WorkerMesh mesh) {
    long[] bytes = mesh.bytes();
    Map<String, Double> g = new LinkedHashMap<>();
    g.put("bytesSent", (double) bytes[0]);
    g.put("bytesReceived", (double) bytes[1]);
    g.put("heapUsedBytes", (double) ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    g.put("peakHeapBytes", (double) HeapPeak.peakBytes());
    return g;
  }

  /**
   * The process's peak resident set (Linux {@code VmHWM} of /proc/self/status), or -1 where there is none. With
   * {@code --local} the workers share one process, so each reports the same figure; in a container it is the
   * worker's own.
   */
  static long peakRssBytes() {
    try {
      for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          String[] f = line.substring(6).trim().split("\\s+");
          return Long.parseLong(f[0]) * 1024; // kB
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not Linux, or no procfs: no figure
    }
    return -1;
  }
}
