package org.yarngnn.app.yarn;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;
import org.yarngnn.compute.json.Json;

/**
 * The ApplicationMaster's tracking page, registered with the ResourceManager, so users open it through YARN's
 * web proxy (which authenticates them on a secure cluster): the application, its status and progress, one row
 * per worker (its partition's nodes, edges and halo, bytes sent and received, peak heap, seconds per phase), for
 * training a chart of loss and accuracy per epoch, every epoch's figures (staleness among them) and the
 * tensor-worker pool's size, and the driver's log lines; {@code json} beside it has the same data
 * ({@link JobFigures#snapshot}). Links are relative, so they work under the proxy's {@code /proxy/<app>/}. The
 * JDK's own HTTP server, one thread; it only reads what the driver recorded. Lifecycle: {@link #start},
 * {@link #stop}.
 */
public final class JobPage {
  /** A longer "line" (a driver printing without newlines) is cut into lines of this many bytes. */
  private static final int MAX_LINE_BYTES = 16 * 1024;
  private final JobFigures figures;
  private HttpServer server;

  public JobPage(String appId) {
    this.figures = new JobFigures(appId);
  }

  /**
   * Binds {@code host} (port 0) and serves, only through YARN's web proxy ({@link ProxyOnlyAccess}, the proxy
   * hosts from {@code conf}); returns the URL to register as the tracking URL.
   */
  public String start(String host, Configuration conf) throws IOException {
    List<String> proxies = WebAppUtils.getProxyHostsAndPortsForAmFilter(conf);
    return start(host, proxies.isEmpty() ? null : new ProxyOnlyAccess(proxies,
        WebAppUtils.getHttpSchemePrefix(conf) + proxies.get(0) + "/proxy/" + figures.application()));
  }

  /** As {@link #start(String, Configuration)}; {@code access} null answers every request. */
  String start(String host, ProxyOnlyAccess access) throws IOException {
    server = HttpServer.create(new InetSocketAddress(host, 0), 16);
    server.createContext("/json", ex -> answer(ex, access, "application/json", () -> Json.write(figures.snapshot())));
    server.createContext("/", ex -> answer(ex, access, "text/html; charset=utf-8",
        () -> JobPageHtml.render(figures.snapshot())));
    server.start();
    return "http://" + host + ":" + server.getAddress().getPort() + "/";
  }

  private static void answer(HttpExchange ex, ProxyOnlyAccess access, String type,
      java.util.function.Supplier<String> body) throws IOException {
    if (access != null && !access.allows(ex.getRemoteAddress().getAddress())) {
      try (ex) {
        String q = ex.getRequestURI().getRawQuery();
        ex.getResponseHeaders().set("Location", access.redirect(ex.getRequestURI().getRawPath()
            + (q == null ? "" : "?" + q)));
        ex.sendResponseHeaders(302, -1);
      }
      return;
    }
    send(ex, type, body.get());
  }

  public void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  /** Where the driver's progress, answers, epochs and pool sizes go (see {@link DriverContext#reporter}). */
  JobFigures figures() {
    return figures;
  }

  public void status(float fraction, String text) {
    figures.report(fraction, text);
  }

  /**
   * Records the application's end and writes the page's last state to {@code file} ({@link JobHistory}), for
   * {@code yarn-gnn status} once this AM is gone; a failure to write it is logged, never the job's failure.
   */
  public void finish(FileSystem fs, Path file, String finalStatus, String diagnostics) {
    figures.report(figures.progressNow(), finalStatus.equals("SUCCEEDED") ? "finished" : finalStatus.toLowerCase(
        java.util.Locale.ROOT));
    figures.finished(finalStatus, diagnostics);
    try {
      JobHistory.write(fs, file, figures.snapshot());
      ApplicationMaster.log("summary in " + file + " (yarn-gnn status " + figures.application() + ")");
    } catch (IOException | RuntimeException e) {
      ApplicationMaster.log("could not write the summary " + file + ": " + ApplicationMaster.describe(e));
    }
  }

  /** A line of the driver's log, kept for the page. */
  public void line(String text) {
    figures.line(text);
  }

  /** A stream that prints to {@code out} and records each line here (the driver's log). */
  public PrintStream tee(PrintStream out) {
    JobPage page = this;
    return new PrintStream(new OutputStream() {
      private final java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();

      @Override
      public synchronized void write(int b) {
        out.write(b);
        if (b == '\n' || buf.size() >= MAX_LINE_BYTES) {
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

  /** The page's data now, as {@code json} serves it. */
  Map<String, Object> snapshot() {
    return figures.snapshot();
  }

  /** Answers GET (and HEAD) with {@code body}; the page changes nothing, so any other method is refused. */
  private static void send(HttpExchange ex, String type, String body) throws IOException {
    try (ex) {
      String method = ex.getRequestMethod();
      if (!method.equals("GET") && !method.equals("HEAD")) {
        ex.getResponseHeaders().set("Allow", "GET, HEAD");
        ex.sendResponseHeaders(405, -1);
        return;
      }
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", type);
      ex.getResponseHeaders().set("Cache-Control", "no-store");
      if (method.equals("HEAD")) {
        ex.sendResponseHeaders(200, -1);
        return;
      }
      ex.sendResponseHeaders(200, b.length);
      try (OutputStream o = ex.getResponseBody()) {
        o.write(b);
      }
    }
  }
}
