package org.yarngnn.bench;

import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The measured Vector API fma peak: 12 independent accumulators updated with register operands only (no memory
 * traffic), enough in flight to cover fma latency on two pipes. Score is loop invocations per second; each does
 * {@link #flopsPerInvocation()} flops.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public class VectorPeakBench {
  private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  static final int STEPS = 1 << 16;
  static final int ACCUMULATORS = 12;

  public float x = 0.999f;
  public float y = 1e-4f;

  static double flopsPerInvocation() {
    return 2.0 * STEPS * ACCUMULATORS * S.length();
  }

  @Benchmark
  @Threads(1)
  public float fmaOneThread(CpuMeter cpu) {
    cpu.count();
    return fmaLoop(x, y);
  }

  @Benchmark
  @Threads(2)
  public float fmaTwoThreads(CpuMeter cpu) {
    cpu.count();
    return fmaLoop(x, y);
  }

  private static float fmaLoop(float xv, float yv) {
    FloatVector x = FloatVector.broadcast(S, xv);
    FloatVector y = FloatVector.broadcast(S, yv);
    FloatVector a0 = FloatVector.zero(S);
    FloatVector a1 = a0;
    FloatVector a2 = a0;
    FloatVector a3 = a0;
    FloatVector a4 = a0;
    FloatVector a5 = a0;
    FloatVector a6 = a0;
    FloatVector a7 = a0;
    FloatVector a8 = a0;
    FloatVector a9 = a0;
    FloatVector a10 = a0;
    FloatVector a11 = a0;
    for (int i = 0; i < STEPS; i++) {
      a0 = a0.fma(x, y);
      a1 = a1.fma(x, y);
      a2 = a2.fma(x, y);
      a3 = a3.fma(x, y);
      a4 = a4.fma(x, y);
      a5 = a5.fma(x, y);
      a6 = a6.fma(x, y);
      a7 = a7.fma(x, y);
      a8 = a8.fma(x, y);
      a9 = a9.fma(x, y);
      a10 = a10.fma(x, y);
      a11 = a11.fma(x, y);
    }
    return a0.add(a1).add(a2).add(a3).add(a4).add(a5).add(a6).add(a7).add(a8).add(a9).add(a10).add(a11)
        .reduceLanes(VectorOperators.ADD);
  }
}
