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
 * to EJML, to the measured fma peak and to the PyTorch SpMM baseline: once per wall-clock second (JMH's score)
 * and once per CPU-second of the benchmark process ({@link CpuMeter}), which other load on a shared machine moves
 * far less. Arguments, if any, replace the default benchmark regexes (e.g. {@code GemmBench.ours}).
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
    String[] includes = args.length > 0 ? args : new String[] {"VectorPeakBench", "GemmBench", "SpmmBench"};
    for (String include : includes) {
      options.include(include);
    }
    Collection<RunResult> results = new Runner(options.forks(1).build()).run();

    Rates wall = new Rates();
    for (RunResult r : results) {
      wall.put(r.getParams().getBenchmark(), r.getParams().getParam("shape"), r.getPrimaryResult().getScore());
    }
    Rates cpu = new Rates();
    for (String line : Files.readAllLines(cpuLog)) {
      String[] f = line.split("\t");
      cpu.put(f[0], f[1].equals("-") ? null : f[1], Long.parseLong(f[3]) / Double.parseDouble(f[2]));
    }
    Files.delete(cpuLog);

    System.out.println();
    System.out.println("GEMM kernel " + Gemm.kernelName() + ", " + Runtime.getRuntime().availableProcessors()
        + " cores. EJML = CommonOps_FDRM.mult, single-threaded; on the 1M-row shapes it multiplies the first "
        + GemmShape.EJML_MAX_ROWS + " rows (compare GFLOP/s, not seconds).");
    System.out.println("Targets: GEMM >= 10x EJML and > 60% of the measured fma peak; SpMM >= 2x PyTorch.");
    print("== Per wall-clock second (JMH score) ==", "GFLOP/s", wall, 1);
    print("== Per CPU-second of the benchmark process (robust to other load; SpMM scaled to all cores) ==",
        "GFLOP/CPU-s", cpu, Runtime.getRuntime().availableProcessors());
  }

  /** Operations per second by "Class.method[ shape]". */
  private static final class Rates {
    final Map<String, Double> perSecond = new LinkedHashMap<>();
    final List<String> shapes = new ArrayList<>();

    void put(String benchmark, String shape, double opsPerSecond) {
      String method = benchmark.replaceFirst(".*\\.(\\w+\\.\\w+)$", "$1");
      if (shape != null && !shapes.contains(shape)) {
        shapes.add(shape);
      }
      perSecond.put(method + (shape == null ? "" : " " + shape), opsPerSecond);
    }

    double get(String key) {
      return perSecond.getOrDefault(key, Double.NaN);
    }
  }

  private static void print(String title, String unit, Rates rates, int spmmScale) {
    double peak1 = rates.get("VectorPeakBench.fmaOneThread") * VectorPeakBench.flopsPerInvocation() / 1e9;
    double peak2 = rates.get("VectorPeakBench.fmaTwoThreads") * VectorPeakBench.flopsPerInvocation() / 1e9;
    System.out.println();
    System.out.println(title);
    System.out.printf(Locale.ROOT, "%-17s %9s %9s %9s %9s %9s %11s %11s%n", unit, "ours-MT", "ours-1T", "EJML-1T",
        "MT/EJML", "1T/EJML", "1T %peak1T", "MT %peak2T");
    for (String shape : rates.shapes) {
      GemmShape s = GemmShape.parse(shape);
      double mt = rates.get("GemmBench.oursParallel " + shape) * s.flops(s.m()) / 1e9;
      double one = rates.get("GemmBench.oursOneThread " + shape) * s.flops(s.m()) / 1e9;
      double ejml = rates.get("GemmBench.ejml " + shape) * s.flops(s.ejmlRows()) / 1e9;
      System.out.printf(Locale.ROOT, "%-17s %9.1f %9.1f %9.2f %8.1fx %8.1fx %10.0f%% %10.0f%%%n", shape, mt, one,
          ejml, mt / ejml, one / ejml, 100 * one / peak1, 100 * mt / peak2);
    }
    System.out.printf(Locale.ROOT, "Vector API fma peak (registers only): %.1f on 1 thread, %.1f on 2 threads%n",
        peak1, peak2);
    double spmm = rates.get("SpmmBench.spmmSum");
    if (!Double.isNaN(spmm)) {
      double edgesPerS = spmm * SpmmBench.EDGES * spmmScale;
      System.out.printf(Locale.ROOT, "SpMM sum, R-MAT %d nodes, %d edges, %d features: %.1f M edges/s = %.2fx "
          + "PyTorch's %.1f M edges/s%n", SpmmBench.NODES, SpmmBench.EDGES, SpmmBench.FEATURES, edgesPerS / 1e6,
          edgesPerS / PYTORCH_SPMM_EDGES_PER_S, PYTORCH_SPMM_EDGES_PER_S / 1e6);
    }
  }
}
