package org.yarngnn.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Counts operations against the process CPU time of the measurement iterations, so a report can give work per
 * CPU-second: on a shared machine wall-clock throughput drops with other load, CPU time much less. Appends
 * {@code benchmark<TAB>shape<TAB>cpuSeconds<TAB>ops} to the file named by {@value #LOG_PROPERTY}, if set.
 */
@State(Scope.Benchmark)
public class CpuMeter {
  static final String LOG_PROPERTY = "yarngnn.bench.cpuLog";

  private final AtomicLong ops = new AtomicLong();
  private long opsAtStart;
  private long cpuAtStart;
  private long measuredOps;
  private long measuredCpuNanos;

  /** One operation done (the benchmark methods call this once per invocation). */
  public void count() {
    ops.incrementAndGet();
  }

  @Setup(Level.Iteration)
  public void startIteration() {
    opsAtStart = ops.get();
    cpuAtStart = processCpuNanos();
  }

  @TearDown(Level.Iteration)
  public void endIteration(IterationParams iteration) {
    if (iteration.getType() == IterationType.MEASUREMENT) {
      measuredCpuNanos += processCpuNanos() - cpuAtStart;
      measuredOps += ops.get() - opsAtStart;
    }
  }

  @TearDown(Level.Trial)
  public void log(BenchmarkParams params) throws IOException {
    String file = System.getProperty(LOG_PROPERTY);
    if (file == null) {
      return;
    }
    String shape = params.getParamsKeys().contains("shape") ? params.getParam("shape") : "-";
    String line = String.format(Locale.ROOT, "%s\t%s\t%.6f\t%d%n", params.getBenchmark(), shape,
        measuredCpuNanos / 1e9, measuredOps);
    Files.writeString(Path.of(file), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
