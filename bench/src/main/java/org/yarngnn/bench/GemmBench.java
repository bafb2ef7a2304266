package org.yarngnn.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.yarngnn.compute.kernel.Gemm;
import org.yarngnn.compute.kernel.PackedMatrix;
import org.yarngnn.compute.tensor.DenseMatrix;

/** Our GEMM, C = A * B with B packed once, multi-threaded and on one thread; score is products per second. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx12g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class GemmBench {
  /** 1024^3, then the GNN shapes: 1M nodes x 128 (hidden) and x 602 (Reddit's feature width) features. */
  @Param({"1024x1024x1024", "1000000x128x128", "1000000x602x128"})
  public String shape;

  private DenseMatrix a;
  private PackedMatrix b;
  private DenseMatrix c;

  @Setup
  public void setUp() {
    GemmShape s = GemmShape.parse(shape);
    a = new DenseMatrix(s.m(), s.k(), RandomFill.uniform((long) s.m() * s.k(), 1));
    b = PackedMatrix.pack(new DenseMatrix(s.k(), s.n(), RandomFill.uniform((long) s.k() * s.n(), 2)));
    c = new DenseMatrix(s.m(), s.n());
    System.out.println("gemm kernel: " + Gemm.kernelName());
  }

  @Benchmark
  public DenseMatrix oursParallel() {
    Gemm.multiply(a, b, c);
    return c;
  }

  @Benchmark
  public DenseMatrix oursOneThread() {
    Gemm.multiply(a.data(), 0, a.cols(), a.rows(), b, c.data(), 0, c.cols());
    return c;
  }
}
