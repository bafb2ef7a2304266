package org.yarngnn.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.yarngnn.compute.kernel.Gemm;

/**
 * Runs the GEMM, Vector-peak and SpMM benchmarks (one fork each) and prints GFLOP/s and edges/s with their ratios
 * to EJML, to the measured fma peak and to the PyTorch SpMM baseline. Arguments, if any, replace the default
 * benchmark regexes (e.g. {@code GemmBench.ours} to run only our GEMM).
 */
public final class GemmSpmmReport {
  /** torch.sparse.mm, CSR, 1M nodes, 20M edges, 128 features, 2 threads (STACK.md). */
  private static final double PYTORCH_SPMM_EDGES_PER_S = 10.4e6;

  private GemmSpmmReport() {}

  public static void main(String[] args) throws RunnerException {
    OptionsBuilder options = new OptionsBuilder();
    String[] includes = args.length > 0 ? args : new String[] {
        "VectorPeakBench", "GemmBench", "SpmmBench"};
    for (String include : includes) {
      options.include(include);
    }
    Collection<RunResult> results = new Runner(options.forks(1).build()).run();
    print(results);
  }

  private static void print(Collection<RunResult> results) {
    Map<String, Double> score = new LinkedHashMap<>();
    List<String> shapes = new ArrayList<>();
    for (RunResult r : results) {
      String method = r.getParams().getBenchmark().replaceFirst(".*\\.(\\w+\\.\\w+)$", "$1");
      String shape = r.getParams().getParam("shape");
      if (shape != null && !shapes.contains(shape)) {
        shapes.add(shape);
      }
      score.put(method + (shape == null ? "" : " " + shape), r.getPrimaryResult().getScore());
    }
    double peak1 = score.getOrDefault("VectorPeakBench.fmaOneThread", Double.NaN)
        * VectorPeakBench.flopsPerInvocation() / 1e9;
    double peak2 = score.getOrDefault("VectorPeakBench.fmaTwoThreads", Double.NaN)
        * VectorPeakBench.flopsPerInvocation() / 1e9;

    System.out.println();
    System.out.println("== GEMM, GFLOP/s (kernel " + Gemm.kernelName() + "; "
        + Runtime.getRuntime().availableProcessors() + " cores) ==");
    System.out.println("EJML = CommonOps_FDRM.mult, single-threaded; on the 1M-row shapes it multiplies the first "
        + GemmShape.EJML_MAX_ROWS + " rows (GFLOP/s compare, seconds do not).");
    System.out.printf(Locale.ROOT, "%-17s %9s %9s %9s %9s %9s %11s %11s%n", "shape MxKxN", "ours-MT", "ours-1T",
        "EJML-1T", "MT/EJML", "1T/EJML", "1T %peak1T", "MT %peakMT");
    for (String shape : shapes) {
      GemmShape s = GemmShape.parse(shape);
      double mt = score.getOrDefault("GemmBench.oursParallel " + shape, Double.NaN) * s.flops(s.m()) / 1e9;
      double one = score.getOrDefault("GemmBench.oursOneThread " + shape, Double.NaN) * s.flops(s.m()) / 1e9;
      double ejml = score.getOrDefault("GemmBench.ejml " + shape, Double.NaN) * s.flops(s.ejmlRows()) / 1e9;
      System.out.printf(Locale.ROOT, "%-17s %9.1f %9.1f %9.2f %8.1fx %8.1fx %10.0f%% %10.0f%%%n", shape, mt, one,
          ejml, mt / ejml, one / ejml, 100 * one / peak1, 100 * mt / peak2);
    }
    System.out.printf(Locale.ROOT, "Measured Vector API fma peak (registers only): %.1f GFLOP/s on 1 thread, "
        + "%.1f GFLOP/s on 2 threads%n", peak1, peak2);
    System.out.println("Targets: ours >= 10x EJML; ours > 60% of the measured peak.");

    Double spmm = score.get("SpmmBench.spmmSum");
    if (spmm != null) {
      double edgesPerS = spmm * SpmmBench.EDGES;
      System.out.println();
      System.out.println("== SpMM sum, R-MAT " + SpmmBench.NODES + " nodes, " + SpmmBench.EDGES + " edges, "
          + SpmmBench.FEATURES + " features ==");
      System.out.printf(Locale.ROOT, "%.1f M edges/s (%.3f s per product) = %.2fx the PyTorch torch.sparse.mm "
          + "baseline of %.1f M edges/s (target >= 2x)%n", edgesPerS / 1e6, 1 / spmm,
          edgesPerS / PYTORCH_SPMM_EDGES_PER_S, PYTORCH_SPMM_EDGES_PER_S / 1e6);
    }
  }
}
