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

  /**
   * A line of the chart: the epoch figure {@code key}, drawn against the loss axis (left) or the accuracy axis
   * (right, in %), with its own dash pattern and marker so that lines that coincide (val and test accuracy often
   * do) stay apart.
   */
  private record Series(String key, String label, boolean accuracy, String color, String dash, Marker marker) {}

  private enum Marker { NONE, CIRCLE, SQUARE }

  private static final List<Series> SERIES = List.of(
      new Series("loss", "loss", false, "#1f77b4", "", Marker.NONE),
      new Series("val_accuracy", "val accuracy", true, "#2ca02c", "8 4", Marker.CIRCLE),
      new Series("test_accuracy", "test accuracy", true, "#d62728", "2 3", Marker.SQUARE));

  /** Chart size and the plot's margins (axis ticks and titles, the legend above), in pixels. */
  private static final int WIDTH = 640;
  private static final int HEIGHT = 300;
  private static final int LEFT = 60;
  private static final int RIGHT = 60;
  private static final int TOP = 30;
  private static final int BOTTOM = 44;
  /** Horizontal grid lines: the loss and accuracy ticks share them (0, 25, 50, 75, 100 %). */
  private static final int Y_DIVISIONS = 4;
  /** Most markers per line: every epoch's for a short run, evenly spaced ones for a long one. */
  private static final int MAX_MARKERS = 25;

  /**
   * Loss (left axis, from 0) and val/test accuracy (right axis, in %) per epoch (x axis) as inline SVG with
   * labelled axes and a legend.
   */
  static String chart(List<?> epochs) {
    double maxLoss = 0;
    double first = Double.POSITIVE_INFINITY;
    double last = Double.NEGATIVE_INFINITY;
    for (Object o : epochs) {
      Map<?, ?> e = (Map<?, ?>) o;
      maxLoss = Math.max(maxLoss, number(e.get("loss")));
      first = Math.min(first, number(e.get("epoch")));
      last = Math.max(last, number(e.get("epoch")));
    }
    double lossStep = niceStep(maxLoss / Y_DIVISIONS);
    Axes a = new Axes(first, Math.max(last, first + 1), lossStep * Y_DIVISIONS);
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "<svg id='training-chart' width='%d' "
        + "height='%d' font-size='11' role='img' aria-label='loss and accuracy per epoch' "
        + "style='border:1px solid #ccc'>", WIDTH, HEIGHT));
    for (int i = 0; i <= Y_DIVISIONS; i++) {
      double y = a.y((double) i / Y_DIVISIONS);
      sb.append(String.format(Locale.ROOT, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#eee'/>", LEFT, y,
          WIDTH - RIGHT, y));
      sb.append(String.format(Locale.ROOT, "<text class='loss-tick' x='%d' y='%.1f' text-anchor='end' "
          + "dominant-baseline='middle'>%s</text>", LEFT - 4, y, plain(lossStep * i)));
      sb.append(String.format(Locale.ROOT, "<text class='accuracy-tick' x='%d' y='%.1f' dominant-baseline='middle'>"
          + "%d</text>", WIDTH - RIGHT + 4, y, 100 * i / Y_DIVISIONS));
    }
    sb.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' stroke='#999'/>",
        LEFT, TOP, a.plotWidth(), a.plotHeight()));
    double epochStep = Math.max(1, niceStep((a.last - a.first) / 8));
    double round = Math.ceil(a.first / epochStep) * epochStep;
    // The first epoch gets a tick of its own unless it would crowd the first round one (1 before 5, 10, ...).
    for (double x = round - a.first >= epochStep / 2 ? a.first : round; x <= a.last;
        x = x < round ? round : x + epochStep) {
      sb.append(String.format(Locale.ROOT, "<text class='epoch-tick' x='%.1f' y='%d' text-anchor='middle'>%s"
          + "</text>", a.x(x), HEIGHT - BOTTOM + 14, plain(x)));
    }
    sb.append(String.format(Locale.ROOT, "<text class='axis-title' x='%d' y='%d' text-anchor='middle'>epoch</text>",
        LEFT + a.plotWidth() / 2, HEIGHT - 8));
    sb.append(String.format(Locale.ROOT, "<text class='axis-title' text-anchor='middle' transform='translate(14,%d) "
        + "rotate(-90)'>loss</text>", TOP + a.plotHeight() / 2));
    sb.append(String.format(Locale.ROOT, "<text class='axis-title' text-anchor='middle' transform='translate(%d,%d) "
        + "rotate(90)'>accuracy (%%)</text>", WIDTH - 14, TOP + a.plotHeight() / 2));
    int every = Math.max(1, (epochs.size() + MAX_MARKERS - 1) / MAX_MARKERS);
    for (int c = 0; c < SERIES.size(); c++) {
      Series s = SERIES.get(c);
      StringBuilder points = new StringBuilder();
      StringBuilder markers = new StringBuilder();
      for (int i = 0; i < epochs.size(); i++) {
        Map<?, ?> e = (Map<?, ?>) epochs.get(i);
        if (!(e.get(s.key()) instanceof Number n) || !Double.isFinite(n.doubleValue())) {
          continue; // a diverged loss (null): the line joins its neighbours
        }
        double x = a.x(number(e.get("epoch")));
        double y = a.y(s.accuracy() ? n.doubleValue() : n.doubleValue() / a.lossTop);
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        if (i % every == 0 || i == epochs.size() - 1) {
          markers.append(marker(s, x, y));
        }
      }
      sb.append(String.format(Locale.ROOT, "<polyline class='series %s' fill='none' stroke='%s' stroke-width='2'%s "
          + "points='%s'/>", s.key(), s.color(), dash(s), points.toString().trim())).append(markers);
      // The legend, above the plot: a sample of the line with its marker, and its name.
      double lx = LEFT + c * 150.0;
      sb.append(String.format(Locale.ROOT, "<g class='legend'><line x1='%.1f' y1='14' x2='%.1f' y2='14' stroke='%s' "
          + "stroke-width='2'%s/>%s<text x='%.1f' y='14' dominant-baseline='middle'>%s%s</text></g>", lx, lx + 30,
          s.color(), dash(s), marker(s, lx + 15, 14), lx + 36, s.label(), s.accuracy() ? " (%, right)"
              : " (left)"));
    }
    return sb.append("</svg>").toString();
  }

  /** Where the epoch range and the loss axis's top put a point: the plot's pixels. */
  private record Axes(double first, double last, double lossTop) {
    int plotWidth() {
      return WIDTH - LEFT - RIGHT;
    }

    int plotHeight() {
      return HEIGHT - TOP - BOTTOM;
    }

    double x(double epoch) {
      return LEFT + (epoch - first) / (last - first) * plotWidth();
    }

    /** {@code fraction} of the vertical axis (0 at the bottom). */
    double y(double fraction) {
      return TOP + (1 - fraction) * plotHeight();
    }
  }

  private static String dash(Series s) {
    return s.dash().isEmpty() ? "" : " stroke-dasharray='" + s.dash() + "'";
  }

  private static String marker(Series s, double x, double y) {
    return switch (s.marker()) {
      case CIRCLE -> String.format(Locale.ROOT, "<circle cx='%.1f' cy='%.1f' r='3' fill='%s'/>", x, y, s.color());
      // Hollow and larger than the circle: a circle on the same point shows inside it.
      case SQUARE -> String.format(Locale.ROOT, "<rect x='%.1f' y='%.1f' width='9' height='9' fill='none' "
          + "stroke='%s' stroke-width='1.5'/>", x - 4.5, y - 4.5, s.color());
      case NONE -> "";
    };
  }

  /** The smallest of 1, 2 and 5 times a power of ten that is at least {@code v} (1 for nothing to scale). */
  static double niceStep(double v) {
    if (!(v > 0) || !Double.isFinite(v)) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * power >= v * (1 - 1e-9)) {
        return m * power;
      }
    }
    return 10 * power;
  }

  /** A tick's value without float noise or trailing zeros: 0.3, 1.5, 20. */
  private static String plain(double v) {
    return new java.math.BigDecimal(v).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
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
