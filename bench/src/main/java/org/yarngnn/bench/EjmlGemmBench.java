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

/**
 * The baseline: EJML's {@code CommonOps_FDRM.mult} (single-threaded). On the 1M-row shapes it multiplies a slice of
 * {@link GemmShape#EJML_MAX_ROWS} rows (a whole product would take minutes); compare GFLOP/s, not seconds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx12g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class EjmlGemmBench {
  @Param({"1024x1024x1024", "1000000x128x128", "1000000x602x128"})
  public String shape;

  private FMatrixRMaj a;
  private FMatrixRMaj b;
  private FMatrixRMaj c;

  @Setup
  public void setUp() {
    GemmShape s = GemmShape.parse(shape);
    int rows = s.ejmlRows();
    a = FMatrixRMaj.wrap(rows, s.k(), RandomFill.uniform((long) rows * s.k(), 1));
    b = FMatrixRMaj.wrap(s.k(), s.n(), RandomFill.uniform((long) s.k() * s.n(), 2));
    c = new FMatrixRMaj(rows, s.n());
  }

  @Benchmark
  public FMatrixRMaj ejml() {
    CommonOps_FDRM.mult(a, b, c);
    return c;
  }
}
