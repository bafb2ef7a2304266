package org.yarngnn.app.yarn;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The job page's HTML, drawn from a {@link JobFigures#snapshot}: the header (status, progress, seconds), the
 * workers' table, for training the loss and accuracy chart, the last epochs' figures (every field the epoch
 * carries, staleness among them) and the tensor-worker pool, then the driver's log. Every value is escaped: log
 * lines and statuses carry file names and error messages. Refreshes itself every 5 s while the job runs.
 */
final class JobPageHtml {
  /** Epochs listed in the table (the chart has them all). */
  static final int EPOCH_ROWS = 10;

  private JobPageHtml() {}

  static String render(Map<String, Object> s) {
    String app = text(s.get("application"));
    boolean done = s.containsKey("final_status");
    StringBuilder h = new StringBuilder("<!doctype html><html><head><meta charset='utf-8'><title>yarn-gnn ")
        .append(escape(app)).append("</title>");
    if (!done) {
      h.append("<meta http-equiv='refresh' content='5'>");
    }
    h.append("<style>body{font-family:sans-serif;margin:1em 2em}table{border-collapse:collapse;margin:.5em 0}"
        + "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}th{background:#f3f3f3}"
        + "td.l{text-align:left}pre{background:#f8f8f8;padding:.5em;font-size:85%}</style></head><body>")
        .append("<h1>yarn-gnn ").append(escape(app)).append("</h1><p>")
        .append(escape(text(s.get("status")))).append(String.format(Locale.ROOT,
            " &mdash; %.0f%% after %.0f s &mdash; <a href='json'>json</a></p>", 100 * number(s.get("progress")),
            number(s.get("seconds"))));
    if (done) {
      h.append("<p><b>").append(escape(text(s.get("final_status")))).append("</b> ")
          .append(escape(text(s.get("diagnostics")))).append("</p>");
    }
    workers(h, (List<?>) s.get("workers"));
    List<?> epochs = (List<?>) s.get("epochs");
    if (epochs != null && !epochs.isEmpty()) {
      h.append("<h2>Training</h2>").append(chart(epochs));
      epochTable(h, epochs);
    }
    if (s.get("tensor_pool") instanceof Map<?, ?> pool) {
      pool(h, pool);
    }
    h.append("<h2>Driver log</h2><pre>");
    for (Object l : (List<?>) s.get("log")) {
      h.append(escape(l.toString())).append('\n');
    }
    return h.append("</pre></body></html>").toString();
  }

  private static void workers(StringBuilder h, List<?> rows) {
    h.append("<h2>Workers</h2><table id='workers'><tr><th>worker</th><th>nodes</th><th>edges</th><th>halo</th>"
        + "<th>sent</th><th>received</th><th>heap</th><th>peak heap</th><th class='l'>seconds per phase</th></tr>");
    for (Object o : rows) {
      Map<?, ?> r = (Map<?, ?>) o;
      h.append("<tr class='worker'><td>").append(r.get("worker")).append("</td>")
          .append(cell(r.get("nodes"), false)).append(cell(r.get("edges"), false)).append(cell(r.get("halo"), false))
          .append(cell(r.get("bytes_sent"), true)).append(cell(r.get("bytes_received"), true))
          .append(cell(r.get("heap_bytes"), true)).append(cell(r.get("peak_heap_bytes"), true))
          .append("<td class='l'>");
      Map<?, ?> phases = (Map<?, ?>) r.get("phase_seconds");
      boolean first = true;
      for (Map.Entry<?, ?> e : phases.entrySet()) {
        h.append(first ? "" : ", ").append(escape(e.getKey().toString()))
            .append(String.format(Locale.ROOT, " %.2f", number(e.getValue())));
        first = false;
      }
      h.append("</td></tr>");
    }
    h.append("</table><p style='font-size:85%'>Sizes once the partitions are built; bytes exchanged with the "
        + "other workers and heap as of each worker's latest answer (final with its exit report); seconds per phase"
        + " as the driver saw them (command to answer), summed over layers and epochs.</p>");
  }

  private static String cell(Object v, boolean bytes) {
    if (!(v instanceof Number n)) {
      return "<td>&ndash;</td>";
    }
    return "<td>" + (bytes ? mib(n.doubleValue()) : String.format(Locale.ROOT, "%,d", n.longValue())) + "</td>";
  }

  private static String mib(double b) {
    return String.format(Locale.ROOT, "%.1f MiB", b / (1 << 20));
  }

  private static void epochTable(StringBuilder h, List<?> epochs) {
    Set<String> cols = new LinkedHashSet<>();
    for (Object o : epochs) {
      ((Map<?, ?>) o).keySet().forEach(k -> cols.add(k.toString()));
    }
    h.append("<table id='epochs'><tr>");
    cols.forEach(c -> h.append("<th>").append(escape(c.replace('_', ' '))).append("</th>"));
    h.append("</tr>");
    for (Object o : epochs.subList(Math.max(0, epochs.size() - EPOCH_ROWS), epochs.size())) {
      Map<?, ?> e = (Map<?, ?>) o;
      h.append("<tr>");
      for (String c : cols) {
        Object v = e.get(c);
        h.append("<td>").append(v instanceof Double d ? String.format(Locale.ROOT, "%.4f", d)
            : v == null ? "&ndash;" : escape(v.toString())).append("</td>");
      }
      h.append("</tr>");
    }
    h.append("</table>");
  }

  private static void pool(StringBuilder h, Map<?, ?> pool) {
    List<?> sizes = (List<?>) pool.get("sizes");
    long max = 0;
    for (Object o : sizes) {
      max = Math.max(max, (long) number(((Map<?, ?>) o).get("size")));
    }
    h.append("<p id='tensor-pool'>Tensor workers: <b>").append((long) number(pool.get("size")))
        .append("</b> now, at most ").append(max).append(" so far; size over time:");
    for (Object o : sizes) {
      Map<?, ?> x = (Map<?, ?>) o;
      h.append(String.format(Locale.ROOT, " %.1f s: %d", number(x.get("seconds")), (long) number(x.get("size"))));
    }
    h.append("</p>");
  }

  /** Loss (scaled to its largest value) and val/test accuracy (0..1) per epoch as inline SVG. */
  private static String chart(List<?> epochs) {
    int w = 640;
    int ht = 240;
    double maxLoss = 1e-9;
    double last = 1;
    for (Object o : epochs) {
      Map<?, ?> e = (Map<?, ?>) o;
      maxLoss = Math.max(maxLoss, number(e.get("loss")));
      last = Math.max(last, number(e.get("epoch")));
    }
    StringBuilder sb = new StringBuilder("<svg width='" + w + "' height='" + ht + "' style='border:1px solid #ccc'>");
    String[] colors = {"#1f77b4", "#2ca02c", "#ff7f0e"};
    String[] keys = {"loss", "val_accuracy", "test_accuracy"};
    for (int c = 0; c < keys.length; c++) {
      sb.append("<polyline fill='none' stroke-width='2' stroke='").append(colors[c]).append("' points='");
      for (Object o : epochs) {
        Map<?, ?> e = (Map<?, ?>) o;
        double y = number(e.get(keys[c])) / (c == 0 ? maxLoss : 1);
        sb.append(String.format(Locale.ROOT, "%.1f,%.1f ", number(e.get("epoch")) / last * (w - 10) + 5,
            (1 - y) * (ht - 10) + 5));
      }
      sb.append("'/>");
    }
    return sb.append(String.format(Locale.ROOT, "</svg><p><span style='color:#1f77b4'>loss (scaled; largest "
        + "%.4f)</span> <span style='color:#2ca02c'>val accuracy</span> <span style='color:#ff7f0e'>test "
        + "accuracy</span></p>", maxLoss)).toString();
  }

  private static double number(Object v) {
    return v instanceof Number n && Double.isFinite(n.doubleValue()) ? n.doubleValue() : 0;
  }

  private static String text(Object v) {
    return v == null ? "" : v.toString();
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;")
        .replace("\"", "&quot;");
  }
}
