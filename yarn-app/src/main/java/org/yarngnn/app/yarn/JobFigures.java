package org.yarngnn.app.yarn;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.yarngnn.app.runtime.DriverSession;
import org.yarngnn.app.runtime.Phase;
import org.yarngnn.app.runtime.PhaseCommand;
import org.yarngnn.app.runtime.PhaseResult;

/**
 * What the job page shows, recorded as the driver goes: status and progress, the driver's log lines (the newest
 * {@value #MAX_LINES}), one row per worker, for training every epoch's figures (the newest {@value #MAX_EPOCHS})
 * and the tensor-worker pool. A
 * worker's row fills as its answers arrive: the partition's nodes, edges and halo once the graph is built, the
 * seconds each phase took it as the driver saw them (command sent to answer received, summed over layers and
 * epochs), the gauges sent with each answer (bytes sent and received so far, heap), and at the end its own exit
 * report (final bytes, peak heap and resident set, its own phase seconds).
 * {@link #snapshot} is the JSON of the page and of the summary kept after the job ({@link JobHistory}).
 * Thread-safe: the driver writes, the page's server thread reads.
 */
final class JobFigures implements DriverSession.Progress {
  static final int MAX_LINES = 500;
  /** Most workers shown (the driver allows 10,000; a page of that many rows helps nobody). */
  static final int MAX_ROWS = 1000;
  /** Most epochs kept (the newest): a page, its chart and the kept summary stay small whatever --epochs says. */
  static final int MAX_EPOCHS = 5000;

  private final String appId;
  private final long startNanos = System.nanoTime();
  private final Deque<String> lines = new ArrayDeque<>();
  private final List<Map<String, Object>> epochs = new ArrayList<>();
  private final TreeMap<Integer, Row> workers = new TreeMap<>();
  private List<Map<String, Object>> poolTimeline = List.of();
  private int poolSize = -1;
  private float progress;
  private String status = "starting";
  private String finalStatus;
  private String diagnostics;
  private double finishedSeconds = -1;

  /** A worker's row. */
  private static final class Row {
    long nodes = -1;
    long edges = -1;
    long halo = -1;
    final Map<String, Double> phaseSeconds = new LinkedHashMap<>();
    Map<String, Double> gauges = Map.of();
    Map<String, Double> report;
  }

  JobFigures(String appId) {
    this.appId = appId;
  }

  @Override
  public synchronized void report(float fraction, String text) {
    this.progress = fraction;
    this.status = text == null ? "" : text;
  }

  @Override
  public synchronized void answered(PhaseCommand command, int worker, PhaseResult result,
      Map<String, Double> gauges, double seconds) {
    if (worker < 0 || (worker >= MAX_ROWS && !workers.containsKey(worker))) {
      return;
    }
    Row row = workers.computeIfAbsent(worker, w -> new Row());
    if (command.phase() != Phase.EXIT) {
      row.phaseSeconds.merge(command.phase().label(), seconds, Double::sum);
    }
    if (!gauges.isEmpty()) {
      row.gauges = finiteOnly(gauges);
    }
    if (result instanceof PhaseResult.PartitionSizes s) {
      row.nodes = s.nodes();
      row.edges = s.edges();
      row.halo = s.halo();
    } else if (result instanceof PhaseResult.WorkerReport r) {
      row.report = finiteOnly(r.figures());
    }
  }

  @Override
  public synchronized void epoch(Map<String, Object> figures) {
    epochs.add(finite(figures));
    if (epochs.size() > MAX_EPOCHS) {
      epochs.remove(0);
    }
  }

  @Override
  public synchronized void tensorPool(int size, List<Map<String, Object>> timeline) {
    poolSize = size;
    poolTimeline = List.copyOf(timeline);
  }

  synchronized float progressNow() {
    return progress;
  }

  String application() {
    return appId;
  }

  /** A line of the driver's log. */
  synchronized void line(String text) {
    lines.addLast(text);
    while (lines.size() > MAX_LINES) {
      lines.removeFirst();
    }
  }

  /** The application's end, as the ApplicationMaster unregisters it. */
  synchronized void finished(String status, String diagnostics) {
    this.finalStatus = status;
    this.diagnostics = diagnostics;
    this.finishedSeconds = seconds();
  }

  private double seconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  synchronized Map<String, Object> snapshot() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("format", 1L);
    m.put("application", appId);
    m.put("status", status);
    m.put("progress", (double) progress);
    m.put("seconds", finishedSeconds >= 0 ? finishedSeconds : seconds());
    if (finalStatus != null) {
      m.put("final_status", finalStatus);
      m.put("diagnostics", diagnostics);
    }
    List<Object> rows = new ArrayList<>();
    workers.forEach((w, r) -> rows.add(row(w, r)));
    m.put("workers", rows);
    m.put("epochs", new ArrayList<Object>(epochs));
    if (poolSize >= 0) {
      Map<String, Object> pool = new LinkedHashMap<>();
      pool.put("size", (long) poolSize);
      pool.put("sizes", new ArrayList<Object>(poolTimeline));
      m.put("tensor_pool", pool);
    }
    m.put("log", new ArrayList<Object>(lines));
    return m;
  }

  private static Map<String, Object> row(int w, Row r) {
    Map<String, Object> x = new LinkedHashMap<>();
    x.put("worker", (long) w);
    if (r.nodes >= 0) {
      x.put("nodes", r.nodes);
      x.put("edges", r.edges);
      x.put("halo", r.halo);
    }
    // The exit report's figures are final; until then the gauges of the worker's latest answer.
    Map<String, Double> f = r.report != null ? r.report : r.gauges;
    copyLong(f, "bytesSent", x, "bytes_sent");
    copyLong(f, "bytesReceived", x, "bytes_received");
    copyLong(r.gauges, "heapUsedBytes", x, "heap_bytes");
    copyLong(f, "peakHeapBytes", x, "peak_heap_bytes");
    copyLong(f, "peakRssBytes", x, "peak_rss_bytes");
    x.put("phase_seconds", new LinkedHashMap<String, Object>(r.phaseSeconds));
    if (r.report != null) {
      x.put("report", new LinkedHashMap<String, Object>(r.report));
    }
    return x;
  }

  private static Map<String, Double> finiteOnly(Map<String, Double> figures) {
    Map<String, Double> m = new LinkedHashMap<>(figures);
    m.values().removeIf(v -> v == null || !Double.isFinite(v));
    return m;
  }

  /** The figures with NaN and infinite values as null: JSON has no such numbers (a diverged loss is NaN). */
  static Map<String, Object> finite(Map<String, Object> figures) {
    Map<String, Object> m = new LinkedHashMap<>();
    figures.forEach((k, v) -> m.put(k, v instanceof Double d && !Double.isFinite(d)
        || v instanceof Float f && !Float.isFinite(f) ? null : v));
    return m;
  }

  private static void copyLong(Map<String, Double> from, String key, Map<String, Object> to, String name) {
    Double v = from.get(key);
    if (v != null && Double.isFinite(v)) {
      to.put(name, (long) (double) v);
    }
  }
}
