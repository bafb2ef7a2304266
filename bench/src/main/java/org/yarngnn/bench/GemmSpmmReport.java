package org.yarngnn.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

  public static void main(String[] args) throws RunnerException, IOException {
    Path cpuLog = Files.createTempFile("yarngnn-bench-cpu", ".tsv");
    OptionsBuilder options = new OptionsBuilder();
    // Replaces the annotations' jvmArgsAppend, so it repeats them.
    options.jvmArgsAppend("--add-modules", "jdk.incubator.vector", "-Xmx12g",
        "-D" + CpuMeter.LOG_PROPERTY + "=" + cpuLog);
    String[] includes = args.length > 0 ? args : new String[] {
        "VectorPeakBench", "GemmBench", "SpmmBench"};
    for (String include : includes) {
      options.include(include);
    }
    Collection<RunResult> results = new Runner(options.forks(1).build()).run();
    print(results);
    printPerCpuSecond(Files.readAllLines(cpuLog));
    Files.delete(cpuLog);
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

  /**
   * The same figures per CPU-second of the benchmark process (lines {@code benchmark, shape, cpuSeconds, ops} from
   * {@link CpuMeter}): on a machine shared with other jobs these move far less than the wall-clock ones.
   */
  private static void printPerCpuSecond(List<String> lines) {
    Map<String, Double> perCpuSecond = new LinkedHashMap<>();
    List<String> shapes = new ArrayList<>();
    for (String line : lines) {
      String[] f = line.split("\t");
      String method = f[0].replaceFirst(".*\\.(\\w+\\.\\w+)$", "$1");
      if (!f[1].equals("-") && !shapes.contains(f[1])) {
        shapes.add(f[1]);
      }
      perCpuSecond.put(method + (f[1].equals("-") ? "" : " " + f[1]), Long.parseLong(f[3]) / Double.parseDouble(f[2]));
    }
    double peak1 = perCpuSecond.getOrDefault("VectorPeakBench.fmaOneThread", Double.NaN)
        * VectorPeakBench.flopsPerInvocation() / 1e9;
    double peak2 = perCpuSecond.getOrDefault("VectorPeakBench.fmaTwoThreads", Double.NaN)
        * VectorPeakBench.flopsPerInvocation() / 1e9;
    System.out.println();
    System.out.println("== The same per CPU-second (process CPU time of the measured iterations; robust to other "
        + "load) ==");
    System.out.printf(Locale.ROOT, "%-17s %9s %9s %9s %9s %9s %11s %11s%n", "GFLOP/CPU-s", "ours-MT", "ours-1T",
        "EJML-1T", "MT/EJML", "1T/EJML", "1T %peak", "MT %peak");
    for (String shape : shapes) {
      GemmShape s = GemmShape.parse(shape);
      double mt = perCpuSecond.getOrDefault("GemmBench.oursParallel " + shape, Double.NaN) * s.flops(s.m()) / 1e9;
      double one = perCpuSecond.getOrDefault("GemmBench.oursOneThread " + shape, Double.NaN) * s.flops(s.m()) / 1e9;
      double ejml = perCpuSecond.getOrDefault("GemmBench.ejml " + shape, Double.NaN) * s.flops(s.ejmlRows()) / 1e9;
      System.out.printf(Locale.ROOT, "%-17s %9.1f %9.1f %9.2f %8.1fx %8.1fx %10.0f%% %10.0f%%%n", shape, mt, one,
          ejml, mt / ejml, one / ejml, 100 * one / peak1, 100 * mt / peak2);
    }
    System.out.printf(Locale.ROOT, "Vector API fma peak per CPU-second: %.1f (1 thread), %.1f (2 threads)%n", peak1,
        peak2);
    Double spmm = perCpuSecond.get("SpmmBench.spmmSum");
    if (spmm != null) {
      double edges = spmm * SpmmBench.EDGES;
      int cores = Runtime.getRuntime().availableProcessors();
      System.out.printf(Locale.ROOT, "SpMM: %.1f M edges per CPU-second; x %d cores = %.1f M edges/s if the cores "
          + "were free = %.2fx PyTorch%n", edges / 1e6, cores, cores * edges / 1e6,
          cores * edges / PYTORCH_SPMM_EDGES_PER_S);
    }
  }
}
