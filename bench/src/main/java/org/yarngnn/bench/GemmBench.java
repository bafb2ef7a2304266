package org.yarngnn.bench;

import java.util.concurrent.TimeUnit;
import org.ejml.data.FMatrixRMaj;
import org.ejml.dense.row.CommonOps_FDRM;
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

/**
 * C = A * B: our GEMM (B packed once) multi-threaded and on one thread, and the EJML baseline
 * ({@code CommonOps_FDRM.mult}, single-threaded). Score is products per second; each method has its own operands
 * so a fork allocates only what it multiplies.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx12g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class GemmBench {
  /** Our operands: 1024^3, then the GNN shapes 1M nodes x 128 (hidden) and x 602 (Reddit's feature width). */
  @State(Scope.Benchmark)
  public static class Ours {
    @Param({"1024x1024x1024", "1000000x128x128", "1000000x602x128"})
    public String shape;

    DenseMatrix a;
    PackedMatrix b;
    DenseMatrix c;

    @Setup
    public void setUp() {
      GemmShape s = GemmShape.parse(shape);
      a = new DenseMatrix(s.m(), s.k(), RandomFill.uniform((long) s.m() * s.k(), 1));
      b = PackedMatrix.pack(new DenseMatrix(s.k(), s.n(), RandomFill.uniform((long) s.k() * s.n(), 2)));
      c = new DenseMatrix(s.m(), s.n());
      System.out.println("gemm kernel: " + Gemm.kernelName());
    }
  }

  /**
   * EJML's operands: on the 1M-row shapes a slice of {@link GemmShape#EJML_MAX_ROWS} rows (the whole product would
   * take minutes); compare GFLOP/s, not seconds.
   */
  @State(Scope.Benchmark)
  public static class Ejml {
    @Param({"1024x1024x1024", "1000000x128x128", "1000000x602x128"})
    public String shape;

    FMatrixRMaj a;
    FMatrixRMaj b;
    FMatrixRMaj c;

    @Setup
    public void setUp() {
      GemmShape s = GemmShape.parse(shape);
      int rows = s.ejmlRows();
      a = FMatrixRMaj.wrap(rows, s.k(), RandomFill.uniform((long) rows * s.k(), 1));
      b = FMatrixRMaj.wrap(s.k(), s.n(), RandomFill.uniform((long) s.k() * s.n(), 2));
      c = new FMatrixRMaj(rows, s.n());
    }
  }

  @Benchmark
  public DenseMatrix oursParallel(Ours o, CpuMeter cpu) {
    Gemm.multiply(o.a, o.b, o.c);
    cpu.count();
    return o.c;
  }

  @Benchmark
  public DenseMatrix oursOneThread(Ours o, CpuMeter cpu) {
    Gemm.multiply(o.a.data(), 0, o.a.cols(), o.a.rows(), o.b, o.c.data(), 0, o.c.cols());
    cpu.count();
    return o.c;
  }

  @Benchmark
  public FMatrixRMaj ejml(Ejml e, CpuMeter cpu) {
    CommonOps_FDRM.mult(e.a, e.b, e.c);
    cpu.count();
    return e.c;
  }
}
