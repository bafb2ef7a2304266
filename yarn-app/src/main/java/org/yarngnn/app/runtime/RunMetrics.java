package org.yarngnn.app.runtime;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.yarngnn.app.cli.UsageException;
import org.yarngnn.compute.json.Json;
import org.yarngnn.io.table.PathOverlap;

/**
 * {@code --metrics FILE} (docs/formats.md, "The --metrics summary"): a JSON summary of a run for schedulers and
 * dashboards, written after the output's commit to any FileSystem, outside the output directory (which keeps only the
 * contract's files): the command, its seconds, the graph's size, each phase's seconds (the slowest worker's), bytes
 * exchanged, the peak heap and resident set (the largest worker's), every worker's figures (its partition's nodes,
 * edges and halo, phase seconds, bytes, peak heap), and for {@code train} the contents of {@code metrics.json}. Written
 * under a temporary name and renamed, so a reader never sees half a file.
 */
public final class RunMetrics {
  private RunMetrics() {}

  /**
   * Refuses (exit 2) a {@code --metrics} file inside {@code --output}, or one that is, contains or lies inside an
   * input ({@code optionAndPath} pairs as {@link PathOverlap#check}).
   */
  public static void check(Configuration conf, String metrics, String output, Object... optionAndPath) {
    if (metrics == null) {
      return;
    }
    PathOverlap.check(conf, "--metrics", metrics, optionAndPath);
    if (PathOverlap.isOrLiesInside(conf, metrics, output)) {
      throw new UsageException("--metrics " + metrics + " lies inside --output " + output + ": the output keeps "
          + "only its contract's files; put the summary elsewhere");
    }
  }

  /** The summary of a run whose workers reported {@code workers} (per-worker figures, in worker order). */
  public static Map<String, Object> summary(String command, double seconds, List<Map<String, Double>> workers) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", 1L);
    m.put("command", command);
    m.put("seconds", seconds);
    m.put("workers", (long) workers.size());
    double nodes = 0;
    double edges = 0;
    double halo = 0;
    double sent = 0;
    double received = 0;
    double peakHeap = 0;
    double peakRss = 0;
    Map<String, Double> phases = new TreeMap<>();
    Map<Double, Double> cpuByProcess = new TreeMap<>();
    List<Object> each = new ArrayList<>();
    for (Map<String, Double> w : workers) {
      if (w.containsKey("pid") && w.containsKey("processCpuSeconds")) {
        cpuByProcess.merge(w.get("pid"), w.get("processCpuSeconds"), Math::max);
      }
      nodes += w.getOrDefault("nodes", 0.0);
      edges += w.getOrDefault("edges", 0.0);
      halo += w.getOrDefault("halo", 0.0);
      sent += w.getOrDefault("bytesSent", 0.0);
      received += w.getOrDefault("bytesReceived", 0.0);
      peakHeap = Math.max(peakHeap, w.getOrDefault("peakHeapBytes", 0.0));
      peakRss = Math.max(peakRss, w.getOrDefault("peakRssBytes", 0.0));
      for (Map.Entry<String, Double> e : w.entrySet()) {
        if (e.getKey().startsWith("t.")) {
          phases.merge(e.getKey().substring(2), e.getValue(), Math::max);
        }
      }
      each.add(new LinkedHashMap<String, Object>(w));
    }
    Map<String, Object> graph = new LinkedHashMap<>();
    graph.put("nodes", (long) nodes);
    graph.put("edges", (long) edges);
    graph.put("halo_rows", (long) halo);
    m.put("graph", graph);
    m.put("phase_seconds", new LinkedHashMap<String, Object>(phases));
    Map<String, Object> bytes = new LinkedHashMap<>();
    bytes.put("sent", (long) sent);
    bytes.put("received", (long) received);
    m.put("bytes_exchanged", bytes);
    m.put("peak_heap_bytes", (long) peakHeap);
    m.put("peak_rss_bytes", (long) peakRss);
    // The workers' JVMs' CPU seconds, each JVM once (the --local workers share the client's).
    m.put("worker_cpu_seconds", cpuByProcess.values().stream().mapToDouble(Double::doubleValue).sum());
    m.put("per_worker", each);
    return m;
  }

  /** Writes {@code summary} to {@code file} (replacing it) through a temporary sibling and a rename. */
  public static void write(Configuration conf, String file, Map<String, Object> summary) throws IOException {
    Path target = new Path(file);
    FileSystem fs = target.getFileSystem(conf);
    Path tmp = new Path(target.getParent(), "." + target.getName() + ".tmp-" + ProcessHandle.current().pid());
    try (OutputStream out = fs.create(tmp, true)) {
      out.write(Json.write(summary).getBytes(StandardCharsets.UTF_8));
    }
    if (fs.exists(target) && !fs.delete(target, false)) {
      fs.delete(tmp, false);
      throw new IOException("cannot replace " + target);
    }
    if (!fs.rename(tmp, target)) {
      fs.delete(tmp, false);
      throw new IOException("cannot rename " + tmp + " to " + target);
    }
  }

  /**
   * {@link #write}, a failure reported as a warning line: the output is committed by then, and a scheduler must
   * not redo a finished job for want of its summary.
   */
  public static void writeOrWarn(Configuration conf, String file, Map<String, Object> summary,
      java.io.PrintStream out, String command) {
    try {
      write(conf, file, summary);
    } catch (IOException | RuntimeException e) {
      out.println("yarn-gnn " + command + ": warning: the output is complete but --metrics " + file
          + " could not be written: " + Failures.describe(e));
    }
  }
}
