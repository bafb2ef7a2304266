package org.yarngnn.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.yarngnn.compute.graph.Csr;
import org.yarngnn.compute.kernel.SpMM;
import org.yarngnn.compute.tensor.DenseMatrix;

/**
 * SpMM (sum aggregation) over an R-MAT graph of 1M nodes and 20M edges with 128 features, the shape of the
 * PyTorch {@code torch.sparse.mm} baseline in STACK.md. Score is products per second; edges/s = score x
 * {@link #EDGES}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx12g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class SpmmBench {
  static final int NODES = 1_000_000;
  static final int EDGES = 20_000_000;
  static final int FEATURES = 128;

  private Csr graph;
  private DenseMatrix x;
  private DenseMatrix out;

  @Setup
  public void setUp() {
    graph = RmatCsr.generate(NODES, EDGES, 42);
    x = new DenseMatrix(NODES, FEATURES, RandomFill.uniform((long) NODES * FEATURES, 3));
    out = new DenseMatrix(NODES, FEATURES);
  }

  @Benchmark
  public DenseMatrix spmmSum(CpuMeter cpu) {
    SpMM.multiply(graph, x, out, SpMM.Reduce.SUM);
    cpu.count();
    return out;
  }
}
