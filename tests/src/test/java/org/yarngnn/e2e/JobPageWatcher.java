package org.yarngnn.e2e;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.yarngnn.compute.json.Json;
import org.yarngnn.e2e.cluster.MiniClusters;

/**
 * Reads the job page of the running application the way a user does: the tracking URL of the application report,
 * which goes through the ResourceManager's web proxy ({@code http://<rm web>/proxy/<app>/}), never the AM's own
 * address. Polls from a thread while a job runs and keeps the last page (its JSON and its HTML, both fetched
 * through the proxy) whose JSON {@code wanted} accepts.
 */
final class JobPageWatcher implements AutoCloseable {
  /** What was read: the tracking URL, the page's JSON and HTML from one poll; or why nothing was. */
  record Seen(String trackingUrl, Map<?, ?> json, String html, String last) {
    boolean found() {
      return json != null;
    }
  }

  private final AtomicBoolean stop = new AtomicBoolean();
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "job-page-watcher");
    t.setDaemon(true);
    return t;
  });
  private final Future<Seen> seen;

  JobPageWatcher(MiniClusters cluster, Predicate<Map<?, ?>> wanted) {
    this(cluster, wanted, () -> null);
  }

  /**
   * As above, and runs {@code onFound} once, when a page is first kept: a job held by a test hook (e.g.
   * {@code hold-after-epoch}) is released there, so the page is read at a known point, not raced.
   */
  JobPageWatcher(MiniClusters cluster, Predicate<Map<?, ?>> wanted, java.util.concurrent.Callable<?> onFound) {
    seen = thread.submit(() -> watch(cluster, wanted, onFound));
  }

  private Seen watch(MiniClusters cluster, Predicate<Map<?, ?>> wanted, java.util.concurrent.Callable<?> onFound)
      throws Exception {
    Seen kept = null;
    String last = "no running application seen";
    try (YarnClient yc = YarnClient.createYarnClient()) {
      yc.init(cluster.conf());
      yc.start();
      while (!stop.get()) {
        for (ApplicationReport r : yc.getApplications()) {
          String url = r.getTrackingUrl();
          if (r.getYarnApplicationState() != YarnApplicationState.RUNNING || url == null || url.isEmpty()
              || url.equals("N/A")) {
            continue;
          }
          url = url.startsWith("http") ? url : "http://" + url;
          url = url.endsWith("/") ? url : url + "/";
          try {
            String body = get(url + "json");
            Map<?, ?> json = (Map<?, ?>) Json.parse(body);
            last = url + "json: " + body.substring(0, Math.min(300, body.length()));
            if (wanted.test(json)) {
              if (kept == null) {
                onFound.call();
              }
              kept = new Seen(url, json, get(url), last);
            }
          } catch (IOException | IllegalArgumentException | ClassCastException e) {
            last = url + ": " + e; // the AM has not registered its page yet, or the proxy said no
          }
        }
        Thread.sleep(150);
      }
    }
    return kept != null ? kept : new Seen(null, null, null, last);
  }

  private static String get(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setConnectTimeout(5000);
    c.setReadTimeout(10000);
    int code = c.getResponseCode();
    if (code != 200) {
      throw new IOException("HTTP " + code + " from " + url);
    }
    try (var in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Stops polling and returns the last page kept. */
  Seen stop() throws Exception {
    stop.set(true);
    return seen.get(60, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    stop.set(true);
    thread.shutdownNow();
  }

  /** The workers' rows of a page's JSON. */
  static List<?> workers(Map<?, ?> json) {
    return (List<?>) json.get("workers");
  }
}
