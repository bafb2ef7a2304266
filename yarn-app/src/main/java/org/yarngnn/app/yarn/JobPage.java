package org.yarngnn.app.yarn;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yarngnn.compute.model.Json;

/**
 * The ApplicationMaster's tracking page, registered with the ResourceManager, so users open it through YARN's
 * web proxy (which authenticates them on a secure cluster): the application, its status and progress, the
 * driver's log lines (partition summary, per-epoch lines, per-worker stats), and for training a chart of loss and
 * accuracy per epoch drawn from those lines; {@code /json} has the same data. The JDK's own HTTP server, one
 * thread; it only reads what {@link #line} and {@link #status} recorded. Lifecycle: {@link #start}, {@link #stop}.
 */
public final class JobPage {
  private static final int MAX_LINES = 500;
  private static final Pattern EPOCH = Pattern.compile(
      "epoch (\\d+) loss ([0-9.eE+-]+|NaN) train ([0-9.]+) val ([0-9.]+) test ([0-9.]+) ([0-9.]+) s");

  private final String appId;
  private final long startNanos = System.nanoTime();
  private final Deque<String> lines = new ArrayDeque<>();
  private final List<double[]> epochs = new ArrayList<>();
  private float progress;
  private String status = "starting";
  private HttpServer server;

  public JobPage(String appId) {
    this.appId = appId;
  }

  /** Binds {@code host} (port 0) and serves; returns the URL to register as the tracking URL. */
  public String start(String host) throws IOException {
    server = HttpServer.create(new InetSocketAddress(host, 0), 16);
    server.createContext("/json", ex -> send(ex, "application/json", Json.write(snapshot())));
    server.createContext("/", ex -> send(ex, "text/html; charset=utf-8", html()));
    server.start();
    return "http://" + host + ":" + server.getAddress().getPort() + "/";
  }

  public void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  public synchronized void status(float fraction, String text) {
    this.progress = fraction;
    this.status = text == null ? "" : text;
  }

  /** A line of the driver's log: kept (the newest {@value #MAX_LINES}); epoch lines also feed the chart. */
  public synchronized void line(String text) {
    lines.addLast(text);
    while (lines.size() > MAX_LINES) {
      lines.removeFirst();
    }
    Matcher m = EPOCH.matcher(text);
    if (text.startsWith("yarn-gnn train: ") && m.find()) {
      double[] e = new double[6];
      for (int i = 0; i < 6; i++) {
        e[i] = Double.parseDouble(m.group(i + 1));
      }
      epochs.add(e);
    }
  }

  /** A stream that prints to {@code out} and records each line here (the driver's log). */
  public PrintStream tee(PrintStream out) {
    JobPage page = this;
    return new PrintStream(new OutputStream() {
      private final java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();

      @Override
      public synchronized void write(int b) {
        out.write(b);
        if (b == '\n') {
          page.line(buf.toString(StandardCharsets.UTF_8));
          buf.reset();
        } else {
          buf.write(b);
        }
      }

      @Override
      public void flush() {
        out.flush();
      }
    }, true, StandardCharsets.UTF_8);
  }

  synchronized Map<String, Object> snapshot() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("application", appId);
    m.put("status", status);
    m.put("progress", (double) progress);
    m.put("seconds", (System.nanoTime() - startNanos) / 1e9);
    List<Object> es = new ArrayList<>();
    for (double[] e : epochs) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("epoch", (long) e[0]);
      if (Double.isFinite(e[1])) {
        x.put("loss", e[1]);
      }
      x.put("train_accuracy", e[2]);
      x.put("val_accuracy", e[3]);
      x.put("test_accuracy", e[4]);
      x.put("seconds", e[5]);
      es.add(x);
    }
    m.put("epochs", es);
    m.put("log", new ArrayList<Object>(lines));
    return m;
  }

  private String html() {
    Map<String, Object> s = snapshot();
    StringBuilder h = new StringBuilder("<!doctype html><html><head><meta charset='utf-8'><title>yarn-gnn ")
        .append(escape(appId)).append("</title><meta http-equiv='refresh' content='5'></head><body>")
        .append("<h1>yarn-gnn ").append(escape(appId)).append("</h1><p>")
        .append(escape(String.valueOf(s.get("status")))).append(String.format(Locale.ROOT,
            " &mdash; %.0f%% after %.0f s &mdash; <a href='json'>json</a></p>", 100 * progress, s.get("seconds")));
    synchronized (this) {
      if (!epochs.isEmpty()) {
        h.append(chart());
      }
    }
    h.append("<pre>");
    for (Object l : (List<?>) s.get("log")) {
      h.append(escape(l.toString())).append('\n');
    }
    return h.append("</pre></body></html>").toString();
  }

  /** Loss (left axis, scaled to its range) and val/test accuracy (0..1) per epoch as inline SVG. */
  private String chart() {
    int w = 640;
    int ht = 240;
    double maxLoss = 1e-9;
    for (double[] e : epochs) {
      maxLoss = Math.max(maxLoss, Double.isFinite(e[1]) ? e[1] : 0);
    }
    double last = Math.max(1, epochs.get(epochs.size() - 1)[0]);
    StringBuilder sb = new StringBuilder("<svg width='" + w + "' height='" + ht + "' style='border:1px solid #ccc'>");
    String[] colors = {"#1f77b4", "#2ca02c", "#ff7f0e"};
    int[] cols = {1, 3, 4};
    for (int c = 0; c < 3; c++) {
      sb.append("<polyline fill='none' stroke='").append(colors[c]).append("' points='");
      for (double[] e : epochs) {
        double y = c == 0 ? e[1] / maxLoss : e[cols[c]];
        sb.append(String.format(Locale.ROOT, "%.1f,%.1f ", e[0] / last * (w - 10) + 5, (1 - y) * (ht - 10) + 5));
      }
      sb.append("'/>");
    }
    return sb.append("</svg><p><span style='color:#1f77b4'>loss (scaled)</span> <span style='color:#2ca02c'>val "
        + "accuracy</span> <span style='color:#ff7f0e'>test accuracy</span></p>").toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;");
  }

  private static void send(HttpExchange ex, String type, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(200, b.length);
    try (OutputStream o = ex.getResponseBody()) {
      o.write(b);
    }
  }
}
